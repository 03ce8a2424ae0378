// The Deployments view inside VS Code's real extension host, against the
// control-plane stand-in: paging, the end rules, all filters (sent to the
// server), persistence, details, the masked JSON document, error rows and reveal.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeploymentFilters } from '../../src/api';
import { DeploymentFilterStore } from '../../src/model/deploymentFilters';
import type { DeploymentElement, DeploymentsTreeElement, DetailElement } from '../../src/features/deployments/deploymentsTreeProvider';
import type { Deployment } from '../server/standIn';
import { config, useSuiteFixture, waitFor } from './support';

const KEY = `sk-deployments-test-${Math.random().toString(36).slice(2)}`;
const PAGE_SIZE = 10;

/** The sample data's statuses in the words a row shows (the raw value is in the tooltip). */
const SAMPLE_STATUS_WORDS: Record<string, string> = {
  READY: 'Ready',
  UNUSED: 'Unused',
  AWAITING_DATABASE: 'Awaiting database',
  AWAITING_DELETE: 'Awaiting deletion',
  UNKNOWN: 'Unknown',
  DEGRADED: 'Degraded',
};

/** The stand-in's own filtering, restated: what the server should answer for `filters`. */
function matches(d: Deployment, f: DeploymentFilters): boolean {
  if (f.nameContains && !d.name.toLowerCase().includes(f.nameContains.toLowerCase())) return false;
  if (f.status && d.status !== f.status) return false;
  if (f.imageVersion && d.image_version !== f.imageVersion) return false;
  if (f.deploymentType && d.deployment_type !== f.deploymentType) return false;
  if (f.remoteReconciled !== undefined && d.remote_reconciled !== f.remoteReconciled) return false;
  if (f.tagValueIds && !(d.tag_value_ids ?? []).some((t) => f.tagValueIds!.includes(t))) return false;
  if (f.deploymentIds && !f.deploymentIds.includes(d.id)) return false;
  return true;
}

