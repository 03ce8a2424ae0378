// Deploy This Branch… and the This Workspace view over the fake vscode module, a fake git extension and an in-memory control plane.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { fakeServices } from './helpers/fakeServices';
import { ControlPlaneError } from '../../src/api';
import { deployThisBranch } from '../../src/features/workspace/deployBranch';
import { Commands } from '../../src/platform/commandIds';
import { WorkspaceTreeProvider } from '../../src/features/workspace/workspaceTree';

/** The git extension's API with one repository on `feature/login`, its remote a GitHub URL. */
function gitExtension(upstream = { remote: 'origin', name: 'feature/login' }) {
  const none = () => ({ dispose: () => undefined });
  const repository = {
    rootUri: fake.Uri.file('/work/shop'),
    state: {
      HEAD: { name: 'feature/login', commit: 'a'.repeat(40), upstream, ahead: 0 },
      remotes: [{ name: 'origin', fetchUrl: 'git@github.com:acme/shop.git' }],
      onDidChange: none,
    },
    status: async () => undefined,
  };
  const api = { repositories: [repository], onDidOpenRepository: none, onDidCloseRepository: none };
  return { repository, extension: { isActive: true, exports: { enabled: true, onDidChangeEnablement: none, getAPI: () => api } } };
}

/** A record of the deployment `n` of https://github.com/acme/shop. */
function deployment(n: number, ref = 'feature/login', commit?: string) {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    name: `shop-${n}`,
    source_config: { repo_url: 'https://github.com/acme/shop' },
    source_revision_config: { repo_ref: ref, repo_commit_sha: commit },
  };
}

/**
 * The connection as ConnectionManager has it: a change (`change`) ends the current client's requests, then
 * is announced a moment later. Its listing holds `count` deployments, one per page, each page after 10 ms.
 */
function resettingConnection(services: ReturnType<typeof fakeServices>['services'], count: number) {
  const announce = new fake.EventEmitter<void>();
  let generation = new AbortController();
  const offsets: number[] = [];
  /** Page generators not finished yet: a scan that stopped has closed its own. */
  let open = 0;
  /** Pages after the first wait for the first change: the tests change the connection while a scan is under way. */
  let changed = false;
  let firstChange: () => void = () => undefined;
  const changing = new Promise<void>((resolve) => (firstChange = resolve));
  Object.assign(services.connection, {
    onDidChange: announce.event,
    getClient: async () => {
      const ended = generation.signal;
      return {
        async *deploymentPages({ offset }: { offset: number }, { signal }: { signal: AbortSignal }) {
          open++;
          try {
            for (let at = offset; at < count; at++) {
              offsets.push(at);
              // An answer comes in a later turn of the event loop, as a server's does; the second page not before a change.
              await (at > 0 && !changed ? changing : new Promise((resolve) => setImmediate(resolve)));
              if (ended.aborted || signal.aborted) throw new ControlPlaneError('cancelled');
              yield { deployments: [deployment(at)], offContract: [], requestedOffset: at, limit: 100, nextOffset: at + 1, mayHaveMore: at + 1 < count };
            }
          } finally {
            open--;
          }
        },
      };
    },
  });
  return {
    offsets,
    get open() {
      return open;
    },
    /** As the connection does on a change: what is in flight aborts, then the change is announced. */
    async change() {
      generation.abort();
      generation = new AbortController();
      announce.fire();
      changed = true;
      firstChange();
    },
  };
}

let tree: WorkspaceTreeProvider | undefined;
beforeEach(() => fake.resetFake());
afterEach(() => {
  tree?.dispose();
  mock.restoreAll();
});

