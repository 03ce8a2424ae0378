// The watch feature over the fake vscode module: what its status bar item shows and what a screen reader
// says while deployments are in progress, how many checks failed; and what it logs of a switch of control plane.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fakeServices } from './helpers/fakeServices';
import { registerWatch } from '../../src/features/watch';

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

type Item = ReturnType<fake.FakeWindow['createStatusBarItem']> & { accessibilityInformation?: { label: string }; visible?: boolean };

describe('watch status bar', () => {
  let items: Item[];
  let services: ReturnType<typeof fakeServices>['services'];

  beforeEach(() => {
    fake.resetFake();
    items = [];
    const create = fake.window.createStatusBarItem.bind(fake.window);
    fake.window.createStatusBarItem = (...args) => {
      const item: Item = create(...args);
      item.show = () => void (item.visible = true);
      item.hide = () => void (item.visible = false);
      items.push(item);
      return item;
    };
    services = fakeServices().services;
  });
  afterEach(() => {
    for (const subscription of services.context.subscriptions) subscription.dispose();
  });

  it('says “1 deployment in progress”, then “2 deployments in progress”', () => {
    const { deployments } = fakeServices();
    const watch = registerWatch(services, deployments);
    watch.watchCreated({ id: uuid(1), name: 'shop', status: 'AWAITING_DATABASE' });
    assert.equal(items.length, 1);
    assert.equal(items[0].text, '$(loading~spin) 1 deploying');
    assert.equal(items[0].accessibilityInformation?.label, '1 deployment in progress');
    watch.watchCreated({ id: uuid(2), name: 'api', status: 'AWAITING_DATABASE' });
    assert.equal(items[0].text, '$(loading~spin) 2 deploying');
    assert.equal(items[0].accessibilityInformation?.label, '2 deployments in progress');
  });

  it('counts the failed checks in the tooltip: “1 try”, then “2 tries”', async () => {
    const { deployments } = fakeServices();
    const connection = services.connection as unknown as { getClient(): Promise<never> };
    connection.getClient = async () => {
      throw new Error('The control plane answered HTTP 503: maintenance window');
    };
    const watch = registerWatch(services, deployments);
    watch.pin({ id: uuid(1), name: 'shop', status: 'READY' });
    await watch.scheduler.tick();
    assert.match(items[0].text, /^\$\(warning\) /);
    assert.match(String(items[0].tooltip), /^Could not check the deployments \(1 try\): The control plane answered HTTP 503: maintenance window\n/);
    await watch.scheduler.tick();
    assert.match(String(items[0].tooltip), /^Could not check the deployments \(2 tries\): /);
  });

  it('logs a switch of control plane without the password a base URL setting holds', () => {
    const { deployments } = fakeServices();
    const connection = services.connection as unknown as { controlPlane(): string; onDidChange(listener: () => void): { dispose(): void } };
    let changed = () => {};
    connection.onDidChange = (listener) => {
      changed = listener;
      return { dispose: () => undefined };
    };
    const lines: string[] = [];
    (services as { log: unknown }).log = { info: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) };
    registerWatch(services, deployments);
    connection.controlPlane = () => 'https://alice:hunter2-secret@cp.example.com|';
    changed();
    assert.ok(lines.some((line) => line.includes('cp.example.com')), lines.join('\n'));
    assert.ok(!lines.some((line) => line.includes('hunter2-secret')), lines.join('\n'));
  });

  describe('a rollout that never lands', () => {
    const REV_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
    const REV_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
    /** READY, its latest revision not active, last updated an hour ago: stuck since before it was followed. */
    const stuck = { id: uuid(1), name: 'shop', status: 'READY', latest_revision_id: REV_B, active_revision_id: REV_A, updated_at: new Date(Date.now() - 3600_000).toISOString() };
    const serve = (records: () => object[]) => {
      const connection = services.connection as unknown as { getClient(): Promise<unknown> };
      connection.getClient = async () => ({ listDeployments: async () => ({ deployments: records(), offContract: [] }) });
    };
    const stalledMessages = () => fake.window.messages.filter((m) => /has not finished/.test(m.message));

    it('is reported once with Keep Watching, and no longer counted as deploying', async () => {
      const { deployments } = fakeServices();
      serve(() => [stuck]);
      const watch = registerWatch(services, deployments);
      watch.watchCreated(stuck);
      assert.equal(items[0].text, '$(loading~spin) 1 deploying');
      assert.equal(items[0].visible, true);
      await watch.scheduler.tick();
      const [message, ...more] = stalledMessages();
      assert.deepEqual(more, []);
      assert.equal(message.level, 'warning');
      assert.match(message.message, /^Deployment “shop” has not finished: its latest revision is not active, and nothing has changed for 1 h\. It may have failed to build or deploy\.$/);
      assert.deepEqual(message.actions, ['Keep Watching'], 'no web console configured');
      assert.equal(items[0].visible, false, 'no longer followed: nothing left to show');
      await watch.scheduler.tick();
      assert.equal(stalledMessages().length, 1, 'one notification');
    });

    it('offers Open in Web Console when one is configured; Keep Watching counts it as deploying again', async () => {
      fake.workspace.set('deploymentsExplorer.webConsoleUrl', 'https://console.example.com/deployments/{id}');
      fake.window.answer = (shown) => (/has not finished/.test(shown.message) ? 'Keep Watching' : undefined);
      const { deployments } = fakeServices();
      serve(() => [stuck]);
      const watch = registerWatch(services, deployments);
      watch.watchCreated(stuck);
      await watch.scheduler.tick();
      assert.deepEqual(stalledMessages()[0]?.actions, ['Open in Web Console', 'Keep Watching']);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(items[0].text, '$(loading~spin) 1 deploying', 'watched again after Keep Watching');
    });

    it('Open in Web Console runs the web console action for it', async () => {
      fake.workspace.set('deploymentsExplorer.webConsoleUrl', 'https://console.example.com/deployments/{id}');
      fake.window.answer = (shown) => (/has not finished/.test(shown.message) ? 'Open in Web Console' : undefined);
      // The deployments feature's command, registered in the real extension.
      fake.commands.registerCommand('deploymentsExplorer.openInWebConsole', () => undefined);
      const { deployments } = fakeServices();
      serve(() => [stuck]);
      const watch = registerWatch(services, deployments);
      watch.watchCreated(stuck);
      await watch.scheduler.tick();
      await new Promise((resolve) => setImmediate(resolve));
      const opened = fake.commands.executed.filter((call) => call.command === 'deploymentsExplorer.openInWebConsole');
      assert.deepEqual(opened.map((call) => call.args), [[{ deploymentId: uuid(1), name: 'shop' }]]);
    });

    it('a pinned one stays in the status bar, marked stalled rather than ready', async () => {
      const { deployments } = fakeServices();
      serve(() => [stuck]);
      const watch = registerWatch(services, deployments);
      watch.pin(stuck);
      await watch.scheduler.tick();
      assert.equal(stalledMessages().length, 1);
      assert.equal(items[0].text, '$(debug-pause) shop stalled');
      assert.match(String(items[0].tooltip), /^shop: Ready \(READY\) for \d+ s \(pinned, stalled: not finished, no change for 1 h\)$/m);
    });
  });
});
