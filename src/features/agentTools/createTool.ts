import * as path from 'node:path';
import vscode = require('vscode');
import type { Deployment, DeploymentType, Repository } from '../../api';
import { isControlPlaneError, messageOf } from '../../api/errors';
import { buildCreateBody, JsonObject, normaliseDeploymentName, validateDeploymentName, validateRef } from '../../model/createPayload';
import { DeploymentIndex } from '../../model/deploymentIndex';
import { maskSecrets } from '../../model/deploymentDetails';
import { matchRemotes, normaliseRemoteUrl, remoteKey, remoteLabel } from '../../model/remoteUrls';
import { branchDeploymentName, parseRef } from '../../model/workspaceDeployments';
import { gitApi, readState, remotesOf, workspaceRepositories } from '../../platform/git';
import type { AgentToolDependencies } from './index';
import type { CreateDeploymentInput } from './toolInputs';
import { readInput, readyTarget, signalOf, Target } from './toolSupport';
import { commandName, errorText, jsonBlock, textResult, ToolRefusal } from './toolText';

export const CREATE_TOOL = 'deploymentsExplorer_createDeployment';

/** What the user is asked to confirm, and exactly what is sent once they do. */
interface Plan {
  target: Target;
  body: JsonObject;
  name: string;
  warnings: string[];
}

/**
 * "Create a deployment": the body is built as the create flow builds it (buildCreateBody, over the defaults setting),
 * shown whole with where it goes in VS Code's confirmation, and sent only once the user confirms; the deployment
 * created is followed as after Create. A call whose preparation failed sends nothing and says why.
 */
export function createDeploymentTool(deps: AgentToolDependencies): vscode.LanguageModelTool<unknown> {
  const { services, deployments, watch } = deps;
  /** Prepared calls by their input, until invoked: the plan confirmed, or why there is none. */
  const prepared = new Map<string, Plan | { refusal: string }>();

  return {
    async prepareInvocation(options, token) {
      const key = JSON.stringify(options.input ?? {});
      try {
        const plan = await planCreate(deps, options.input, token);
        prepared.set(key, plan);
        const title = vscode.l10n.t('Create deployment “{0}”?', plan.name);
        const message = new vscode.MarkdownString();
        const where = `${plan.target.baseUrl.replace(/\/+$/, '')}/v2/deployments`;
        message.appendMarkdown(vscode.l10n.t('POST {0}', where)).appendMarkdown('\n\n');
        // What the user should know comes before the body (after a code block VS Code's plain text loses the break).
        for (const warning of plan.warnings) message.appendMarkdown(`⚠ ${warning}\n\n`);
        // Markdown, not appendText: outside a chat VS Code shows the message as plain text, where appendText's escapes would show.
        message.appendMarkdown(
          plan.target.tenantId
            ? vscode.l10n.t('Profile “{0}”, tenant {1}. This body is sent:', plan.target.profile, plan.target.tenantId)
            : vscode.l10n.t('Profile “{0}”. This body is sent:', plan.target.profile),
        );
        // Secret values from the defaults setting are masked here as everywhere else; the rest is the body as sent.
        message.appendCodeblock(JSON.stringify(maskSecrets(plan.body), null, 2), 'json');
        return { invocationMessage: vscode.l10n.t('Creating deployment “{0}”', plan.name), confirmationMessages: { title, message } };
      } catch (error) {
        // No confirmation: nothing is to be sent, and invoke answers why.
        prepared.set(key, { refusal: errorText(error) });
        return { invocationMessage: vscode.l10n.t('Preparing a deployment') };
      }
    },

    async invoke(options, token) {
      const key = JSON.stringify(options.input ?? {});
      const plan = prepared.get(key);
      prepared.delete(key);
      if (!plan) return textResult(vscode.l10n.t('Nothing was sent: this call was not prepared and confirmed. Call the tool again.'));
      if ('refusal' in plan) return textResult(plan.refusal);
      // A body prepared for one profile (its integration, its defaults) is never sent to another.
      const now = await readyTarget(services);
      if (now.plane !== plan.target.plane || now.profileId !== plan.target.profileId) {
        return textResult(vscode.l10n.t('Nothing was sent: the active profile or control plane changed after the user confirmed. Call the tool again.'));
      }
      let deployment: Deployment;
      try {
        const client = await services.connection.getClient();
        deployment = await client.createDeployment(plan.body, { signal: signalOf(token) });
      } catch (error) {
        services.log.warn(`Agent tool ${CREATE_TOOL}: “${plan.name}” not created: ${messageOf(error)}`);
        if (token.isCancellationRequested) {
          return textResult(
            vscode.l10n.t('Stopped waiting for the control plane: “{0}” may still be created. List deployments named “{0}” before creating it again.', plan.name),
          );
        }
        // A success status without a readable record: the request took effect.
        if (isControlPlaneError(error) && (error.kind === 'schema' || (error.status !== undefined && error.status >= 200 && error.status < 300))) {
          return textResult(
            vscode.l10n.t('The control plane accepted “{0}”, but its answer could not be read ({1}). List deployments named “{0}” before creating it again.', plan.name, messageOf(error)),
          );
        }
        return textResult(vscode.l10n.t('“{0}” was not created: {1}', plan.name, errorText(error)));
      }
      services.log.info(`Agent tool ${CREATE_TOOL}: created deployment ${deployment.name ?? plan.name} (${deployment.id ?? 'no id in the answer'})`);
      // Followed as after Create: in the index, watched until it settles, and in the Deployments view.
      services.deploymentIndex.current().update([deployment]);
      watch.watchCreated(deployment);
      void deployments.refresh().catch((error) => services.log.warn(`The Deployments view could not show the new deployment: ${messageOf(error)}`));
      return textResult(
        vscode.l10n.t(
          'Created deployment “{0}” ({1}). It is watched until it settles: the user is told then. Read it again with the get deployments tool.',
          deployment.name ?? plan.name,
          deployment.id ?? vscode.l10n.t('no ID in the answer'),
        ),
        jsonBlock(maskSecrets(deployment)),
      );
    },
  };
}