describe('Deploy This Branch…', () => {
  it('says why it cannot look for a deployment of the branch when the listing fails, instead of ending without a word', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const failure = new ControlPlaneError('network', { target: 'https://api.example.com', code: 'ECONNREFUSED', reason: 'the connection was refused' });
    (services.connection as { getClient: () => Promise<unknown> }).getClient = async () => ({
      async *deploymentPages() {
        throw failure;
      },
    });
    const git = gitExtension();
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    tree = new WorkspaceTreeProvider(services);
    await assert.rejects(deployThisBranch(services, tree, git.repository), (error) => error === failure);
  });

  it('says what git said when it cannot read the branch, and what to do', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const git = gitExtension();
    git.repository.status = async () => {
      throw Object.assign(new Error('Failed to execute git'), { stderr: 'fatal: index file corrupt\n' });
    };
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    tree = new WorkspaceTreeProvider(services);
    await assert.rejects(deployThisBranch(services, tree, git.repository), {
      message: 'Git could not read the state of shop (fatal: index file corrupt). See the Git output (Git: Show Git Output), and try again once git works there.',
    });
  });

  it('goes on looking when the connection changes during its scan, instead of ending without a word', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const connection = resettingConnection(services, 3);
    const git = gitExtension();
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    const created: unknown[] = [];
    fake.commands.registerCommand(Commands.deployWorkspace, (options: unknown) => created.push(options));
    tree = new WorkspaceTreeProvider(services);
    const deployed = deployThisBranch(services, tree, git.repository);
    // The first scan is cut short by a connection change, as when the window's settings settle.
    await fake.until(() => services.deploymentIndex.current().scanState.looked === 1, 'the first page');
    await connection.change();
    await deployed;
    assert.equal(services.deploymentIndex.current().scanState.phase, 'complete');
    assert.equal(created.length, 0, 'the branch is deployed already: the question comes first');
  });

  it('deploys the branch the code host has: the upstream’s name when the local branch tracks another name', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    (services.connection as { getClient: () => Promise<unknown> }).getClient = async () => ({
      async *deploymentPages() {
        yield { deployments: [], offContract: [], requestedOffset: 0, limit: 100, nextOffset: 0, mayHaveMore: false };
      },
    });
    const git = gitExtension({ remote: 'origin', name: 'feature/sign-in' });
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    const created: unknown[] = [];
    fake.commands.registerCommand(Commands.deployWorkspace, (options: unknown) => created.push(options));
    tree = new WorkspaceTreeProvider(services);
    await deployThisBranch(services, tree, git.repository);
    assert.deepEqual(created, [
      { folders: [git.repository.rootUri], ref: 'feature/sign-in', deploymentType: 'dev', name: 'shop-feature-sign-in', confirm: undefined, pin: undefined },
    ]);
  });
});

