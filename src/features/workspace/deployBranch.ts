import * as path from 'node:path';
import vscode = require('vscode');
import { normaliseRemoteUrl } from '../../model/remoteUrls';
import { branchDeploymentName, parseRef } from '../../model/workspaceDeployments';
import { Commands } from '../../platform/commandIds';
import { gitApi, GitApi, GitRepository, readState, remotesOf, repositoryOf, workspaceRepositories } from '../../platform/git';
import { Services } from '../../platform/services';
import { WorkspaceTreeProvider, WORKSPACE_VIEW_ID } from './workspaceTree';

/**
 * "Deploy This Branch…": Deploy This Workspace's create flow (the repository matched the same way) with the
 * checked-out branch as ref (its upstream's name when it has one), type dev, and a name made of repository and
 * branch. Before it, two questions: a deployment of this branch exists already (show it instead of a second
 * one?), and the branch has commits the code host does not have (push first?): the control plane builds from the
 * code host, so those would not be deployed. `argument`: the SCM view's repository, or for scripts and tests
 * `{ confirm?, pin? }`, passed on to Deploy This Workspace.
 */
export async function deployThisBranch(services: Services, tree: WorkspaceTreeProvider, argument?: unknown): Promise<unknown> {
  const api = await gitApi();
  if (!api) throw new Error(vscode.l10n.t('Deploy This Branch… needs the Git extension: enable it (git.enabled) and open a folder that is a git repository.'));
  const repository = await pickRepository(api, argument);
  if (!repository) return { outcome: 'cancelled', step: 'repository' };
  // The branch and its commits as they are now: the git extension follows a checkout or a commit a moment later.
  await readState(repository);
  const folder = path.posix.basename(repository.rootUri.path);
  const head = repository.state.HEAD;
  const branch = head?.name;
  if (!head || !branch) throw new Error(vscode.l10n.t('{0} is not on a branch (detached HEAD): check out the branch to deploy.', folder));
  const remotes = remotesOf(repository);
  const remote = remotes.find((candidate) => candidate.name === 'origin') ?? remotes[0];
  if (!remote) throw new Error(vscode.l10n.t('{0} has no git remote, so the control plane cannot build it. Add the remote of its code host first.', folder));
  const repositoryName = normaliseRemoteUrl(remote.url)?.path.split('/').pop() ?? folder;
  // The branch as the code host names it, which the control plane builds: a local `mine` may track `origin/feature-x`.
  const hostBranch = head.upstream?.name || branch;

  // One deployment per branch is what people usually want: a second one is a choice, not an accident.
  let index = services.deploymentIndex.current();
  if (!index.built) {
    index = await services.commands.withProgress(vscode.l10n.t('Looking for deployments of {0}…', branch), (signal) => {
      signal.addEventListener('abort', () => services.deploymentIndex.stopScan());
      return services.deploymentIndex.builtIndex();
    });
    // A listing that failed is said (with its fixes), not taken for a cancel.
    if (index.scanState.phase === 'failed') throw index.scanState.error;
    if (!index.built) return { outcome: 'cancelled', step: 'existing' };
  }
  const existing = index
    .ofRemotes(remotes)
    .deployments.filter((deployment) => {
      const ref = parseRef(deployment.ref);
      return ref.kind === 'branch' && ref.name === hostBranch;
    })
    .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id));
  if (existing.length > 0) {
    const show = vscode.l10n.t('Show Deployment');
    const another = vscode.l10n.t('Create Another');
    const names = existing.map((deployment) => `“${deployment.name ?? deployment.id}”`).join(', ');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('{0} of {1} is deployed already: {2}. Show it instead of creating a second deployment?', branch, repositoryName, names),
      { modal: true },
      show,
      another,
    );
    if (choice === show) {
      await vscode.commands.executeCommand(`${WORKSPACE_VIEW_ID}.focus`);
      await tree.reveal(existing[0].id);
      return { outcome: 'existing', deploymentId: existing[0].id };
    }
    if (choice !== another) return { outcome: 'cancelled', step: 'existing' };
  }

  const ahead = head.ahead ?? 0;
  const unpushed = !head.upstream
    ? vscode.l10n.t('The branch {0} is not on the code host yet (it has no upstream).', branch)
    : ahead > 0
      ? ahead === 1
        ? vscode.l10n.t('{0} has 1 commit the code host does not have.', branch)
        : vscode.l10n.t('{0} has {1} commits the code host does not have.', branch, ahead)
      : undefined;
  if (unpushed) {
    const push = vscode.l10n.t('Push First');
    const anyway = vscode.l10n.t('Deploy Anyway');
    const choice = await vscode.window.showWarningMessage(
      unpushed,
      { modal: true, detail: vscode.l10n.t('The control plane builds from the code host: what is not pushed would not be deployed.') },
      push,
      anyway,
    );
    if (choice === push) {
      await services.commands.withProgress(vscode.l10n.t('Pushing {0} to {1}…', branch, remote.name), () =>
        head.upstream ? repository.push() : repository.push(remote.name, branch, true),
      );
      services.log.info(`Deploy This Branch: pushed ${branch} to ${head.upstream ? head.upstream.remote : remote.name}`);
    } else if (choice !== anyway) {
      return { outcome: 'cancelled', step: 'push' };
    }
  }

  const options = argument && typeof argument === 'object' && !('rootUri' in argument) ? (argument as { confirm?: unknown; pin?: unknown }) : {};
  return vscode.commands.executeCommand(Commands.deployWorkspace, {
    folders: [repository.rootUri],
    ref: hostBranch,
    deploymentType: 'dev',
    name: branchDeploymentName(repositoryName, hostBranch),
    confirm: options.confirm,
    pin: options.pin,
  });
}

/** The SCM view's repository when the command came from there; else the workspace's, picked when there are several. */
async function pickRepository(api: GitApi, argument: unknown): Promise<GitRepository | undefined> {
  const root = (argument as { rootUri?: unknown } | undefined)?.rootUri;
  if (root instanceof vscode.Uri) return repositoryOf(api, root);
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri);
  const repositories = await workspaceRepositories(api, folders);
  if (repositories.length === 0) throw new Error(vscode.l10n.t('No git repository is open in this workspace: open the folder of the repository to deploy.'));
  if (repositories.length === 1) return repositories[0];
  const picked = await vscode.window.showQuickPick(
    repositories.map((repository) => ({
      label: `$(repo) ${path.posix.basename(repository.rootUri.path)}`,
      description: repository.state.HEAD?.name,
      detail: repository.rootUri.fsPath,
      repository,
    })),
    { title: vscode.l10n.t('Deploy This Branch'), placeHolder: vscode.l10n.t('Pick the repository whose branch to deploy') },
  );
  return picked?.repository;
}
