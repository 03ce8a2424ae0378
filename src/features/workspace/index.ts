import vscode = require('vscode');
import { commitWebUrl } from '../../model/workspaceDeployments';
import { Commands } from '../../platform/commandIds';
import { deploymentReferenceOf, DeploymentsFeature, Services, WorkspaceFeature } from '../../platform/services';
import { deployThisBranch } from './deployBranch';
import { CommitElement, WorkspaceTreeProvider } from './workspaceTree';

/** This Workspace: the deployments of the open repository, their commits against yours, and Deploy This Branch…. */
export function registerWorkspace(services: Services, deployments: DeploymentsFeature): WorkspaceFeature & { provider: WorkspaceTreeProvider } {
  const { commands } = services;
  const provider = new WorkspaceTreeProvider(services);
  services.context.subscriptions.push(provider);

  commands.register(Commands.refreshWorkspace, () => provider.refresh());
  commands.register(Commands.stopWorkspaceScan, () => services.deploymentIndex.stopScan());
  commands.register(Commands.continueWorkspaceScan, () => services.deploymentIndex.scan(false));
  commands.register(Commands.deployBranch, (argument?: unknown) => deployThisBranch(services, provider, argument));

  // A deployment row's details: its row in the Deployments view, which expands to every field.
  commands.register(Commands.revealDeployment, async (argument?: unknown) => {
    const reference = deploymentReferenceOf(argument);
    if (!reference) throw new Error(vscode.l10n.t('Pick a deployment in the This Workspace view first.'));
    await vscode.commands.executeCommand('deploymentsExplorer.deployments.focus');
    const found = await deployments.reveal(reference.deploymentId);
    if (!found) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Deployment {0} is not in the Deployments view with the current filters.', reference.name ?? reference.deploymentId),
      );
    }
    return found;
  });

  // A commit not yet deployed: in the git extension's commit view, or on the code host.
  commands.register(Commands.openCommit, async (argument?: unknown) => {
    const commit = commitOf(argument);
    await vscode.commands.executeCommand('git.viewCommit', commit.parent.parent.parent.repository.rootUri, commit.commit.hash);
    return commit.commit.hash;
  });
  commands.register(Commands.openCommitOnCodeHost, async (argument?: unknown) => {
    const commit = commitOf(argument);
    const url = commitWebUrl(commit.parent.entry.repoUrl ?? '', commit.commit.hash);
    if (!url) throw new Error(vscode.l10n.t('The repository URL of this deployment names no code host.'));
    await vscode.env.openExternal(vscode.Uri.parse(url, true));
    return url;
  });

  return { provider, report: (signal) => provider.report(signal) };
}

function commitOf(argument: unknown): CommitElement {
  if ((argument as CommitElement | undefined)?.kind !== 'commit') throw new Error(vscode.l10n.t('Pick a commit in the This Workspace view first.'));
  return argument as CommitElement;
}
