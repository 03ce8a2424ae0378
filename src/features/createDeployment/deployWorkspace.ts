import { setTimeout as sleep } from 'node:timers/promises';
import vscode = require('vscode');
import { type Deployment, type Repository } from '../../api';
import { messageOf } from '../../api/errors';
import { sentence } from '../../api/text';
import { isPlainObject } from '../../model/jsonValues';
import { readCreateArgument } from '../../model/createArguments';
import { matchRemotes, redactUserInfo, remoteLabel } from '../../model/remoteUrls';
import { FolderRemote, readWorkspaceRemotes } from './workspaceRemotes';
import { Services, WatchFeature } from '../../platform/services';
import { isLabelFromFacts } from '../../model/integrationPresentation';
import { shortId } from '../../model/ids';
import { isCancellation } from '../../platform/commandRunner';
import { Commands } from '../../platform/commandIds';
import { CreateFlowDependencies, runCreateFlow } from './createFlow';
import { headline } from '../../model/viewText';

/**
 * "Deploy This Workspace…": the repository record behind the workspace (the folders' git remotes,
 * normalised, against the repositories of every known integration, loading the ones not cached yet;
 * with several matches the user picks), then the create flow for it. Scripts and tests may name the
 * folders and pre-set the flow's values: `{ folders, name?, ref?, deploymentType?, confirm?, pin? }`.
 */
export async function deployThisWorkspace(deps: CreateFlowDependencies, argument: unknown) {
  const { services, watch } = deps;
  const options = isPlainObject(argument) ? argument : {};
  const folders = Array.isArray(options.folders)
    ? options.folders.map((folder) => (folder instanceof vscode.Uri ? folder : vscode.Uri.file(String(folder))))
    : undefined;
  const remotes = await readWorkspaceRemotes(folders, services.log);
  services.log.info(`Deploy This Workspace: remotes ${remotes.map((remote) => `${remote.name}=${redactUserInfo(remote.url)}`).join(', ') || '(none)'}`);
  const integrations = services.catalog.integrations();
  if (remotes.length === 0 || integrations.length === 0) {
    void reportNoMatch(remotes, 0, []);
    return { outcome: 'noMatch' as const, remotes };
  }

  const failed: string[] = [];
  const search = async (signal?: AbortSignal, progress?: vscode.Progress<{ message?: string }>) => {
    let all: Repository[] = [];
    for (const integration of integrations) {
      const name = services.catalog.label(integration);
      if (!services.catalog.cached(integration.id)) progress?.report({ message: vscode.l10n.t('loading the repositories of {0}', name) });
      try {
        // concat, not push(...): an integration may hold more repositories than a call can take as arguments.
        all = all.concat(await services.catalog.repositories(integration.id, signal));
      } catch (error) {
        if (isCancellation(error) || signal?.aborted) throw error;
        // One broken integration must not hide a match in another.
        failed.push(`${name}: ${headline(messageOf(error))}`);
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
  if (!repositories) return { outcome: 'cancelled' as const, step: 'match' };
  const matches = matchRemotes(remotes, repositories);
  if (matches.length === 0) {
    void reportNoMatch(remotes, integrations.length, failed);
    return { outcome: 'noMatch' as const, remotes };
  }
  let [picked] = matches;
  if (matches.length > 1) {
    // The pick must not open under the "Looking for…" notification: VS Code keeps a progress notification up at least
    // 800 ms (the minimum of `withProgress` without a delay, which the extension API cannot set), then fades it in 150 ms.
    if (needsLoading) await sleep(Math.max(0, progressShownAt + 950 - Date.now()));
    const item = await vscode.window.showQuickPick(
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
    if (!item) return { outcome: 'cancelled' as const, step: 'match' };
    picked = item.match;
  }

  services.log.info(`Deploy This Workspace: ${picked.repository.url} matches remote ${picked.remotes.map((remote) => remote.name).join(', ')}`);
  const result = await runCreateFlow(deps, readCreateArgument({ ...options, folders: undefined, repository: picked.repository }));
  if (result.outcome === 'created' && watch) void offerPin(watch, result.deployment, options.pin);
  return result;
}

/** This workspace's app: offer to keep it in the status bar (`pin: true`/`false` answer for the user). */
async function offerPin(watch: WatchFeature, deployment: Deployment, preset: unknown): Promise<void> {
  if (typeof deployment.id !== 'string' || preset === false) return;
  const pin = vscode.l10n.t('Pin to Status Bar');
  const question = vscode.l10n.t('Keep “{0}” in the status bar of this workspace?', deployment.name ?? deployment.id);
  if (preset === true || (await vscode.window.showInformationMessage(question, pin)) === pin) watch.pin(deployment);
}

/** The integration as the tree names it, with its short ID when the name is made up from what is known. */
function integrationName(services: Services, integrationId: string): string {
  const integration = services.catalog.find(integrationId) ?? { id: integrationId };
  const name = services.catalog.label(integration);
  return isLabelFromFacts(integration, services.catalog.facts(integrationId)) ? `${name} (${shortId(integrationId)})` : name;
}

/** Says which remotes were tried (`searched`: in how many integrations; `failed`: those that could not be) and what to do next. */
async function reportNoMatch(remotes: readonly FolderRemote[], searched: number, failed: readonly string[]): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  let message: string;
  if (folders.length === 0) {
    message = vscode.l10n.t('Open a folder that is a git repository to deploy it.');
  } else if (remotes.length === 0) {
    message = vscode.l10n.t(
      'No git remote found in {0}. Add a remote (git remote add origin …) or pick a repository with “Create Deployment…”.',
      folders.map((folder) => folder.name).join(', '),
    );
  } else if (searched === 0) {
    message = vscode.l10n.t(
      'No code-host integrations are known, so the remotes {0} could not be matched. Add the integration of this repository.',
      describeRemotes(remotes),
    );
  } else {
    const tried = describeRemotes(remotes);
    // Count only the integrations whose repositories were looked at: the others are named as not searched.
    const looked = searched - failed.length;
    // Each reason is the server's sentence: the list ends with one full stop, not a second.
    const notSearched = sentence(failed.join('; '));
    if (looked === 0) {
      message =
        searched === 1
          ? vscode.l10n.t('The known integration could not be searched for the remotes {0}: {1}', tried, notSearched)
          : vscode.l10n.t('None of the {0} known integrations could be searched for the remotes {1}: {2}', searched, tried, notSearched);
    } else if (failed.length > 0) {
      const noMatch =
        looked === 1
          ? vscode.l10n.t('No repository of the 1 integration searched matches the remotes {0}.', tried)
          : vscode.l10n.t('No repository of the {0} integrations searched matches the remotes {1}.', looked, tried);
      message = `${noMatch} ${vscode.l10n.t('Not searched: {0}', notSearched)}`;
    } else {
      const noMatch =
        searched === 1
          ? vscode.l10n.t('No repository of the {0} known integration matches the remotes {1}.', searched, tried)
          : vscode.l10n.t('No repository of the {0} known integrations matches the remotes {1}.', searched, tried);
      message = `${noMatch} ${vscode.l10n.t('Add the integration of this repository, or pick one with “Create Deployment…”.')}`;
    }
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