describe('This Workspace', () => {
  it('looks through the deployments again after the connection changed (a key set) when the last scan failed', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    Object.defineProperty(fake.workspace, 'workspaceFolders', { value: [{ uri: fake.Uri.file('/work/shop'), name: 'shop', index: 0 }] });
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const connectionChanged = new fake.EventEmitter<void>();
    let refused = true;
    const deployment = {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'shop-feature-login',
      source_config: { repo_url: 'https://github.com/acme/shop' },
      source_revision_config: { repo_ref: 'feature/login' },
    };
    Object.assign(services.connection, {
      onDidChange: connectionChanged.event,
      getClient: async () => ({
        async *deploymentPages() {
          if (refused) throw new ControlPlaneError('auth', { status: 401, detail: 'invalid API key' });
          yield { deployments: [deployment], offContract: [], requestedOffset: 0, limit: 100, nextOffset: 1, mayHaveMore: false };
        },
      }),
    });
    const git = gitExtension();
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    tree = new WorkspaceTreeProvider(services);
    const labels = async () => (await tree!.getChildren()).map((element) => String(tree!.getTreeItem(element).label));
    await labels();
    await fake.until(() => services.deploymentIndex.current().scanState.phase === 'failed', 'the scan to fail');
    assert.ok((await labels()).includes("Couldn't look through the deployments: Retry"));

    refused = false;
    connectionChanged.fire();
    await labels();
    await fake.until(() => services.deploymentIndex.current().scanState.phase === 'complete', 'the scan to run again');
    assert.deepEqual(await labels(), ['shop']);
  });

  /** This Workspace over the repository of gitExtension() and a control plane of `count` deployments whose client a connection change replaces. */
  function scanningTree(count: number) {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    Object.defineProperty(fake.workspace, 'workspaceFolders', { value: [{ uri: fake.Uri.file('/work/shop'), name: 'shop', index: 0 }], configurable: true });
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const connection = resettingConnection(services, count);
    const git = gitExtension();
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    tree = new WorkspaceTreeProvider(services);
    return { services, connection, tree, index: services.deploymentIndex.current() };
  }

  it('a connection change that keeps the control plane (a timeout set) does not stop the scan: it goes on where it was', async () => {
    const { connection, tree, index } = scanningTree(3);
    const phases: string[] = [];
    index.onDidChange(() => phases.push(index.scanState.phase));
    await tree.getChildren();
    await fake.until(() => index.scanState.looked === 1, 'the first page');
    await connection.change();
    await fake.until(() => index.scanState.phase !== 'scanning', 'the scan to end');
    assert.equal(index.scanState.phase, 'complete');
    assert.equal(index.size, 3);
    assert.ok(!phases.includes('stopped'), `no stopped scan to be seen: ${phases.join(', ')}`);
    assert.deepEqual(connection.offsets.slice(-2), [1, 2], 'on from the offset it had reached');
  });

  it('a change to another control plane stops the scan of the one before, which asks nothing more', async () => {
    const { services, connection, tree, index } = scanningTree(50);
    await tree.getChildren();
    await fake.until(() => index.scanState.looked === 1, 'the first page');
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://other.example.com');
    assert.notEqual(services.deploymentIndex.current(), index);
    await connection.change();
    await fake.until(() => index.scanState.phase !== 'scanning', 'the scan to end');
    // The scan has let go of its pages: any page asked of the old control plane would have been asked by now.
    await fake.until(() => connection.open === 0, 'the scan to close its pages');
    assert.equal(index.scanState.phase, 'stopped');
    assert.ok(connection.offsets.length < 50, `stopped early: ${connection.offsets.length} of 50 pages asked`);
  });

  it('labels a bare ref that names a tag of the clone as that tag, and says when git fails to compare', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    Object.defineProperty(fake.workspace, 'workspaceFolders', { value: [{ uri: fake.Uri.file('/work/shop'), name: 'shop', index: 0 }], configurable: true });
    const { services, log } = fakeServices({ apiKey: 'sk-test' });
    const tagged = 'c'.repeat(40);
    const unreadable = 'd'.repeat(40);
    const records = [deployment(1, 'v1', tagged), deployment(2, 'feature/login', unreadable), deployment(3, 'feature/login', 'e'.repeat(40))];
    (services.connection as { getClient: () => Promise<unknown> }).getClient = async () => ({
      async *deploymentPages() {
        yield { deployments: records, offContract: [], requestedOffset: 0, limit: 100, nextOffset: 3, mayHaveMore: false };
      },
    });
    const git = gitExtension();
    const commits: Record<string, string> = { 'refs/tags/v1^{commit}': tagged, [`${tagged}^{commit}`]: tagged, 'refs/heads/feature/login^{commit}': 'a'.repeat(40) };
    Object.assign(git.repository, {
      async getCommit(revision: string) {
        if (revision === `${unreadable}^{commit}`) throw Object.assign(new Error('Failed to execute git'), { stderr: 'fatal: unable to read objects: Permission denied', exitCode: 128 });
        if (!commits[revision]) throw Object.assign(new Error('Failed to execute git'), { stderr: `fatal: bad revision '${revision}'`, exitCode: 128 });
        return { hash: commits[revision], message: 'a commit' };
      },
    });
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    tree = new WorkspaceTreeProvider(services);
    await tree.getChildren();
    await fake.until(() => services.deploymentIndex.current().scanState.phase === 'complete', 'the scan');
    const rows: string[] = [];
    const render = async (element?: Parameters<WorkspaceTreeProvider['getChildren']>[0], depth = 0): Promise<void> => {
      for (const child of await tree!.getChildren(element)) {
        const item = tree!.getTreeItem(child);
        rows.push(`${' '.repeat(depth)}${String(item.label)} — ${String(item.description)}`);
        if (child.kind !== 'workspaceDeployment') await render(child, depth + 1);
      }
    };
    await render();
    assert.deepEqual(rows, [
      'shop — 3 deployments',
      ' feature/login — branch · checked out',
      '  shop-2 — could not compare the commits',
      '  shop-3 — deployed commit not in your clone',
      ' v1 — tag',
      '  shop-1 — up to date',
    ]);
    assert.ok(log.some((line) => line.startsWith('warn This Workspace: could not compare the commit of') && line.includes('Permission denied')));
  });
});