describe('Deployments view', function () {
  this.timeout(60000);
  const fx = useSuiteFixture({
    key: KEY,
    capture: ['error'],
    settings: () => ({ autoRefreshSeconds: 0, pageSize: PAGE_SIZE }),
    prepare: ({ api, onRestore }) => {
      const previousFilters = api.deployments.filters.filters;
      onRestore(async () => {
        await api.deployments.filters.clear();
        await api.deployments.filters.update(previousFilters);
      });
    },
  });
  const { messages } = fx;
  const errors = messages.shown;

  const feature = () => fx.api.deployments;
  const provider = () => feature().provider;
  const rootRows = () => provider().getChildren() as DeploymentsTreeElement[];
  const deploymentRows = () => rootRows().filter((e): e is DeploymentElement => e.kind === 'deployment');
  const lastRow = () => rootRows().at(-1);
  const item = (element: DeploymentsTreeElement) => provider().getTreeItem(element) as vscode.TreeItem;
  const listings = () => fx.standIn.requests.filter((r) => r.method === 'GET' && r.path === '/v2/deployments');
  const rowIds = () => deploymentRows().map((row) => row.item.deployment.id);
  const expected = (filters: DeploymentFilters, count = PAGE_SIZE) =>
    fx.standIn.deployments.filter((d) => matches(d, filters)).slice(0, count).map((d) => d.id);
  const filter = (change: Partial<DeploymentFilters>) => vscode.commands.executeCommand('deploymentsExplorer.filterDeployments', change);

  beforeEach(async () => {
    messages.clear();
    await feature().filters.clear();
    fx.standIn.reset();
  });

  it('shows the first page (page size rows) with status descriptions, then “Load more…”', async () => {
    await feature().refresh();
    assert.deepEqual(rowIds(), expected({}));
    assert.equal(listings().length, 1);
    assert.equal(listings()[0].query.limit, String(PAGE_SIZE));
    assert.equal(listings()[0].query.offset, '0');

    const first = deploymentRows()[0];
    const record = first.item.deployment;
    const firstItem = item(first);
    assert.equal(firstItem.label, record.name);
    assert.equal(firstItem.description, [record.status && SAMPLE_STATUS_WORDS[record.status], record.image_version].filter(Boolean).join(' · '));
    assert.match(String(firstItem.contextValue), /^deployment\b.*\bid\b/);
    assert.ok(firstItem.iconPath instanceof vscode.ThemeIcon);
    // The tooltip is built on hover: VS Code asks resolveTreeItem for it.
    assert.equal(firstItem.tooltip, undefined, 'no tooltip is built for rows nobody hovers');
    const resolved = feature().provider.resolveTreeItem(firstItem, first);
    const tooltip = (resolved.tooltip as vscode.MarkdownString).value;
    const plain = tooltip.replace(/\\(.)/g, '$1'); // appendText escapes markdown characters
    assert.ok(plain.includes(String(record.id)), 'tooltip names the ID');
    assert.ok(plain.includes(String(record.source_config?.repo_url)), 'tooltip names the repository');

    const loadMore = item(lastRow()!);
    assert.equal(loadMore.label, 'Load more…');
    assert.equal(loadMore.command?.command, 'deploymentsExplorer.loadMoreDeployments');
  });

  it('rows say their status in words, the raw value in the tooltip; a status the extension does not know has its own icon', async () => {
    await filter({ status: 'DEGRADED' });
    const degraded = deploymentRows()[0];
    assert.ok(degraded, 'the sample has DEGRADED deployments');
    const degradedItem = item(degraded);
    assert.equal(degradedItem.description, ['Degraded', degraded.item.deployment.image_version].filter(Boolean).join(' · '));
    const degradedIcon = degradedItem.iconPath as vscode.ThemeIcon;
    assert.equal(degradedIcon.id, 'warning', 'a failure-like status it does not know: the warning');
    // appendText escapes markdown characters and keeps spaces as &nbsp;
    const tooltip = (provider().resolveTreeItem(degradedItem, degraded).tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1').replace(/&nbsp;/g, ' ');
    assert.match(tooltip, /Status: Degraded \(DEGRADED\), a status this extension does not know/);

    await filter({ status: 'UNKNOWN' });
    const unknown = deploymentRows()[0];
    assert.ok(unknown, 'the sample has UNKNOWN deployments');
    assert.match(String(item(unknown).description), /^Unknown\b/);
    const unknownIcon = item(unknown).iconPath as vscode.ThemeIcon;
    assert.equal(unknownIcon.id, 'question');
    assert.notEqual(degradedIcon.id, unknownIcon.id, 'the two can be told apart');

    await filter({ status: 'AWAITING_DATABASE' });
    const awaiting = deploymentRows()[0];
    assert.ok(awaiting, 'the sample has AWAITING_DATABASE deployments');
    assert.equal(item(awaiting).description, ['Awaiting database', awaiting.item.deployment.image_version].filter(Boolean).join(' · '));
    assert.equal((item(awaiting).iconPath as vscode.ThemeIcon).id, 'clock');
  });

  it('“Load more…” appends the next page with the response offset, once per click, and disappears at the end', async () => {
    const filters = { status: 'DEGRADED' };
    const total = fx.standIn.deployments.filter((d) => matches(d, filters)).length;
    assert.ok(total > PAGE_SIZE && total < 3 * PAGE_SIZE, `sample has ${total} DEGRADED deployments`);
    await filter(filters);
    assert.equal(deploymentRows().length, PAGE_SIZE);

    fx.standIn.addFault({ fault: { kind: 'latency', ms: 400 }, pathPrefix: '/v2/deployments', times: 1 });
    const clicks = [
      vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments'),
      vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments'),
    ];
    await waitFor('the loading row', () => item(lastRow()!).label === 'Loading more…');
    await Promise.all(clicks);

    const requests = listings();
    assert.equal(requests.length, 2, 'a second click while loading sends nothing');
    assert.equal(requests[1].query.offset, String(PAGE_SIZE), 'the offset the first response returned');
    assert.equal(requests[1].query.status, 'DEGRADED');
    assert.deepEqual(rowIds(), expected(filters, 2 * PAGE_SIZE));
    assert.equal(lastRow()?.kind, 'loadMore');

    await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
    assert.deepEqual(listings().map((r) => r.query.offset), ['0', '10', '20']);
    assert.deepEqual(rowIds(), expected(filters, total));
    assert.ok(rootRows().every((row) => row.kind === 'deployment'), 'no “Load more…” after a short page');
    await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
    assert.equal(listings().length, 3, 'nothing is requested after the end');
  });

  it('stops instead of looping when the server does not advance the offset', async () => {
    await feature().refresh();
    fx.standIn.addFault({ fault: { kind: 'stuckOffset' }, whenOffset: PAGE_SIZE });
    await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
    await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
    await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
    assert.deepEqual(listings().map((r) => r.query.offset), ['0', String(PAGE_SIZE)]);
    assert.equal(deploymentRows().length, 2 * PAGE_SIZE);
    const last = lastRow()!;
    assert.equal(last.kind, 'notice');
    assert.match(String(item(last).label), /stopped/);
  });

  const tag = () => fx.standIn.deployments.find((d) => (d.tag_value_ids ?? []).length > 0)!.tag_value_ids![0];
  const cases: Array<[string, () => Partial<DeploymentFilters>, string, (f: Partial<DeploymentFilters>) => string]> = [
    ['name contains', () => ({ nameContains: 'billing' }), 'name_contains', (f) => f.nameContains!],
    ['status', () => ({ status: 'UNUSED' }), 'status', (f) => f.status!],
    ['deployment type', () => ({ deploymentType: 'prod' }), 'deployment_type', (f) => f.deploymentType!],
    ['image version', () => ({ imageVersion: '0.2.71' }), 'image_version', (f) => f.imageVersion!],
    ['remote reconciled = no', () => ({ remoteReconciled: false }), 'remote_reconciled', () => 'false'],
    ['remote reconciled = yes', () => ({ remoteReconciled: true }), 'remote_reconciled', () => 'true'],
    ['tag value IDs', () => ({ tagValueIds: [tag()] }), 'tag_value_ids', (f) => f.tagValueIds!.join(',')],
    [
      'deployment IDs',
      () => ({ deploymentIds: [fx.standIn.deployments[500].id, fx.standIn.deployments[3].id] }),
      'deployment_ids',
      (f) => f.deploymentIds!.join(','),
    ],
  ];
  for (const [title, make, parameter, value] of cases) {
    it(`the ${title} filter is sent to the server and changes the rows`, async () => {
      await feature().refresh();
      const unfiltered = rowIds();
      const change = make();
      await filter(change);
      const request = listings().at(-1)!;
      assert.equal(request.query[parameter], value(change));
      assert.equal(request.query.offset, '0');
      const want = expected(change as DeploymentFilters);
      assert.ok(want.length > 0, 'the sample has matches');
      assert.deepEqual(rowIds(), want);
      assert.notDeepEqual(rowIds(), unfiltered);
      assert.equal(feature().treeView.description, '1 filter', 'the view description counts the filter');
      assert.match(String(feature().treeView.message), /^Filters: \S/, 'the view message shows the filter in full');
    });
  }

  it('counts combined filters in the description, shows them in full in the message, and keeps them in workspace state', async () => {
    await filter({ status: 'READY', deploymentType: 'prod' });
    assert.equal(feature().treeView.description, '2 filters');
    assert.equal(feature().treeView.message, 'Filters: status: READY · type: prod');
    const request = listings().at(-1)!;
    assert.equal(request.query.status, 'READY');
    assert.equal(request.query.deployment_type, 'prod');
    // What a window reload does: a new store reads the workspace state.
    const reloaded = new DeploymentFilterStore(fx.api.services.connection.scoped(fx.api.services.context.workspaceState));
    assert.deepEqual(reloaded.filters, { status: 'READY', deploymentType: 'prod' });
  });

  it('refuses a malformed deployment ID naming it, and keeps the filters', async () => {
    await filter({ status: 'READY' });
    await assert.rejects(feature().filters.update({ deploymentIds: ['1234'] }), /“1234” is not a deployment ID/);
    assert.deepEqual(feature().filters.filters, { status: 'READY' });
  });

  it('clears every filter', async () => {
    await filter({ status: 'READY', imageVersion: '0.3.2', nameContains: 'a' });
    await vscode.commands.executeCommand('deploymentsExplorer.clearDeploymentFilters');
    assert.equal(feature().treeView.description, undefined);
    assert.equal(feature().treeView.message, undefined);
    assert.deepEqual(feature().filters.filters, {});
    assert.deepEqual(Object.keys(listings().at(-1)!.query).sort(), ['limit', 'offset']);
    assert.deepEqual(rowIds(), expected({}));
  });

  it('filters by a row’s status and image version', async () => {
    await feature().refresh();
    const row = deploymentRows().find((r) => r.item.deployment.status && r.item.deployment.status !== 'READY' && r.item.deployment.image_version)!;
    const { status, image_version } = row.item.deployment;
    await vscode.commands.executeCommand('deploymentsExplorer.filterByStatus', row);
    assert.equal(listings().at(-1)!.query.status, status);
    assert.ok(deploymentRows().every((r) => r.item.deployment.status === status));
    await vscode.commands.executeCommand('deploymentsExplorer.filterByImageVersion', row);
    assert.equal(listings().at(-1)!.query.image_version, image_version);
    assert.equal(feature().treeView.description, '2 filters');
    assert.equal(feature().treeView.message, `Filters: status: ${status} · image: ${image_version}`);
  });

  it('shows an empty result as empty (the welcome view takes over)', async () => {
    await filter({ nameContains: 'no-deployment-is-called-this' });
    assert.deepEqual(rootRows(), []);
    assert.equal(feature().list.isEmpty, true);
  });

  it('expands a deployment into grouped details with nested resource values', async () => {
    await feature().refresh();
    const row = deploymentRows().find((r) => {
      const spec = r.item.deployment.source_config?.resource_spec;
      return spec?.memory_mb !== undefined && (spec?.volumes?.length ?? 0) > 0 && (spec?.init_containers?.length ?? 0) > 0;
    });
    assert.ok(row, 'a loaded deployment with a full resource spec');
    const spec = row.item.deployment.source_config!.resource_spec!;
    const groups = provider().getChildren(row) as DetailElement[];
    const labels = groups.map((g) => g.node.label);
    for (const group of ['Source', 'Revision', 'Resources', 'Identifiers & timestamps']) assert.ok(labels.includes(group), `${group} in ${labels}`);
    const child = (parent: DetailElement, label: string) => {
      const found = (provider().getChildren(parent) as DetailElement[]).find((c) => c.node.label === label);
      assert.ok(found, `${label} under ${parent.node.label}`);
      return found;
    };
    const resources = groups.find((g) => g.node.label === 'Resources')!;
    assert.equal(item(resources).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const memory = child(child(resources, 'Main'), 'Memory');
    assert.equal(item(memory).description, `${spec.memory_mb} MB`);
    const volume = child(child(resources, 'Volumes'), String(spec.volumes![0].name));
    assert.ok(item(volume).description, 'the volume kind');
    const init = child(child(resources, 'Init containers'), String(spec.init_containers![0].name));
    assert.equal(item(child(init, 'Image')).description, spec.init_containers![0].image);
    // Unique ids, as VS Code requires.
    const ids = [...groups, ...(provider().getChildren(resources) as DetailElement[])].map((g) => item(g).id);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('opens the JSON of a deployment with every field and no secret value', async () => {
    await feature().refresh();
    const row = deploymentRows().find((r) => (r.item.deployment.secrets ?? []).length > 0);
    assert.ok(row, 'a loaded deployment with secrets');
    const record = fx.standIn.deployments.find((d) => d.id === row.item.deployment.id)!;
    const uri = (await vscode.commands.executeCommand('deploymentsExplorer.showDeploymentJson', row)) as vscode.Uri;
    const document = await vscode.workspace.openTextDocument(uri);
    const text = document.getText();
    assert.equal(document.languageId, 'json');
    for (const secret of record.secrets!) {
      assert.ok(!text.includes(secret.value), `the value of ${secret.name} is not in the document`);
      assert.ok(text.includes(secret.name), `${secret.name} is named`);
    }
    assert.ok(text.includes('••••••'));
    const parsed = JSON.parse(text);
    assert.equal(parsed.id, record.id);
    assert.equal(parsed.deployment_type, record.deployment_type, 'a field the contract does not name is kept');
    assert.deepEqual(parsed.source_config, record.source_config);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('keeps pages 1–2 when page 3 fails and offers Retry, which loads page 3', async () => {
    await feature().refresh();
    fx.standIn.addFault({ fault: { kind: 'status', status: 500 }, whenOffset: 2 * PAGE_SIZE, times: 1 });
    await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
    await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
    assert.deepEqual(rowIds(), expected({}, 2 * PAGE_SIZE));
    const errorRow = lastRow()!;
    assert.equal(errorRow.kind, 'error');
    const errorItem = item(errorRow);
    assert.match(String(errorItem.label), /page 3.*Retry/);
    assert.match(String(errorItem.description), /500/);
    assert.equal(errorItem.command?.command, 'deploymentsExplorer.loadMoreDeployments');
    await waitFor('the error message', () => errors.length > 0);
    assert.ok(errors[0].actions.includes('Retry'), `actions: ${errors[0].actions}`);

    await vscode.commands.executeCommand(errorItem.command!.command);
    assert.deepEqual(rowIds(), expected({}, 3 * PAGE_SIZE));
    assert.deepEqual(listings().map((r) => r.query.offset), ['0', '10', '20', '20']);
    assert.equal(item(lastRow()!).label, 'Load more…');
  });

  it('reveals a deployment beyond the loaded pages by looking it up, and answers false for an unknown one', async () => {
    await feature().refresh();
    const far = fx.standIn.deployments[700];
    assert.equal(await feature().reveal(far.id), true);
    assert.equal(listings().at(-1)!.query.deployment_ids, far.id);
    assert.equal(deploymentRows()[0].item.deployment.id, far.id);
    assert.equal(await feature().reveal('0badc0de-1111-4222-8333-944455556666'), false);
  });

  it('copies a deployment ID and builds the repository link at its ref', async () => {
    await feature().refresh();
    const row = deploymentRows().find((r) => r.item.deployment.source_revision_config?.repo_ref && r.item.deployment.source_config?.repo_url?.includes('github.com'))!;
    const copied = await vscode.commands.executeCommand('deploymentsExplorer.copyDeploymentId', row);
    assert.equal(copied, row.item.deployment.id);
  });

  it('auto-refreshes from page 1 while the view is visible, and stops when turned off', async () => {
    await vscode.commands.executeCommand('deploymentsExplorer.deployments.focus');
    await waitFor('the view to be visible', () => feature().treeView.visible);
    await feature().refresh();
    await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
    assert.equal(deploymentRows().length, 2 * PAGE_SIZE);
    fx.standIn.requests.length = 0;
    await config().update('autoRefreshSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('two automatic reloads', () => listings().length >= 2, 8000);
      assert.ok(listings().every((r) => r.query.offset === '0'), 'each reload starts at page 1');
    } finally {
      await config().update('autoRefreshSeconds', 0, vscode.ConfigurationTarget.Global);
    }
    await feature().list.settled();
    const count = listings().length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(listings().length, count, 'no reload once auto-refresh is off');
    assert.deepEqual(rowIds(), expected({}));
  });

  it('keeps thousands of rows responsive: each page costs only that page', async function () {
    await config().update('pageSize', 100, vscode.ConfigurationTarget.Global);
    try {
      await feature().refresh();
      for (let i = 0; i < 20 && lastRow()?.kind === 'loadMore'; i++) {
        await vscode.commands.executeCommand('deploymentsExplorer.loadMoreDeployments');
      }
      assert.equal(deploymentRows().length, fx.standIn.deployments.length);
      assert.equal(listings().length, Math.floor(fx.standIn.deployments.length / 100) + 1, 'one request per page, then one empty page');
      // How long building the rows takes is the bench's to measure (npm run bench), not a test's: each row builds.
      for (const row of rootRows()) assert.ok(item(row).label);
      assert.ok(rootRows().every((row) => row.kind === 'deployment'), 'the end after the last page');
    } finally {
      await config().update('pageSize', PAGE_SIZE, vscode.ConfigurationTarget.Global);
    }
  });
});