/** The repository, the values and the body of a create, and what the user should know before saying yes. */
async function planCreate({ services }: AgentToolDependencies, rawInput: unknown, token: vscode.CancellationToken): Promise<Plan> {
  const input = readInput<CreateDeploymentInput>(CREATE_TOOL, rawInput);
  const target = await readyTarget(services);
  const signal = signalOf(token);
  const warnings: string[] = [];
  let repository: Repository;
  let defaults: { name: string; ref: string; type?: DeploymentType };
  if (input.from_workspace_branch) {
    const branch = await workspaceBranch(services, input, signal);
    repository = branch.repository;
    defaults = { name: branchDeploymentName(branch.repositoryName, branch.hostBranch), ref: branch.hostBranch, type: 'dev' };
    // The control plane builds from the code host: what is not pushed would not be deployed.
    if (!branch.upstream) warnings.push(vscode.l10n.t('The branch {0} is not on the code host yet (it has no upstream): push it before deploying.', branch.branch));
    else if (branch.ahead === 1) warnings.push(vscode.l10n.t('{0} has 1 commit the code host does not have: it would not be deployed.', branch.branch));
    else if (branch.ahead > 1) warnings.push(vscode.l10n.t('{0} has {1} commits the code host does not have: they would not be deployed.', branch.branch, branch.ahead));
  } else if (input.integration_id && input.repository_url) {
    repository = await repositoryOf(services, input.integration_id, input.repository_url, signal);
    defaults = { name: normaliseDeploymentName(repository.name), ref: repository.default_branch };
  } else {
    throw new ToolRefusal(
      vscode.l10n.t(
        'Say which repository to deploy: from_workspace_branch: true for the branch checked out in the workspace, or integration_id and repository_url (the list repositories tool gives both). Nothing was sent.',
      ),
    );
  }
  const name = input.name ?? defaults.name;
  const ref = input.ref?.trim() ?? defaults.ref;
  const problem = validateDeploymentName(name) ?? validateRef(ref);
  if (problem) throw new ToolRefusal(vscode.l10n.t('Nothing was sent: {0}', problem));
  // The same function as the create flow, over the same defaults setting: what the flow sends, the tool sends.
  const body = buildCreateBody(repository, { name, ref, deploymentType: input.deployment_type ?? defaults.type }, services.connection.profiles.createDefaults());

  const existing = await existingDeployments(services, repository, ref, signal);
  if (existing === undefined) {
    warnings.push(vscode.l10n.t('Whether {0} is deployed already could not be checked.', repository.url));
  } else if (existing.length > 0) {
    warnings.push(
      vscode.l10n.t(
        '{0} at {1} is deployed already: {2}. Create another deployment of it?',
        repository.url,
        ref,
        namesOf(existing),
      ),
    );
  }
  return { target, body, name, warnings };
}

/** “a” (id), “b” (id), “c” (id) and 4 more: a confirmation stays readable however many there are. */
function namesOf(entries: ReadonlyArray<{ id: string; name?: string }>): string {
  const shown = entries.slice(0, 3).map((entry) => `“${entry.name ?? entry.id}” (${entry.id})`).join(', ');
  return entries.length > 3 ? vscode.l10n.t('{0} and {1} more', shown, entries.length - 3) : shown;
}

/** Deployments of the repository at the same ref, from the control plane's index (built first when needed); undefined when it cannot be built. */
async function existingDeployments(
  services: AgentToolDependencies['services'],
  repository: Repository,
  ref: string,
  signal: AbortSignal,
): Promise<ReadonlyArray<{ id: string; name?: string }> | undefined> {
  let index: DeploymentIndex = services.deploymentIndex.current();
  if (!index.built) {
    const stop = () => services.deploymentIndex.stopScan();
    signal.addEventListener('abort', stop);
    index = await services.deploymentIndex.builtIndex().finally(() => signal.removeEventListener('abort', stop));
    if (signal.aborted) throw new vscode.CancellationError();
    if (!index.built) {
      services.log.warn(`Agent tool ${CREATE_TOOL}: existing deployments not checked: ${index.scanState.error ? messageOf(index.scanState.error) : index.scanState.phase}`);
      return undefined;
    }
  }
  const wanted = parseRef(ref);
  return index.ofRemotes([{ name: 'repository', url: repository.url }]).deployments.filter((entry) => {
    const deployed = parseRef(entry.ref);
    return deployed.kind !== 'none' && wanted.kind !== 'none' && deployed.kind === wanted.kind && deployed.name === wanted.name;
  });
}

