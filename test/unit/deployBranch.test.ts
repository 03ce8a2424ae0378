// Deploy This Branch… and the This Workspace view over the fake vscode module, a fake git extension and an in-memory control plane.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { fakeServices } from './helpers/fakeServices';
import { AuthError, CancelledError, NetworkError } from '../../src/api';
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

describe('Deploy This Branch…', () => {
  let tree: WorkspaceTreeProvider | undefined;
  beforeEach(() => fake.resetFake());
  afterEach(() => {
    tree?.dispose();
    mock.restoreAll();
  });

  it('says why it cannot look for a deployment of the branch when the listing fails, instead of ending without a word', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const failure = new NetworkError('https://api.example.com', 'ECONNREFUSED', 'the connection was refused');
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

  it('goes on looking when the connection changes during its scan, instead of ending without a word', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    const connectionChanged = new fake.EventEmitter<void>();
    let scans = 0;
    Object.assign(services.connection, {
      onDidChange: connectionChanged.event,
      getClient: async () => ({
        async *deploymentPages(_query: unknown, { signal }: { signal: AbortSignal }) {
          // The first scan is cut short by a connection change, as when the window's settings settle.
          if (scans++ === 0) {
            connectionChanged.fire();
            if (signal.aborted) throw new CancelledError();
          }
          yield { deployments: [], invalid: [], requestedOffset: 0, limit: 100, nextOffset: 0, mayHaveMore: false };
        },
      }),
    });
    const git = gitExtension();
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    const created: unknown[] = [];
    fake.commands.registerCommand(Commands.deployWorkspace, (options: unknown) => created.push(options));
    tree = new WorkspaceTreeProvider(services);
    await deployThisBranch(services, tree, git.repository);
    assert.equal(scans, 2);
    assert.equal(created.length, 1, 'the create flow opens');
  });

  it('deploys the branch the code host has: the upstream’s name when the local branch tracks another name', async () => {
    fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
    const { services } = fakeServices({ apiKey: 'sk-test' });
    (services.connection as { getClient: () => Promise<unknown> }).getClient = async () => ({
      async *deploymentPages() {
        yield { deployments: [], invalid: [], requestedOffset: 0, limit: 100, nextOffset: 0, mayHaveMore: false };
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
  let tree: WorkspaceTreeProvider | undefined;
  beforeEach(() => fake.resetFake());
  afterEach(() => {
    tree?.dispose();
    mock.restoreAll();
  });

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
          if (refused) throw new AuthError(401, 'invalid API key');
          yield { deployments: [deployment], invalid: [], requestedOffset: 0, limit: 100, nextOffset: 1, mayHaveMore: false };
        },
      }),
    });
    const git = gitExtension();
    mock.method(fake.extensions, 'getExtension', () => git.extension);
    tree = new WorkspaceTreeProvider(services);
    const labels = async () => (await tree!.getChildren()).map((element) => String(tree!.getTreeItem(element).label));
    await labels();
    await fake.until(() => services.deploymentIndex.current().scan.phase === 'failed', 'the scan to fail');
    assert.ok((await labels()).includes("Couldn't look through the deployments: Retry"));

    refused = false;
    connectionChanged.fire();
    await labels();
    await fake.until(() => services.deploymentIndex.current().scan.phase === 'complete', 'the scan to run again');
    assert.deepEqual(await labels(), ['shop']);
  });
});
