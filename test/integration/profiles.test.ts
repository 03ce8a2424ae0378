// Profiles inside VS Code's real extension host, against two control-plane stand-ins on loopback,
// each with its own key, tenant and data (and a third one a workspace setting points at): 0.1.0's
// settings as profile Default, Add Profile… and its check, switching (both views, filters per
// profile, cancelling what was in flight), each stand-in seeing only its own key, a workspace base
// URL that gets no key until the user agrees, and Rename/Remove keeping and deleting the key.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import type { AddProfileResult } from '../../src/features/profiles';
import type { DeploymentElement, DeploymentsTreeElement } from '../../src/features/deployments/deploymentsTreeProvider';
import type { IntegrationsTreeNode } from '../../src/model/integrationRows';
import { StandIn } from '../server/standIn';
import { activateExtension, config, connectionSettled, countConnectionResets, MessageCapture, snapshotSettings, waitFor } from './support';

const KEY_A = `sk-profile-a-${Math.random().toString(36).slice(2)}`;
const KEY_B = `sk-profile-b-${Math.random().toString(36).slice(2)}`;
const TENANT_B = '0b0b0b0b-1c1c-4d4d-8e8e-2f2f2f2f2f2f';
const PAGE_SIZE = 5;
const LEGACY_SECRET = 'deploymentsExplorer.apiKey';