/** The repository record of `url` in the integration (its listing, cached as the Integrations view caches it). */
async function repositoryOf(services: AgentToolDependencies['services'], integrationId: string, url: string, signal: AbortSignal): Promise<Repository> {
  const repositories = await services.catalog.repositories(integrationId.trim(), signal);
  const wanted = remoteKey(url);
  const found = repositories.find((repository) => repository.url === url.trim()) ?? repositories.find((repository) => wanted && remoteKey(repository.url) === wanted);
  if (!found) {
    throw new ToolRefusal(
      vscode.l10n.t(
        'The integration {0} lists no repository {1} ({2} repositories): use a URL the list repositories tool answers. Nothing was sent.',
        integrationId,
        url,
        repositories.length,
      ),
    );
  }
  return found;
}

/**
 * The checked-out branch of the workspace's git repository, as Deploy This Branch… reads it (the branch as the code
 * host names it, whether it is pushed), and the repository record its remotes name among the known integrations'.
 */
async function workspaceBranch(services: AgentToolDependencies['services'], input: CreateDeploymentInput, signal: AbortSignal) {
  const api = await gitApi();
  if (!api) throw new ToolRefusal(vscode.l10n.t('Deploying the workspace branch needs the Git extension: ask the user to enable it (setting git.enabled).'));
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri);
  const repositories = (await workspaceRepositories(api, folders)).filter((repository) => remotesOf(repository).length > 0);
  if (repositories.length === 0) throw new ToolRefusal(vscode.l10n.t('No git repository with a remote is open in this workspace: there is no branch to deploy.'));
  if (repositories.length > 1) {
    throw new ToolRefusal(
      vscode.l10n.t(
        'This workspace has several git repositories ({0}): ask the user to run {1}, or give integration_id and repository_url.',
        repositories.map((repository) => repository.rootUri.fsPath).join(', '),
        commandName(vscode.l10n.t('Deploy This Branch…')),
      ),
    );
  }
  const [repository] = repositories;
  await readState(repository);
  const folder = path.posix.basename(repository.rootUri.path);
  const head = repository.state.HEAD;
  if (!head?.name) throw new ToolRefusal(vscode.l10n.t('{0} is not on a branch (detached HEAD): ask the user to check out the branch to deploy.', folder));
  const remotes = remotesOf(repository);
  const integrations = services.catalog.integrations().filter((integration) => !input.integration_id || integration.id.toLowerCase() === input.integration_id.toLowerCase());
  let all: Repository[] = [];
  const failed: string[] = [];
  for (const integration of integrations) {
    try {
      // concat, not push(...): an integration may hold more repositories than a call can take as arguments.
      all = all.concat(await services.catalog.repositories(integration.id, signal));
    } catch (error) {
      if (signal.aborted) throw error;
      failed.push(`${services.catalog.label(integration)}: ${messageOf(error).split('\n')[0]}`);
    }
  }
  const matches = matchRemotes(remotes, all).filter((match) => !input.repository_url || remoteKey(match.repository.url) === remoteKey(input.repository_url));
  if (matches.length === 0) {
    const tried = [...new Set(remotes.map(remoteLabel))].join(', ');
    const notSearched = failed.length > 0 ? ` ${vscode.l10n.t('Not searched: {0}.', failed.join('; '))}` : '';
    throw new ToolRefusal(
      integrations.length === 0
        ? vscode.l10n.t('No code-host integration is known, so the remotes {0} match no repository: ask the user to run {1}.', tried, commandName(vscode.l10n.t('Add Integration…')))
        : vscode.l10n.t(
            'No repository of the {0} known integrations matches the remotes {1}: ask the user to add the integration of this repository ({2}).{3}',
            integrations.length,
            tried,
            commandName(vscode.l10n.t('Add Integration…')),
            notSearched,
          ),
    );
  }
  if (matches.length > 1) {
    throw new ToolRefusal(
      vscode.l10n.t(
        'Several repositories match this workspace’s remotes: {0}. Call again with integration_id and repository_url of the one to deploy.',
        matches.map((match) => `${match.repository.url} (integration ${match.repository.host_integration_id})`).join('; '),
      ),
    );
  }
  const match = matches[0];
  const remote = remotes.find((candidate) => candidate.name === 'origin') ?? remotes[0];
  return {
    repository: match.repository,
    repositoryName: normaliseRemoteUrl(remote.url)?.path.split('/').pop() ?? folder,
    branch: head.name,
    hostBranch: head.upstream?.name || head.name,
    upstream: head.upstream,
    ahead: head.ahead ?? 0,
  };
}
