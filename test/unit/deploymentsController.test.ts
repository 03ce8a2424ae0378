// The Deployments view's controller over the fake vscode module: what it shows as the connection changes.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { fakeServices } from './helpers/fakeServices';
import type { DeploymentPage } from '../../src/api';
import { DeploymentsController } from '../../src/features/deployments/deploymentsController';
import type { DeploymentsTreeProvider } from '../../src/features/deployments/deploymentsTreeProvider';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Deployments view and the connection', () => {
  beforeEach(() => fake.resetFake());

  it('applies the answer of the newest connection change, not an older one that arrives after it', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const changed = new fake.EventEmitter<void>();
    const answers: Array<(configured: boolean) => void> = [];
    let listings = 0;
    const page: DeploymentPage = { deployments: [{ id: '00000000-0000-4000-8000-000000000001', name: 'app' }], invalid: [], requestedOffset: 0, limit: 20, nextOffset: 1, mayHaveMore: false, end: 'short' };
    Object.assign(services.connection, {
      onDidChange: changed.event,
      isConfigured: () => new Promise<boolean>((resolve) => answers.push(resolve)),
      getClient: async () => ({
        async *deploymentPages() {
          listings++;
          yield page;
        },
      }),
    });
    const controller = new DeploymentsController(services);
    // The connection the window started with (a key) is still being resolved when the key is removed.
    changed.fire();
    assert.equal(answers.length, 2);
    answers[1](false);
    await settle();
    answers[0](true);
    await settle();
    const provider = fake.window.treeViews.get('deploymentsExplorer.deployments')!.treeDataProvider as DeploymentsTreeProvider;
    assert.deepEqual(provider.getChildren(), [], 'the welcome view shows: nothing is listed without a key');
    await settle();
    assert.deepEqual(provider.getChildren(), []);
    assert.equal(listings, 0, 'no listing is asked for');
    controller.dispose();
  });
});
