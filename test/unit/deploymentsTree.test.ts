// The Deployments view's rows, from the tree provider over the fake vscode
// module and a real DeploymentList fed by a scripted page fetcher.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { type Deployment, type DeploymentPage, ControlPlaneError } from '../../src/api';
import { pageEnd } from '../../src/api/pagination';
import { DeploymentList } from '../../src/model/deploymentList';
import { DeploymentsTreeElement, DeploymentsTreeProvider } from '../../src/features/deployments/deploymentsTreeProvider';
import { pagesOf } from './helpers/pagesOf';

const LIMIT = 3;
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const STATUSES = ['READY', 'AWAITING_DATABASE', 'BUILD_FAILED'];

function record(n: number): Deployment {
  return {
    id: uuid(n),
    name: `app-${n}`,
    status: STATUSES[n % STATUSES.length],
    image_version: `0.${n}.0`,
    source_config: { integration_id: uuid(900), repo_url: `https://github.com/acme/app-${n}` },
  };
}

/**
 * A listing of `total` records, `LIMIT` a page. `hold()` makes the next
 * request wait until released; `failAt(offset)` makes that page fail once.
 */
function listing(total: number, options: { stuckAt?: number } = {}) {
  const offsets: number[] = [];
  let failing: number | undefined;
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  const fetch = async (offset: number): Promise<DeploymentPage> => {
    offsets.push(offset);
    if (gate) await gate;
    if (offset === failing) {
      failing = undefined;
      throw new ControlPlaneError('network', { target: 'https://api.example.com', code: 'ECONNRESET', reason: 'connection reset\nsecond line' });
    }
    const deployments = Array.from({ length: Math.max(0, Math.min(LIMIT, total - offset)) }, (_, i) => record(offset + i));
    const nextOffset = offset === options.stuckAt ? offset : offset + deployments.length;
    const end = pageEnd({ requestedOffset: offset, limit: LIMIT, count: deployments.length, nextOffset });
    return { deployments, offContract: [], requestedOffset: offset, limit: LIMIT, nextOffset, mayHaveMore: end === undefined, end };
  };
  return {
    offsets,
    fetch,
    failAt: (offset: number) => (failing = offset),
    hold: () => (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => {
      gate = undefined;
      open?.();
    },
  };
}

let providers: DeploymentsTreeProvider[] = [];

function setUp(total: number, options: { canLoad?: boolean; stuckAt?: number } = {}) {
  const server = listing(total, options);
  const list = new DeploymentList(pagesOf(server.fetch));
  let firstLoads = 0;
  const provider = new DeploymentsTreeProvider(
    list,
    () => {
      firstLoads++;
      list.ensureLoaded().catch(() => undefined);
    },
    () => options.canLoad ?? true,
  );
  providers.push(provider);
  const changes: Array<DeploymentsTreeElement | undefined> = [];
  provider.onDidChangeTreeData((element) => changes.push(element));
  return { server, list, provider, changes, firstLoads: () => firstLoads };
}

/** The rows as the view draws them. */
function rowsOf(provider: DeploymentsTreeProvider, parent?: DeploymentsTreeElement) {
  return provider.getChildren(parent).map((element) => {
    const item = provider.getTreeItem(element);
    return {
      label: item.label,
      description: item.description,
      icon: (item.iconPath as fake.ThemeIcon | undefined)?.id,
      expands: item.collapsibleState !== fake.TreeItemCollapsibleState.None,
      command: item.command?.command,
    };
  });
}

const labels = (provider: DeploymentsTreeProvider) => rowsOf(provider).map((row) => row.label);

describe('Deployments tree', () => {
  beforeEach(() => fake.resetFake());
  afterEach(() => {
    for (const provider of providers) provider.dispose();
    providers = [];
  });

  it('shows nothing and loads nothing while the connection is not set up', () => {
    const { provider, server, firstLoads } = setUp(5, { canLoad: false });
    assert.deepEqual(provider.getChildren(), []);
    assert.equal(firstLoads(), 0);
    assert.deepEqual(server.offsets, []);
  });

  it('starts the first load when the view first asks, then shows the page and “Load more…”', async () => {
    const { provider, list, server, changes, firstLoads } = setUp(5);
    assert.deepEqual(provider.getChildren(), [], 'nothing yet: the view shows its progress');
    assert.equal(firstLoads(), 1);
    await list.settled();
    assert.ok(changes.includes(undefined), 'the view is told to ask again');
    assert.deepEqual(rowsOf(provider), [
      { label: 'app-0', description: 'Ready · 0.0.0', icon: 'pass-filled', expands: true, command: undefined },
      { label: 'app-1', description: 'Awaiting database · 0.1.0', icon: 'clock', expands: true, command: undefined },
      { label: 'app-2', description: 'Build failed · 0.2.0', icon: 'warning', expands: true, command: undefined },
      { label: 'Load more…', description: '3 loaded', icon: 'ellipsis', expands: false, command: 'deploymentsExplorer.loadMoreDeployments' },
    ]);
    assert.deepEqual(server.offsets, [0]);
  });

  it('describes a deployment row for the tooltip, the menus and screen readers', async () => {
    const { provider, list } = setUp(1);
    provider.getChildren();
    await list.settled();
    const [row] = provider.getChildren();
    const item = provider.getTreeItem(row);
    assert.equal(item.contextValue, 'deployment id status image repo integration');
    assert.equal(item.accessibilityInformation?.label, 'Deployment app-0, status Ready, image version 0.0.0');
    assert.equal(item.tooltip, undefined, 'the tooltip is built when the row is hovered');
    const tooltip = (provider.resolveTreeItem(item, row).tooltip as fake.MarkdownString).value;
    assert.match(tooltip, /^\*\*app\\-0\*\*/);
    assert.match(tooltip, /Status: Ready \\\(READY\\\)/, 'the words, and the raw value beside them');
    assert.equal((item.iconPath as fake.ThemeIcon).color?.id, 'testing.iconPassed');
  });

  it('marks a watched row and unmarks it, redrawing that row only and keeping its details', async () => {
    const { provider, list, changes } = setUp(2);
    provider.getChildren();
    await list.settled();
    const [first, second] = provider.getChildren();
    assert.ok(first.kind === 'deployment' && second.kind === 'deployment');
    const id = first.item.deployment.id ?? '';
    const details = provider.getChildren(first);
    const secondItem = provider.getTreeItem(second);
    changes.length = 0;

    provider.setWatched([id.toUpperCase()]);
    assert.deepEqual(changes, [first], 'only the row whose mark changed is redrawn');
    assert.equal(provider.getTreeItem(first).description, 'Ready · 0.0.0 · watching');
    assert.equal(provider.getTreeItem(first).contextValue, 'deployment id status image repo integration watched');
    assert.equal(provider.getTreeItem(second), secondItem, 'the other row keeps its TreeItem');
    assert.deepEqual(provider.getChildren(first), details);
    assert.equal(provider.getChildren(first)[0], details[0], 'its details are not built again');

    changes.length = 0;
    provider.setWatched([id]);
    assert.deepEqual(changes, [], 'nothing changes when the same rows stay watched');
    provider.setWatched([]);
    assert.deepEqual(changes, [first]);
    assert.equal(provider.getTreeItem(first).description, 'Ready · 0.0.0');
    assert.equal(provider.getTreeItem(first).contextValue, 'deployment id status image repo integration');
  });

  it('a watched row without a status or image version says “watching” alone, with no separator before it', async () => {
    // A server may send null (or nothing) for both: the row's description is then the mark alone.
    const bare: Deployment = { id: uuid(7), name: 'bare', status: null, image_version: null };
    const list = new DeploymentList(pagesOf(async (offset) => ({ deployments: [bare], offContract: [], requestedOffset: offset, limit: LIMIT, nextOffset: 1, mayHaveMore: false, end: 'short' })));
    const provider = new DeploymentsTreeProvider(list, () => void list.ensureLoaded(), () => true);
    providers.push(provider);
    provider.getChildren();
    await list.settled();
    provider.setWatched([uuid(7)]);
    assert.deepEqual(rowsOf(provider).map((row) => [row.label, row.description]), [['bare', 'watching']]);
  });

  it('redraws a row a newer record replaced, keeping the element, and builds its TreeItem and details again', async () => {
    const { provider, list, changes } = setUp(2);
    provider.getChildren();
    await list.settled();
    const [first, second] = provider.getChildren();
    assert.ok(first.kind === 'deployment');
    const firstItem = provider.getTreeItem(first);
    const secondItem = provider.getTreeItem(second);
    const details = provider.getChildren(first);
    changes.length = 0;

    list.update({ ...record(0), status: 'BUILD_FAILED' });
    assert.deepEqual(changes, [first], 'only the replaced row is redrawn');
    assert.deepEqual(provider.getChildren(), [first, second], 'the same elements, in the same places');
    assert.notEqual(provider.getTreeItem(first), firstItem);
    assert.equal(provider.getTreeItem(first).description, 'Build failed · 0.0.0');
    assert.equal(provider.getTreeItem(second), secondItem, 'the other row keeps its TreeItem');
    assert.notEqual(provider.getChildren(first)[0], details[0], 'its details follow the new record');
    assert.equal(provider.elementFor(uuid(0)), first);
  });

  it('says a status in words and gives a status it does not know its own icon, not UNKNOWN’s question mark', async () => {
    const { provider, list } = setUp(0);
    provider.getChildren();
    await list.settled();
    list.insertFirst({ id: uuid(60), name: 'unknown', status: 'UNKNOWN', image_version: '1.0.0' });
    list.insertFirst({ id: uuid(61), name: 'scaling', status: 'SCALING_UP', image_version: '1.0.0' });
    list.insertFirst({ id: uuid(62), name: 'long', status: 'AWAITING_DELETE', image_version: '1.0.0' });
    list.insertFirst({ id: uuid(63), name: 'bare' });
    assert.deepEqual(rowsOf(provider), [
      { label: 'bare', description: '', icon: 'question', expands: true, command: undefined },
      { label: 'long', description: 'Awaiting deletion · 1.0.0', icon: 'trash', expands: true, command: undefined },
      { label: 'scaling', description: 'Scaling up · 1.0.0', icon: 'circle-large-outline', expands: true, command: undefined },
      { label: 'unknown', description: 'Unknown · 1.0.0', icon: 'question', expands: true, command: undefined },
    ]);
    const [, , scaling] = provider.getChildren();
    const tooltip = (provider.resolveTreeItem(provider.getTreeItem(scaling), scaling).tooltip as fake.MarkdownString).value;
    assert.match(tooltip, /Status: Scaling up \\\(SCALING\\_UP\\\), a status this extension does not know/);
  });

  it('shows “Loading more…” while the next page loads, then appends it and ends without “Load more…”', async () => {
    const { provider, list, server, changes } = setUp(5);
    provider.getChildren();
    await list.settled();
    server.hold();
    changes.length = 0;
    const loading = list.loadMore();
    assert.deepEqual(rowsOf(provider).at(-1), { label: 'Loading more…', description: undefined, icon: 'loading~spin', expands: false, command: undefined });
    assert.equal(changes.length, 1);
    assert.equal(changes[0]?.kind, 'loadMore', 'only the last row is redrawn while loading');
    server.release();
    await loading;
    assert.deepEqual(labels(provider), ['app-0', 'app-1', 'app-2', 'app-3', 'app-4']);
    assert.deepEqual(server.offsets, [0, 3]);
  });

  it('keeps the loaded rows when a page fails, offers to retry that page, and to check the connection', async () => {
    const { provider, list, server } = setUp(7);
    provider.getChildren();
    await list.settled();
    server.failAt(3);
    await assert.rejects(list.loadMore(), /connection reset/);
    const rows = rowsOf(provider);
    assert.deepEqual(rows.map((row) => row.label), ['app-0', 'app-1', 'app-2', "Couldn't load page 2: Retry", 'Check Connection']);
    assert.equal(rows.at(-1)?.command, 'deploymentsExplorer.checkConnection');
    assert.deepEqual(rows.at(-2), {
      label: "Couldn't load page 2: Retry",
      description: 'Cannot reach the control plane at https://api.example.com: connection reset',
      icon: 'error',
      expands: false,
      command: 'deploymentsExplorer.loadMoreDeployments',
    });
    await list.loadMore();
    assert.deepEqual(labels(provider), ['app-0', 'app-1', 'app-2', 'app-3', 'app-4', 'app-5', 'Load more…']);
    assert.deepEqual(server.offsets, [0, 3, 3], 'the retry asks for the page that failed');
  });

  it('names a failed first page as the deployments, not a page', async () => {
    const { provider, list, server } = setUp(7);
    server.failAt(0);
    provider.getChildren();
    await list.settled();
    assert.deepEqual(labels(provider), ["Couldn't load deployments: Retry", 'Check Connection']);
  });

  it('an error row of a failure worded on several lines says the reason in its description, not a line ending in “:”', async () => {
    const list = new DeploymentList(pagesOf(async () => {
      throw new ControlPlaneError('schema', { what: 'The deployment listing', problems: [{ path: 'resources', message: 'expected an array, got null' }] });
    }));
    const provider = new DeploymentsTreeProvider(list, () => void list.ensureLoaded().catch(() => undefined), () => true);
    providers.push(provider);
    provider.getChildren();
    await list.settled();
    assert.equal(rowsOf(provider)[0].description, 'The deployment listing does not match the API contract: resources: expected an array, got null');
  });

  it('says why the listing stopped when the server repeats an offset', async () => {
    const { provider, list } = setUp(9, { stuckAt: 3 });
    provider.getChildren();
    await list.settled();
    await list.loadMore();
    const rows = rowsOf(provider);
    assert.deepEqual(rows.at(-1), {
      label: 'Listing stopped: the server repeated the same offset',
      description: undefined,
      icon: 'warning',
      expands: false,
      command: undefined,
    });
    assert.equal(rows.length, 7);
  });

  it('expands a deployment into its details', async () => {
    const { provider, list } = setUp(1);
    provider.getChildren();
    await list.settled();
    const [row] = provider.getChildren();
    const groups = provider.getChildren(row).map((element) => provider.getTreeItem(element));
    assert.deepEqual(
      groups.map((group) => [group.label, group.collapsibleState]),
      [
        ['General', fake.TreeItemCollapsibleState.Expanded],
        ['Source', fake.TreeItemCollapsibleState.Collapsed],
        ['Revision', fake.TreeItemCollapsibleState.None],
        ['Secrets', fake.TreeItemCollapsibleState.None],
        ['Secret references', fake.TreeItemCollapsibleState.None],
        ['Identifiers & timestamps', fake.TreeItemCollapsibleState.Collapsed],
      ],
    );
    assert.equal(groups[2].description, 'not in this record');
    const general = provider.getChildren(row)[0];
    assert.deepEqual(
      rowsOf(provider, general).map((detail) => [detail.label, detail.description]),
      [
        ['Name', 'app-0'],
        ['Status', 'Ready (READY)'],
        ['Image version', '0.0.0'],
      ],
    );
    assert.equal(provider.getParent(general), row);
    assert.equal(provider.getChildren(row), provider.getChildren(row), 'detail rows are built once');
  });

  it('puts a created deployment at the top and finds rows by ID', async () => {
    const { provider, list } = setUp(2);
    provider.getChildren();
    await list.settled();
    list.insertFirst({ id: uuid(50), name: 'fresh', status: 'AWAITING_DATABASE' });
    assert.deepEqual(labels(provider), ['fresh', 'app-0', 'app-1']);
    const element = provider.elementFor(uuid(50).toUpperCase());
    assert.ok(element);
    assert.equal(provider.getTreeItem(element).label, 'fresh');
  });

  describe('records that do not match the API contract', () => {
    const offContractPage = (): DeploymentPage => ({
      deployments: [record(0), record(2)],
      offContract: [
        {
          index: 1,
          id: 'not-a-uuid',
          name: 'broken',
          raw: { id: 'not-a-uuid', name: 'broken', created_at: 1700000000, secrets: [{ name: 'TOKEN', value: 'hunter2' }] },
          problems: [{ path: 'id', message: 'expected a UUID' }, { path: 'created_at', message: 'expected a string, got a number' }],
        },
      ],
      requestedOffset: 0,
      limit: LIMIT,
      nextOffset: 3,
      mayHaveMore: false,
      end: 'short',
    });

    it('shows an off-contract record marked, in its place, naming each field', async () => {
      const list = new DeploymentList(pagesOf(async () => offContractPage()));
      const provider = new DeploymentsTreeProvider(list, () => void list.ensureLoaded(), () => true);
      providers.push(provider);
      provider.getChildren();
      await list.settled();
      const rows = rowsOf(provider);
      assert.deepEqual(
        rows.map((row) => row.label),
        ['app-0', 'broken', 'app-2'],
      );
      assert.deepEqual(rows[1], {
        label: 'broken',
        description: 'does not match the API contract (ID, Created)',
        icon: 'bracket-error',
        expands: true,
        command: undefined,
      });
      // Its own icon: not one a status uses.
      const { statusIcon } = await import('../../src/model/deploymentPresentation');
      for (const status of ['READY', 'UNUSED', 'UNKNOWN', 'AWAITING_DATABASE', 'AWAITING_DELETE', 'SOMETHING_NEW']) {
        assert.notEqual(statusIcon(status).id, 'bracket-error', status);
      }
      const element = provider.getChildren()[1];
      const item = provider.getTreeItem(element);
      // Show JSON and Copy ID apply (their menus match /^deployment\b/ and `id`).
      assert.equal(item.contextValue, 'deployment offContract id');
      const tooltip = (provider.resolveTreeItem(item, element).tooltip as fake.MarkdownString).value;
      assert.match(tooltip, /does not match the API contract/i);
      assert.match(tooltip, /`created_at`/, 'the raw path in the tooltip');
      assert.match(tooltip, /Created: expected a string, got a number/);
      // Its children: the problems first (each field in words, the raw path beside), then the record's details.
      const [problems, ...details] = provider.getChildren(element);
      assert.equal(provider.getTreeItem(problems).label, 'Does not match the API contract');
      assert.deepEqual(
        rowsOf(provider, problems).map((row) => [row.label, row.description]),
        [
          ['ID', 'expected a UUID (id)'],
          ['Created', 'expected a string, got a number (created_at)'],
        ],
      );
      assert.ok(details.length > 0, 'the record’s details still show');
      assert.equal(element.kind === 'deployment' && element.item.deployment.name, 'broken', 'Show JSON gets the record as sent');
    });

    it('offers the same fixes as the Integrations tree beside the error row', async () => {
      let error: unknown = new ControlPlaneError('auth', { status: 401, detail: 'Invalid API key' });
      const list = new DeploymentList(pagesOf(async () => {
        throw error;
      }));
      const provider = new DeploymentsTreeProvider(list, () => void list.ensureLoaded().catch(() => undefined), () => true);
      providers.push(provider);
      provider.getChildren();
      await list.settled();
      assert.deepEqual(
        rowsOf(provider).map((row) => [row.label, row.icon, row.command]),
        [
          ["Couldn't load deployments: Retry", 'error', 'deploymentsExplorer.loadMoreDeployments'],
          ['Set API Key…', 'key', 'deploymentsExplorer.setApiKey'],
        ],
      );
      // Not enabled for the organisation: another key will not help, so none is offered.
      error = new ControlPlaneError('auth', { status: 403, detail: 'This feature is not enabled for your organization' });
      await list.loadMore().catch(() => undefined);
      const rows = rowsOf(provider);
      assert.equal(rows.length, 1);
      assert.match(String(rows[0].description), /not enabled for your organisation/);
    });
  });
});
