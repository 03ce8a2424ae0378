import { setTimeout as sleep } from 'node:timers/promises';
import vscode = require('vscode');
import { type Repository } from '../../api';
import { messageOf } from '../../api/errors';
import { matchRemotes, redactUserInfo, remoteLabel } from '../../model/remoteUrls';
import { FolderRemote, readWorkspaceRemotes } from './workspaceRemotes';
import { Services } from '../../platform/services';
import { isLabelFromFacts } from '../../model/integrationPresentation';
import { shortId } from '../../model/ids';
import { isCancellation } from '../../platform/commandRunner';
import { Commands } from '../../platform/commandIds';

export type WorkspaceMatchResult =
  | { status: 'matched'; repository: Repository; remotes: FolderRemote[] }
  | { status: 'none'; remotes: FolderRemote[]; searched: number; failed: string[] }
  | { status: 'cancelled' };

/**
 * Finds the repository record behind the workspace: the folders' git
 * remotes, normalised, against the repositories of every known integration
 * (loading the ones not cached yet). With several matches the user picks.
 */
export async function findWorkspaceRepository(
  services: Services,
  folders?: readonly vscode.Uri[],
): Promise<WorkspaceMatchResult> {
  const remotes = await readWorkspaceRemotes(folders, services.log);
  services.log.info(`Deploy This Workspace: remotes ${remotes.map((remote) => `${remote.name}=${redactUserInfo(remote.url)}`).join(', ') || '(none)'}`);
  const integrations = services.catalog.integrations();
  if (remotes.length === 0 || integrations.length === 0) return { status: 'none', remotes, searched: 0, failed: [] };

  const failed: string[] = [];
  const search = async (signal?: AbortSignal, progress?: vscode.Progress<{ message?: string }>) => {
    const all: Repository[] = [];
    for (const integration of integrations) {
      const name = services.catalog.label(integration);
      if (!services.catalog.cached(integration.id)) progress?.report({ message: vscode.l10n.t('loading the repositories of {0}', name) });
      try {
        all.push(...(await services.catalog.repositories(integration.id, signal)));
      } catch (error) {
        if (isCancellation(error) || signal?.aborted) throw error;
        // One broken integration must not hide a match in another.
        failed.push(`${name}: ${messageOf(error).split('\n')[0]}`);
        services.log.warn(`Deploy This Workspace: ${name} could not be searched: ${messageOf(error)}`);
      }
    }
    return all;
  };
  // Every list cached: nothing to wait for, so no notification to close before the pick.
  const needsLoading = integrations.some((integration) => !services.catalog.cached(integration.id));
  const progressShownAt = Date.now();
  const repositories = await (needsLoading ? services.commands.withProgress(vscode.l10n.t('Looking for this workspace’s repository…'), search) : search()).catch(
    (error: unknown) => {
      if (isCancellation(error)) return undefined;
      throw error;
    },
  );
  if (!repositories) return { status: 'cancelled' };

  const matches = matchRemotes(remotes, repositories);
  if (matches.length === 0) return { status: 'none', remotes, searched: integrations.length, failed };
  if (matches.length === 1) return { status: 'matched', repository: matches[0].repository, remotes: matches[0].remotes };

  // The pick must not open under the "Looking for…" notification: VS Code keeps a progress notification up at least
  // 800 ms (the minimum of `withProgress` without a delay, which the extension API cannot set), then fades it in 150 ms.
  if (needsLoading) await sleep(Math.max(0, progressShownAt + 950 - Date.now()));
  const picked = await vscode.window.showQuickPick(
    matches.map((match) => ({
      label: `$(repo) ${match.repository.owner}/${match.repository.name}`,
      description: vscode.l10n.t('{0} · default branch {1}', integrationName(services, match.repository.host_integration_id), match.repository.default_branch),
      detail: vscode.l10n.t('{0} — remote {1}', match.repository.url, match.remotes.map((remote) => remote.name).join(', ')),
      match,
    })),
    {
      title: vscode.l10n.t('Deploy This Workspace'),
      placeHolder: vscode.l10n.t('Several repositories match this workspace’s remotes: pick one'),
      matchOnDescription: true,
      matchOnDetail: true,
    },
  );
  return picked ? { status: 'matched', repository: picked.match.repository, remotes: picked.match.remotes } : { status: 'cancelled' };
}

/** The integration as the tree names it, with its short ID when the name is made up from what is known. */
function integrationName(services: Services, integrationId: string): string {
  const integration = services.catalog.find(integrationId) ?? { id: integrationId };
  const name = services.catalog.label(integration);
  return isLabelFromFacts(integration, services.catalog.facts(integrationId)) ? `${name} (${shortId(integrationId)})` : name;
}

/** Says which remotes were tried and what to do next. */
export async function reportNoMatch(result: Extract<WorkspaceMatchResult, { status: 'none' }>, services: Services): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  let message: string;
  if (folders.length === 0) {
    message = vscode.l10n.t('Open a folder that is a git repository to deploy it.');
  } else if (result.remotes.length === 0) {
    message = vscode.l10n.t(
      'No git remote found in {0}. Add a remote (git remote add origin …) or pick a repository with “Create Deployment…”.',
      folders.map((folder) => folder.name).join(', '),
    );
  } else if (services.catalog.integrations().length === 0) {
    message = vscode.l10n.t(
      'No code-host integrations are known, so the remotes {0} could not be matched. Add the integration of this repository.',
      describeRemotes(result.remotes),
    );
  } else {
    const remotes = describeRemotes(result.remotes);
    const noMatch =
      result.searched === 1
        ? vscode.l10n.t('No repository of the {0} known integration matches the remotes {1}.', result.searched, remotes)
        : vscode.l10n.t('No repository of the {0} known integrations matches the remotes {1}.', result.searched, remotes);
    const next =
      result.failed.length > 0
        ? vscode.l10n.t('Not searched: {0}.', result.failed.join('; '))
        : vscode.l10n.t('Add the integration of this repository, or pick one with “Create Deployment…”.');
    message = `${noMatch} ${next}`;
  }
  const addIntegration = vscode.l10n.t('Add Integration…');
  const createDeployment = vscode.l10n.t('Create Deployment…');
  const choice = await vscode.window.showWarningMessage(message, addIntegration, createDeployment);
  if (choice === addIntegration) await vscode.commands.executeCommand(Commands.addIntegration);
  else if (choice === createDeployment) await vscode.commands.executeCommand(Commands.createDeployment);
}

function describeRemotes(remotes: readonly FolderRemote[]): string {
  const unique = [...new Set(remotes.map(remoteLabel))];
  const shown = unique.slice(0, 5).join(', ');
  return unique.length > 5 ? vscode.l10n.t('{0} and {1} more', shown, unique.length - 5) : shown;
}