describe('Profiles', function () {
  this.timeout(90000);
  let api: ExtensionApi;
  let a: StandIn;
  let b: StandIn;
  let third: StandIn;
  const messages = new MessageCapture();
  const restores: (() => unknown)[] = [];

  const connection = () => api.services.connection;
  const profiles = () => connection().profiles;
  const deploymentIds = () =>
    (api.deployments.provider.getChildren() as DeploymentsTreeElement[])
      .filter((e): e is DeploymentElement => e.kind === 'deployment')
      .map((row) => row.item.deployment.id);
  const integrationIds = async () =>
    ((await api.integrations.provider.getChildren()) as IntegrationsTreeNode[])
      .filter((n) => n.kind === 'integration')
      .map((n) => (n.kind === 'integration' ? n.integration.id.toLowerCase() : ''));
  const firstPage = (standIn: StandIn, status?: string) =>
    standIn.deployments.filter((d) => !status || d.status === status).slice(0, PAGE_SIZE).map((d) => d.id);
  /** Waits until the Deployments view (as the tree asks for its rows) shows exactly `ids`. */
  const showsDeployments = (what: string, ids: string[]) =>
    waitFor(what, () => JSON.stringify(deploymentIds()) === JSON.stringify(ids), 20000).catch((error) => {
      throw new Error(`${String(error)}; rows: ${JSON.stringify(deploymentIds())}, expected ${JSON.stringify(ids)}`);
    });
  const showsIntegrations = (what: string, ids: string[]) =>
    waitFor(what, async () => JSON.stringify(await integrationIds()) === JSON.stringify(ids.map((id) => id.toLowerCase())), 20000);
  const keysSeen = (standIn: StandIn) => new Set(standIn.requests.map((r) => r.headers['x-api-key'] ?? '(none)'));
  const switchTo = async (name: string) => {
    await vscode.commands.executeCommand('deploymentsExplorer.switchProfile', name);
    await connectionSettled(api);
  };
  const integrationA = () => a.integrations.find((i) => i.label === 'acme-github') ?? a.integrations[0];
  const integrationB = () => b.integrations.find((i) => i.id !== integrationA().id)!;

  before(async () => {
    api = await activateExtension();
    a = await StandIn.start({ apiKey: KEY_A, seed: 1, deploymentCount: 60 });
    b = await StandIn.start({ apiKey: KEY_B, requireTenant: TENANT_B, seed: 2, deploymentCount: 60 });
    third = await StandIn.start({ apiKey: null, seed: 3, deploymentCount: 20 });
    messages.start();
    restores.push(() => messages.stop());
    restores.push(
      await snapshotSettings(api, ['baseUrl', 'tenantId', 'integrations', 'discoverIntegrations', 'pageSize', 'autoRefreshSeconds', 'profiles', 'defaultProfile']),
    );
    const previousFilters = api.deployments.filters.filters;
    restores.push(async () => {
      await api.deployments.filters.clear();
      await api.deployments.filters.update(previousFilters);
    });
    await config().update('discoverIntegrations', false, vscode.ConfigurationTarget.Global);
    await config().update('autoRefreshSeconds', 0, vscode.ConfigurationTarget.Global);
    await config().update('pageSize', PAGE_SIZE, vscode.ConfigurationTarget.Global);
    await config().update('profiles', undefined, vscode.ConfigurationTarget.Global);
    // Integrations other suites discovered are not 0.1.0's settings.
    for (const known of api.services.catalog.integrations()) if (known.origin === 'discovered') api.services.catalog.forgetDiscovered(known.id);
    await vscode.commands.executeCommand('workbench.view.extension.deploymentsExplorer');
    const seenInA = new Set(a.deployments.map((d) => d.id));
    assert.ok(b.deployments.every((d) => !seenInA.has(d.id)) && third.deployments.every((d) => !seenInA.has(d.id)), 'each stand-in has its own records');
  });

  after(async () => {
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    for (const name of ['b', 'wrong']) {
      if (profiles().list().some((p) => p.id === name)) await vscode.commands.executeCommand('deploymentsExplorer.removeProfile', name, true);
    }
    await config().update('profiles', undefined, vscode.ConfigurationTarget.Global);
    for (const restore of restores.reverse()) await restore();
    api.services.catalog.invalidate();
    await Promise.all([a.close(), b.close(), third.close()]);
  });

  beforeEach(() => messages.clear());

  it('keeps 0.1.0’s key and integrations as profile Default, and shows no profile while it is the only one', async () => {
    // 0.1.0's settings: top-level base URL, tenant and integrations, and the key under its old secret name.
    await config().update('baseUrl', a.url, vscode.ConfigurationTarget.Global);
    await config().update('integrations', [{ id: integrationA().id, label: 'Acme' }], vscode.ConfigurationTarget.Global);
    await api.services.context.secrets.store(LEGACY_SECRET, KEY_A);
    // What 0.1.0 left: no origin recorded for the key, and the migration not run yet.
    const { globalState } = api.services.context;
    const { default: _defaultBinding, ...bindings } = globalState.get<Record<string, unknown>>('deploymentsExplorer.keyBindings') ?? {};
    await globalState.update('deploymentsExplorer.keyBindings', bindings);
    await globalState.update('deploymentsExplorer.profilesMigrated', undefined);
    await profiles().migrate();
    await connectionSettled(api);

    assert.equal(profiles().list().length, 1);
    const profile = connection().profile();
    assert.equal(profile.name, 'Default');
    assert.equal(profile.implicit, true);
    assert.equal(profiles().binding('default')?.origin, new URL(a.url).origin, 'the key is bound to the base URL it was used with');
    assert.equal(await connection().apiKeys.get(), KEY_A);
    assert.equal(api.deployments.treeView.title, 'Deployments', 'one profile: no profile name anywhere');
    assert.equal(api.integrations.view.title, 'Integrations');
    assert.equal(messages.shown.length, 0, 'nothing new is said');

    await showsIntegrations('Default’s integration', [integrationA().id]);
    await showsDeployments('A’s deployments', firstPage(a));
    assert.deepEqual([...keysSeen(a)], [KEY_A]);
  });

  it('adds a profile with one request to check its key, and writes Default out of 0.1.0’s settings', async () => {
    b.reset();
    const result = await vscode.commands.executeCommand<AddProfileResult>('deploymentsExplorer.addProfile', {
      name: 'B',
      baseUrl: b.url,
      apiKey: KEY_B,
      tenantId: TENANT_B,
    });
    assert.equal(result.check, 'ok', result.message);
    assert.match(result.message, /the key works/);
    assert.equal(b.requests.length, 1, 'one check request');
    assert.equal(b.requests[0].headers['x-api-key'], KEY_B);
    assert.equal(b.requests[0].headers['x-tenant-id'], TENANT_B);

    // Default now lives in the profiles setting, with 0.1.0's base URL and integrations, and its key.
    const written = config().inspect<Array<Record<string, unknown>>>('profiles')?.globalValue ?? [];
    assert.deepEqual(
      written.map((entry) => [entry.id, entry.name, entry.baseUrl]),
      [
        ['default', 'Default', a.url],
        ['b', 'B', b.url],
      ],
    );
    assert.deepEqual(written[0].integrations, [{ id: integrationA().id, label: 'Acme' }]);
    assert.equal(config().inspect('baseUrl')?.globalValue, undefined, 'one place to edit: the top-level copy is gone');
    assert.equal(await api.services.context.secrets.get(LEGACY_SECRET), KEY_A, 'Default keeps its key');
    assert.equal(await profiles().storedKey('b'), KEY_B);

    // Still on Default; with two profiles the views name it.
    await connectionSettled(api);
    assert.equal(connection().profile().name, 'Default');
    assert.equal(api.deployments.treeView.title, 'Deployments — Default');
    assert.equal(api.integrations.view.title, 'Integrations — Default');
    await showsIntegrations('Default’s integration, still', [integrationA().id]);

    // A key that does not work is reported as such.
    const wrong = await vscode.commands.executeCommand<AddProfileResult>('deploymentsExplorer.addProfile', { name: 'Wrong', baseUrl: b.url, apiKey: 'not-the-key' });
    assert.equal(wrong.check, 'failed');
    assert.match(wrong.message, /did not work/);
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.removeProfile', 'Wrong', true), true);
    assert.equal(await profiles().storedKey('wrong'), undefined);
  });

  it('switches: both views show the other stand-in’s records, and each profile keeps its own filters', async () => {
    await vscode.commands.executeCommand('deploymentsExplorer.filterDeployments', { status: 'READY' });
    await showsDeployments('A’s READY deployments', firstPage(a, 'READY'));

    const scheme = 'deployments-explorer-deployment';
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    const jsonTabs = () => tabs().filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === scheme);
    const diffTabs = () => tabs().filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.scheme === scheme);
    const [row, other] = (api.deployments.provider.getChildren() as DeploymentsTreeElement[]).filter((e): e is DeploymentElement => e.kind === 'deployment');
    await vscode.commands.executeCommand('deploymentsExplorer.compareDeployments', row, [row, other]);
    await waitFor('A’s comparison to open', () => diffTabs().length === 1);
    // Kept open (not a preview), so the JSON document opens beside it instead of replacing it.
    await vscode.commands.executeCommand('workbench.action.keepEditor');
    await vscode.commands.executeCommand('deploymentsExplorer.showDeploymentJson', row);
    await waitFor('A’s deployment JSON to open beside the comparison', () => jsonTabs().length === 1 && diffTabs().length === 1);

    await switchTo('B');
    assert.equal(connection().profile().name, 'B');
    await waitFor('A’s deployment JSON and comparison to close', () => jsonTabs().length === 0 && diffTabs().length === 0);
    assert.deepEqual(api.deployments.filters.filters, {}, 'B has no filters yet');
    await showsDeployments('B’s deployments', firstPage(b));
    await showsIntegrations('no integrations of A', []);
    assert.equal(api.deployments.treeView.title, 'Deployments — B');

    const listings = () => b.requests.filter((r) => r.path === '/v2/deployments').length;
    const before = listings();
    const resets = countConnectionResets(api);
    await vscode.commands.executeCommand('deploymentsExplorer.addIntegration', integrationB().id, 'Platform');
    await showsIntegrations('B’s own integration', [integrationB().id]);
    const entryB = (config().inspect<Array<Record<string, unknown>>>('profiles')?.globalValue ?? []).find((entry) => entry.id === 'b');
    assert.deepEqual(entryB?.integrations, [{ id: integrationB().id, label: 'Platform' }], 'stored in profile B');
    // A reload starts with a reset of the connection: none came once the settings change is taken in.
    await connectionSettled(api);
    resets.stop();
    assert.equal(resets.count, 0, 'adding an integration to a profile does not reset the connection');
    assert.equal(listings(), before, 'adding an integration to a profile does not reload its deployments');
    await vscode.commands.executeCommand('deploymentsExplorer.filterDeployments', { status: 'UNUSED' });
    await showsDeployments('B’s UNUSED deployments', firstPage(b, 'UNUSED'));

    await switchTo('Default');
    assert.deepEqual(api.deployments.filters.filters, { status: 'READY' });
    await showsDeployments('A’s READY deployments again', firstPage(a, 'READY'));
    await showsIntegrations('A’s integration again', [integrationA().id]);

    await switchTo('B');
    assert.deepEqual(api.deployments.filters.filters, { status: 'UNUSED' });
    await showsDeployments('B’s UNUSED deployments again', firstPage(b, 'UNUSED'));
    await api.deployments.filters.clear();
  });

  it('keeps the integrations discovered at each profile’s control plane to that profile', async () => {
    const discovered = () => api.services.catalog.integrations().filter((i) => i.origin === 'discovered').map((i) => i.id.toLowerCase()).sort();
    await switchTo('B');
    const summary = await vscode.commands.executeCommand<{ found: number }>('deploymentsExplorer.discoverIntegrations');
    assert.ok(summary && summary.found > 0, JSON.stringify(summary));
    const atB = discovered();
    assert.ok(atB.length > 0);

    await switchTo('Default');
    assert.deepEqual(discovered(), [], 'nothing discovered at B is shown for Default');
    await showsIntegrations('only Default’s own integration', [integrationA().id]);

    await switchTo('B');
    assert.deepEqual(discovered(), atB, 'B’s discovered integrations are back');
    for (const id of atB) api.services.catalog.forgetDiscovered(id);
  });

  it('uses each profile’s own create defaults', async () => {
    const entries = config().inspect<Array<Record<string, unknown>>>('profiles')?.globalValue ?? [];
    await config().update(
      'profiles',
      entries.map((entry) => (entry.id === 'b' ? { ...entry, createDefaults: { source: 'profile-b' } } : entry)),
      vscode.ConfigurationTarget.Global,
    );
    const repository = integrationB().repositories[0];
    type Opened = { outcome?: string; body?: Record<string, unknown>; document?: string };
    const draft = async () => {
      const opened = await vscode.commands.executeCommand<Opened>('deploymentsExplorer.createDeployment', { repository, name: 'profile-defaults', openPayload: true });
      assert.equal(opened?.outcome, 'editing', JSON.stringify(opened));
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      return opened!.body!;
    };
    await switchTo('B');
    assert.equal((await draft()).source, 'profile-b');
    await switchTo('Default');
    assert.equal((await draft()).source, 'github', 'Default has no create defaults: what the real service requires of a create from a repository');
  });

  it('cancels what the old profile has in flight, and each stand-in only ever sees its own key and tenant', async () => {
    await switchTo('Default');
    await showsDeployments('A’s READY deployments', firstPage(a, 'READY'));
    // A's answer is held until after the switch, then sent: the old profile's request must have been given up.
    a.addFault({ fault: { kind: 'hang' }, pathPrefix: '/v2/deployments', times: 1 });
    const heldDone = a.nextRequest((r) => r.path === '/v2/deployments');
    const slow = api.deployments.refresh();
    await waitFor('the held request to reach A', () => a.requests.some((r) => r.path === '/v2/deployments'));
    await vscode.commands.executeCommand('deploymentsExplorer.switchProfile', 'B');
    await connectionSettled(api);
    await showsDeployments('B’s deployments', firstPage(b));
    a.releaseHung();
    await heldDone;
    await slow;
    assert.deepEqual(deploymentIds(), firstPage(b), 'A’s answer, sent after the switch, is not shown');

    assert.deepEqual([...keysSeen(a)], [KEY_A], 'A saw only its own key');
    assert.deepEqual([...keysSeen(b)].sort(), [KEY_B, 'not-the-key'].sort(), 'B saw only keys given for it');
    assert.ok(a.requests.every((r) => !r.headers['x-tenant-id']), 'B’s tenant never went to A');
    assert.ok(b.requests.filter((r) => r.headers['x-api-key'] === KEY_B).every((r) => r.headers['x-tenant-id'] === TENANT_B));
  });

  it('sends no key to a base URL set in the workspace’s settings until the user agrees, and says what it shows', async () => {
    await switchTo('B');
    third.reset();
    const origin = new URL(third.url).origin;
    messages.answers.warning.push(undefined); // dismissed: nothing is sent, nothing remembered
    await config().update('baseUrl', third.url, vscode.ConfigurationTarget.Workspace);
    await connectionSettled(api);
    const asked = await waitFor('the question', () => messages.shown.find((m) => m.level === 'warning' && m.message.includes(origin)));
    assert.equal(asked.message, `This workspace points Deployments Explorer at ${origin}: use your key for it?`);
    assert.equal((await connection().resolve()).key, 'withheld');
    assert.equal(await connection().isConfigured(), false);
    // Every request goes through that client, which is refused: nothing can have reached the third server with a key.
    await assert.rejects(connection().getClient(), /is not sent to http:\/\/127\.0\.0\.1:\d+: it was not stored for that control plane/);
    assert.ok(third.requests.every((r) => !r.headers['x-api-key'] && !r.headers['x-tenant-id']), 'no key, no tenant');

    // The welcome view's button asks again; agreeing sends the key there, remembered for that origin.
    messages.answers.warning.push('Use My Key');
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.allowApiKeyForOrigin'), true);
    await connectionSettled(api);
    await showsDeployments('the third server’s deployments', firstPage(third));
    assert.deepEqual([...keysSeen(third)], [KEY_B]);
    assert.ok(profiles().binding('b')?.allowed?.includes(origin));
    assert.match(String(api.deployments.treeView.message), new RegExp(`Showing ${origin.replace(/[.]/g, '\\.')}, set by this workspace’s settings`));

    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
    await connectionSettled(api);
    await showsDeployments('B’s deployments once the workspace setting is gone', firstPage(b));
    assert.equal(api.deployments.treeView.message, undefined);
  });

  it('asks before sending a profile’s key to the new origin of its edited base URL', async () => {
    await switchTo('B');
    third.reset();
    const origin = new URL(third.url).origin;
    const entries = config().inspect<Array<Record<string, unknown>>>('profiles')?.globalValue ?? [];
    const edit = (url: string) =>
      config().update('profiles', entries.map((entry) => (entry.id === 'b' ? { ...entry, baseUrl: url } : entry)), vscode.ConfigurationTarget.Global);
    // The third server's origin was allowed for B above: forget it, as for a fresh edit.
    await api.services.context.globalState.update('deploymentsExplorer.keyBindings', {
      ...api.services.context.globalState.get<Record<string, unknown>>('deploymentsExplorer.keyBindings'),
      b: { origin: new URL(b.url).origin },
    });
    messages.answers.warning.push('Don’t Send');
    await edit(third.url);
    await connectionSettled(api);
    const asked = await waitFor('the question', () => messages.shown.find((m) => m.level === 'warning' && m.message.includes(origin)));
    assert.match(asked.message, /^Profile “B” now points at http:\/\/127\.0\.0\.1:\d+, not where its API key was stored for/);
    await waitFor('the answer to be remembered', () => profiles().binding('b')?.denied?.includes(origin));
    await connectionSettled(api);
    assert.equal((await connection().resolve()).key, 'withheld');
    assert.ok(third.requests.every((r) => !r.headers['x-api-key']), 'no key after a no');

    await edit(b.url);
    await connectionSettled(api);
    await showsDeployments('B’s deployments with its own URL back', firstPage(b));
  });

  it('renames a profile keeping its key and state, and removes it with its key', async () => {
    await switchTo('B');
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.renameProfile', 'B', 'Region B'), true);
    await connectionSettled(api);
    assert.equal(connection().profile().name, 'Region B');
    assert.equal(connection().profile().id, 'b');
    assert.equal(await connection().apiKeys.get(), KEY_B);
    await showsIntegrations('B’s integration after the rename', [integrationB().id]);

    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.removeProfile', 'Region B', true), true);
    await connectionSettled(api);
    assert.equal(await api.services.context.secrets.get('deploymentsExplorer.apiKey.b'), undefined, 'its key is deleted');
    assert.equal(profiles().binding('b'), undefined);
    assert.equal(connection().profile().name, 'Default', 'the workspace falls back to the remaining profile');
    assert.equal(api.deployments.treeView.title, 'Deployments', 'one profile again: no name');
    await showsDeployments('A’s READY deployments', firstPage(a, 'READY'));
  });

  it('says before asking that a profile of the workspace’s settings is renamed or removed there', async () => {
    await config().update('profiles', [{ id: 'ws-staging', name: 'Staging', baseUrl: third.url }], vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor('the workspace’s profile', () => profiles().list().find((p) => p.name === 'Staging'));
      assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.removeProfile', 'Staging'), undefined);
      assert.deepEqual(
        messages.shown.map((m) => [m.level, m.message]),
        [['error', 'Profile “Staging” is defined in this workspace’s settings; remove it there.']],
        'no question whose answer cannot be carried out',
      );
      messages.clear();
      assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.renameProfile', 'Staging', 'Stage'), undefined);
      assert.deepEqual(messages.shown.map((m) => [m.level, m.message]), [['error', 'Profile “Staging” is defined in this workspace’s settings; edit it there.']]);
    } finally {
      await config().update('profiles', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });
});
