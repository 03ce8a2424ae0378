// Following deployments inside VS Code's real extension host, against the
// control-plane stand-in with short intervals: a created deployment is
// watched, settles, is announced once and is no longer requested; failures
// and deployments that disappear are reported once.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { config, connectionSettled, useSuiteFixture, waitFor } from './support';
import type { DeploymentElement, DeploymentsTreeElement } from '../../src/features/deployments/deploymentsTreeProvider';

const KEY = `sk-watch-test-${Math.random().toString(36).slice(2)}`;

describe('Watch deployments', function () {
  this.timeout(60000);
  const fx = useSuiteFixture({
    key: KEY,
    settings: (standIn) => ({
      'watch.intervalSeconds': 0.5,
      'watch.maxIntervalSeconds': 1,
      'watch.inProgressStatuses': undefined,
      'watch.stalledAfterMinutes': 1,
      webConsoleUrl: 'https://console.example.com/deployments/{id}',
      integrations: [{ id: standIn.integrations.find((i) => i.label === 'acme-github')!.id, label: 'Acme' }],
    }),
    prepare: ({ api, onRestore }) => onRestore(() => api.watch.scheduler.replaceAll([])),
  });
  const { shown } = fx.messages;

  const watchRequests = () => fx.standIn.requests.filter((r) => r.method === 'GET' && r.path === '/v2/deployments' && r.query.deployment_ids);
  /**
   * Watches another deployment until two of its ticks were answered, and answers those ticks' IDs: every tick carries
   * every watched ID, so one that is no longer watched is in neither. The other deployment is unwatched after.
   */
  const idsOfTwoTicks = async (other: string): Promise<string[]> => {
    const isTick = (r: { path: string; query: Record<string, string> }) => r.path === '/v2/deployments' && (r.query.deployment_ids ?? '').includes(other);
    const first = fx.standIn.nextRequest(isTick);
    await vscode.commands.executeCommand('deploymentsExplorer.watchDeployment', other);
    const ticks = [await first, await fx.standIn.nextRequest(isTick)];
    await vscode.commands.executeCommand('deploymentsExplorer.unwatchDeployment', other);
    return ticks.flatMap((tick) => tick.query.deployment_ids.split(','));
  };

  before(() => {
    // Headless Chromium reports focus, but do not depend on it: a paused watch would send nothing.
    fx.api.watch.scheduler.setFocused(true);
  });

  beforeEach(() => {
    fx.api.watch.scheduler.replaceAll([]);
    fx.messages.clear();
    fx.standIn.reset();
  });

  it('create → watched → settles → one notification → no more requests', async () => {
    fx.standIn.setProgress({ awaitingPolls: 2, activeLagPolls: 1, finalStatus: 'READY' });
    const storefront = fx.standIn.integrations.find((i) => i.label === 'acme-github')!.repositories.find((r) => r.name === 'storefront')!;
    const node = { kind: 'repository', integrationId: storefront.host_integration_id, id: 'repo-node', repository: storefront };
    // The first watch request is held until the checks of "watched at once" are done: on a slow machine the ticks
    // could otherwise settle it before they run.
    fx.standIn.addFault({ fault: { kind: 'hang' }, whenQuery: 'deployment_ids', times: 1 });
    const result = await vscode.commands.executeCommand<{ outcome: string; deployment?: { id: string; name: string } }>(
      'deploymentsExplorer.createDeployment',
      { ...node, name: 'watched-app', confirm: true },
    );
    assert.equal(result?.outcome, 'created', JSON.stringify(result));
    const id = result!.deployment!.id;

    // Watched at once, in progress, shown spinning in the status bar.
    const entry = fx.api.watch.scheduler.find(id);
    assert.equal(entry?.watched, 'auto');
    assert.equal(entry?.inProgress, true);
    const bar = fx.api.watch.statusBar.current;
    assert.ok(bar?.visible, 'the status bar item shows');
    assert.match(bar!.text, /\$\(loading~spin\) 1 deploying/);
    assert.match(bar!.tooltip, /watched-app: Awaiting database \(AWAITING_DATABASE\) for \d+ s \(watching\)/);
    fx.standIn.clearFaults();
    fx.standIn.releaseHung();

    const ready = await waitFor('the settle notification', () => shown.find((s) => /is ready/.test(s.message)), 20000);
    assert.equal(ready.level, 'info');
    assert.equal(ready.message, 'Deployment “watched-app” is ready.');
    assert.deepEqual(ready.actions, ['Show']);
    assert.equal(shown.filter((s) => /watched-app/.test(s.message) && s.message !== ready.message && !/created/.test(s.message)).length, 0);

    // Settled: no longer watched, the row updated in place, the item hidden.
    assert.equal(fx.api.watch.scheduler.find(id), undefined);
    assert.equal(fx.api.watch.statusBar.current?.visible, false);
    const row = fx.api.deployments.list.find(id);
    assert.equal(row?.deployment.status, 'READY', 'the loaded row follows the record');
    assert.equal(row?.deployment.active_revision_id, row?.deployment.latest_revision_id);

    // Every tick was one request carrying the ID; after settling, none.
    const requests = watchRequests().filter((r) => r.query.deployment_ids.includes(id));
    // The view's own listing after Create also counts as a poll for the stand-in, so at least two ticks.
    assert.ok(requests.length >= 2, `${requests.length} watch requests`);
    for (const request of requests) assert.equal(request.query.limit, String(request.query.deployment_ids.split(',').length));
    const settledCount = watchRequests().filter((r) => r.query.deployment_ids.includes(id)).length;
    const other = fx.standIn.deployments.find((d) => d.id && d.id !== id && d.status === 'READY')!.id!;
    assert.ok(!(await idsOfTwoTicks(other)).includes(id), 'the ticks after settling do not ask for it');
    assert.equal(watchRequests().filter((r) => r.query.deployment_ids.includes(id)).length, settledCount, 'no more requests once settled');
    assert.equal(shown.filter((s) => /is ready/.test(s.message)).length, 1, 'one notification');
  });

  it('a status outside the in-progress list is a warning naming the status in words, with Open URL', async () => {
    const record = fx.standIn.deployments.find((d) => d.status === 'READY' && d.id && d.source_config?.custom_url?.startsWith('http'));
    assert.ok(record, 'a sample deployment with a custom URL');
    fx.standIn.updateDeployment(record.id!, { status: 'AWAITING_DATABASE', active_revision_id: record.latest_revision_id });
    const id = await vscode.commands.executeCommand<string>('deploymentsExplorer.watchDeployment', record.id);
    assert.equal(id, record.id);
    assert.equal(fx.api.watch.scheduler.find(id)?.watched, 'manual');
    await waitFor('a first look: in progress', () => fx.api.watch.scheduler.find(id)?.inProgress);
    fx.standIn.updateDeployment(record.id!, { status: 'AWAITING_DELETE' });
    const warning = await waitFor('the settle warning', () => shown.find((s) => s.level === 'warning'));
    assert.match(warning.message, /is now “Awaiting deletion” \(AWAITING_DELETE\)/);
    assert.deepEqual(warning.actions, ['Show', 'Open URL']);
    // A manual watch stays until the user stops it.
    assert.equal(fx.api.watch.scheduler.find(id)?.watched, 'manual');
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.unwatchDeployment', id), true);
    assert.equal(fx.api.watch.scheduler.entries.length, 0);
  });

  it('failures keep the last status, show a warning icon with the reason, and notify once per streak', async () => {
    const record = fx.standIn.deployments.find((d) => d.status === 'READY' && d.id)!;
    await vscode.commands.executeCommand('deploymentsExplorer.pinDeployment', record.id);
    await vscode.commands.executeCommand('deploymentsExplorer.watchDeployment', record.id);
    fx.standIn.addFault({ fault: { kind: 'status', status: 503, body: '{"detail":"maintenance window"}' }, whenQuery: 'deployment_ids' });
    await waitFor('three failed ticks', () => (fx.api.watch.scheduler.failure?.streak ?? 0) >= 3, 20000);
    const warnings = shown.filter((s) => s.level === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(shown));
    assert.match(warnings[0].message, /Could not check the watched deployments/);
    const bar = fx.api.watch.statusBar.current!;
    assert.match(bar.text, /^\$\(warning\) /);
    assert.match(bar.text, new RegExp(`${record.name} Ready`));
    assert.match(bar.tooltip, /maintenance window/);
    assert.equal(fx.api.watch.scheduler.find(record.id!)?.status, 'READY', 'the last known status is kept');
    fx.standIn.clearFaults();
    await waitFor('recovery', () => !fx.api.watch.scheduler.failure, 20000);
    assert.doesNotMatch(fx.api.watch.statusBar.current!.text, /warning/);
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.unpinDeployment', record.id), true);
  });

  it('a deployment no longer listed is reported once and dropped', async () => {
    const record = fx.standIn.deployments.find((d) => d.status === 'READY' && d.id)!;
    await vscode.commands.executeCommand('deploymentsExplorer.watchDeployment', record.id);
    fx.standIn.removeDeployment(record.id!);
    const warning = await waitFor('the warning', () => shown.find((s) => /no longer listed/.test(s.message)));
    assert.match(warning.message, new RegExp(record.name!));
    assert.equal(fx.api.watch.scheduler.entries.length, 0);
    const count = watchRequests().filter((r) => r.query.deployment_ids.includes(record.id!)).length;
    const other = fx.standIn.deployments.find((d) => d.id && d.status === 'READY')!.id!;
    assert.ok(!(await idsOfTwoTicks(other)).includes(record.id!), 'the ticks after it was dropped do not ask for it');
    assert.equal(watchRequests().filter((r) => r.query.deployment_ids.includes(record.id!)).length, count);
    assert.equal(shown.filter((s) => /no longer listed/.test(s.message)).length, 1);
  });

  it('a deployment whose record no longer matches the API contract is still followed, by the fields it has', async () => {
    const record = fx.standIn.deployments.find((d) => d.status === 'READY' && d.id)!;
    const createdAt = record.created_at;
    try {
      await vscode.commands.executeCommand('deploymentsExplorer.watchDeployment', record.id);
      (record as { created_at: unknown }).created_at = 1700000000;
      record.status = 'DEGRADED';
      const before = watchRequests().length;
      await waitFor('two ticks (a deployment dropped after the first gets no second)', () => watchRequests().length >= before + 2, 10000);
      const entry = fx.api.watch.scheduler.find(record.id!);
      assert.equal(entry?.status, 'DEGRADED', 'still followed, with the status it sends');
      assert.ok(!shown.some((s) => /no longer listed/.test(s.message)), JSON.stringify(shown));
    } finally {
      record.created_at = createdAt;
      record.status = 'READY';
    }
  });

  it('resumes the saved watched and pinned deployments of the connection, as activate() does after a reload', async () => {
    const record = fx.standIn.deployments.find((d) => d.status === 'READY' && d.id)!;
    const key = `${fx.standIn.url}|${(config().get<string>('tenantId') ?? '').trim()}`;
    const state = fx.api.services.context.workspaceState;
    // Away to another control plane, write this one's saved state, and back: it is read as after a reload.
    await config().update('baseUrl', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Global);
    await connectionSettled(fx.api);
    const saved = { id: record.id, name: record.name, status: 'UNKNOWN', since: Date.now() - 5 * 60_000, pinned: true, inProgress: false };
    await state.update('deploymentsExplorer.watch', { ...state.get<object>('deploymentsExplorer.watch', {}), [key]: [saved] });
    await config().update('baseUrl', fx.standIn.url, vscode.ConfigurationTarget.Global);
    await connectionSettled(fx.api);
    const bar = fx.api.watch.statusBar.current;
    assert.ok(bar?.visible, 'shown before any request');
    assert.match(bar!.text, new RegExp(`${record.name} Unknown`));
    assert.match(bar!.tooltip, new RegExp(`${record.name}: Unknown \\(UNKNOWN\\) for 5 min \\(pinned\\)`));
    await waitFor('the first tick', () => new RegExp(`${record.name} Ready`).test(fx.api.watch.statusBar.current?.text ?? ''));
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.unpinDeployment', record.id), true);
    assert.equal(fx.api.watch.statusBar.current?.visible, false, 'hidden when nothing is followed');
  });

  it('Show Watched Deployments (the status bar item) picks a followed deployment, then what to do with it: Reveal selects its row', async () => {
    await vscode.commands.executeCommand('deploymentsExplorer.refreshDeployments');
    const rows = () => fx.api.deployments.provider.getChildren() as DeploymentsTreeElement[];
    const row = rows().find((r): r is DeploymentElement => r.kind === 'deployment' && !!r.item.deployment.id)!;
    const { id, name } = row.item.deployment;
    await vscode.commands.executeCommand('deploymentsExplorer.watchDeployment', id);
    // Answered as a user answers: Enter on the first item of each list (the one deployment, then Reveal in Deployments).
    let done = false;
    const shown = vscode.commands.executeCommand('deploymentsExplorer.showWatched').then(() => (done = true));
    while (!done) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await shown;
    await waitFor(`${name}'s row to be selected`, () => {
      const [selected] = fx.api.deployments.treeView.selection as DeploymentsTreeElement[];
      return selected?.kind === 'deployment' && selected.item.deployment.id === id;
    });
    await vscode.commands.executeCommand('deploymentsExplorer.unwatchDeployment', id);
  });

  it('watched rows are marked, and watched and pinned deployments are saved for the workspace', async () => {
    await vscode.commands.executeCommand('deploymentsExplorer.refreshDeployments');
    const rows = () => fx.api.deployments.provider.getChildren() as DeploymentsTreeElement[];
    const element = await waitFor('a loaded row', () => rows().find((row): row is DeploymentElement => row.kind === 'deployment'));
    const id = element.item.deployment.id!;
    await vscode.commands.executeCommand('deploymentsExplorer.watchDeployment', element);
    const item = fx.api.deployments.provider.getTreeItem(fx.api.deployments.provider.elementFor(id)!);
    assert.match(String(item.contextValue), /\bwatched\b/);
    assert.match(String(item.description), /watching/);
    const saved = fx.api.services.context.workspaceState.get<Record<string, Array<{ id: string; watched?: string }>>>('deploymentsExplorer.watch', {});
    const entries = Object.entries(saved).find(([key]) => key.startsWith(fx.standIn.url))?.[1] ?? [];
    assert.ok(entries.some((entry) => entry.id === id && entry.watched === 'manual'), JSON.stringify(saved));
    await vscode.commands.executeCommand('deploymentsExplorer.unwatchDeployment', element);
    const unmarked = fx.api.deployments.provider.getTreeItem(fx.api.deployments.provider.elementFor(id)!);
    assert.doesNotMatch(String(unmarked.contextValue), /\bwatched\b/);
  });

  it('a rollout that never lands (READY, latest revision not active, no change for a minute) is reported once and no longer counted or polled', async () => {
    const [stuck, other] = fx.standIn.deployments.filter((d) => d.status === 'READY' && d.id && d.name && d.latest_revision_id);
    const saved = [stuck, other].map((d) => ({ ...d }));
    try {
      // As the real service leaves a revision that failed to build: READY, the new revision never active, nothing
      // changed since two minutes ago (stalledAfterMinutes: 1). The other one is deploying and keeps changing nothing yet.
      const twoMinutesAgo = new Date(Date.now() - 2 * 60_000).toISOString();
      fx.standIn.updateDeployment(stuck.id!, { active_revision_id: stuck.latest_revision_id, latest_revision_id: randomUUID(), updated_at: twoMinutesAgo });
      fx.standIn.updateDeployment(other.id!, { status: 'AWAITING_DATABASE' });
      await vscode.commands.executeCommand('deploymentsExplorer.watchDeployment', other.id);
      await vscode.commands.executeCommand('deploymentsExplorer.watchDeployment', stuck.id);

      const stalled = await waitFor('the stalled notification', () => shown.find((s) => /has not finished/.test(s.message)));
      assert.equal(stalled.level, 'warning');
      assert.equal(stalled.message.replace(/for \d+ min\./, 'for N min.'), `Deployment “${stuck.name}” has not finished: its latest revision is not active, and nothing has changed for N min. It may have failed to build or deploy.`);
      assert.deepEqual(stalled.actions, ['Open in Web Console', 'Keep Watching']);
      const bar = fx.api.watch.statusBar.current!;
      assert.match(bar.text, /\$\(loading~spin\) 1 deploying/, 'only the other one counts as deploying');
      assert.doesNotMatch(bar.tooltip, new RegExp(`${stuck.name}:`), 'no longer followed');

      // Two ticks later (the other one's polls), the stalled one has not been asked for again, nor reported again.
      const seen = watchRequests().length;
      await waitFor('two more ticks', () => watchRequests().length >= seen + 2);
      const later = watchRequests().slice(seen);
      assert.ok(later.every((r) => r.query.deployment_ids.includes(other.id!)), 'the other one is polled');
      assert.ok(later.every((r) => !r.query.deployment_ids.includes(stuck.id!)), JSON.stringify(later.map((r) => r.query)));
      assert.equal(shown.filter((s) => /has not finished/.test(s.message)).length, 1, 'one notification');
    } finally {
      for (const [record, before] of [[stuck, saved[0]], [other, saved[1]]] as const) Object.assign(record, before);
    }
  });
});
