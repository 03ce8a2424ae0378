// The Deployments view's controller over the fake vscode module: what it shows as the connection changes.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { fakeServices } from './helpers/fakeServices';
import type { DeploymentPage } from '../../src/api';
import { DeploymentsController } from '../../src/features/deployments/deploymentsController';
import type { DeploymentsTreeProvider } from '../../src/features/deployments/deploymentsTreeProvider';
import { DeploymentJsonProvider } from '../../src/features/deployments/deploymentJson';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Deployments view and the connection', () => {
  beforeEach(() => fake.resetFake());

  it('applies the answer of the newest connection change, not an older one that arrives after it', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const changed = new fake.EventEmitter<void>();
    const answers: Array<(configured: boolean) => void> = [];
    let listings = 0;
    const page: DeploymentPage = { deployments: [{ id: '00000000-0000-4000-8000-000000000001', name: 'app' }], offContract: [], requestedOffset: 0, limit: 20, nextOffset: 1, mayHaveMore: false, end: 'short' };
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

describe('Show JSON documents', () => {
  beforeEach(() => fake.resetFake());
  const loaded = (n: number) => {
    const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    return { key: id, deployment: { id, name: `app-${n}` } };
  };
  const gone = /no longer loaded/;

  it('drops a document’s text once VS Code closes it, and takes it again when shown again', async () => {
    const json = new DeploymentJsonProvider();
    const uri = await json.show(loaded(1));
    assert.match(json.provideTextDocumentContent(uri as never), /"name": "app-1"/);
    const document = fake.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString())!;
    fake.workspace.closeTextDocument(document);
    assert.match(json.provideTextDocumentContent(uri as never), gone);
    await json.show(loaded(1));
    assert.match(json.provideTextDocumentContent(uri as never), /"name": "app-1"/);
    json.dispose();
  });

  it('keeps a bounded number of texts, those used least recently going first', async () => {
    const json = new DeploymentJsonProvider();
    const first = await json.show(loaded(0));
    const second = await json.show(loaded(1));
    for (let n = 2; n < 200; n++) {
      // The first stays in use (VS Code asks for it again); the second is left alone.
      json.provideTextDocumentContent(first as never);
      await json.show(loaded(n));
    }
    assert.match(json.provideTextDocumentContent(first as never), /"name": "app-0"/);
    assert.match(json.provideTextDocumentContent(second as never), gone);
    json.dispose();
  });
});
