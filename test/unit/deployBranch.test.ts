// Deploy This Branch… over the fake vscode module, a fake git extension and an in-memory control plane.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { fakeServices } from './helpers/fakeServices';
import { NetworkError } from '../../src/api';
import { deployThisBranch } from '../../src/features/workspace/deployBranch';
import { WorkspaceTreeProvider } from '../../src/features/workspace/workspaceTree';

/** The git extension's API with one repository on `feature/login`, its remote a GitHub URL. */
function gitExtension() {
  const none = () => ({ dispose: () => undefined });
  const repository = {
    rootUri: fake.Uri.file('/work/shop'),
    state: {
      HEAD: { name: 'feature/login', commit: 'a'.repeat(40), upstream: { remote: 'origin', name: 'feature/login' }, ahead: 0 },
      remotes: [{ name: 'origin', fetchUrl: 'git@github.com:acme/shop.git' }],
      onDidChange: none,
    },
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
});
