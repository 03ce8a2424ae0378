import vscode = require('vscode');
import type { Deployment, OffContractDeployment, Repository } from '../../api';
import { messageOf } from '../../api/errors';
import { maskSecrets } from '../../model/deploymentDetails';
import { customUrlOf } from '../../model/deploymentPresentation';
import { statusWords } from '../../model/deploymentStatus';
import { problemLine } from '../../model/fieldNames';
import { idKey } from '../../model/ids';
import { commitStateHint, commitStateWords, refLabel } from '../../model/workspaceDeployments';
import { readSettings } from '../../platform/settings';
import type { AgentToolDependencies } from './index';
import type { GetDeploymentsInput, ListDeploymentsInput, ListRepositoriesInput, ToolName } from './toolInputs';
import { readInput, readyTarget, signalOf, targetWords } from './toolSupport';
import { commandName, jsonBlock, textResult } from './toolText';
import { deploymentType } from '../../model/deploymentType';

type Tool = vscode.LanguageModelTool<unknown>;

/** What a model needs of a listed deployment to tell it apart and act on it; no secrets. */
function summary(deployment: Deployment): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    id: deployment.id,
    name: deployment.name,
    status: deployment.status,
    status_in_words: statusWords(deployment.status) || undefined,
    type: deploymentType(deployment),
    // `github` for one built from a repository; one built from an image has no repository, its image instead.
    source: (deployment as Record<string, unknown>).source,
    repository: deployment.source_config?.repo_url,
    image: deployment.source_revision_config?.image_uri,
    ref: deployment.source_revision_config?.repo_ref,
    deployed_commit: deployment.source_revision_config?.repo_commit_sha,
    image_version: deployment.image_version,
    updated_at: deployment.updated_at,
    url: customUrlOf(deployment),
    // A rollout in progress (or one that never became active: see DESIGN.md).
    latest_revision_active:
      deployment.latest_revision_id && deployment.active_revision_id ? deployment.latest_revision_id === deployment.active_revision_id : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null && value !== ''));
}

/** A record off the API contract: what could be read of it, and where it departs (never its content, which may hold secrets). */
function offContract(record: OffContractDeployment): Record<string, unknown> {
  return { position: record.index, id: record.id, name: record.name, problems: record.problems.map(problemLine) };
}

export function readTools({ services, workspace }: AgentToolDependencies): Record<Exclude<ToolName, 'deploymentsExplorer_createDeployment'>, Tool> {
  const listDeployments: Tool = {
    async invoke(options, token) {
      const input = readInput<ListDeploymentsInput>('deploymentsExplorer_listDeployments', options.input);
      const target = await readyTarget(services);
      const client = await services.connection.getClient();
      const query = {
        nameContains: input.name_contains,
        status: input.status,
        remoteReconciled: input.remote_reconciled,
        tagValueIds: input.tag_value_ids,
        imageVersion: input.image_version,
        deploymentType: input.deployment_type,
        deploymentIds: input.deployment_ids,
        limit: input.limit ?? readSettings().pageSize,
        offset: input.offset ?? 0,
      };
      const page = await client.listDeployments(query, { signal: signalOf(token) });
      services.deploymentIndex.current().update(page.deployments, page.offContract);
      const count = page.deployments.length + page.offContract.length;
      const lines = [
        vscode.l10n.t('{0} deployments from offset {1} (limit {2}), {3}.', count, page.requestedOffset, page.limit, targetWords(target)),
        page.mayHaveMore
          ? vscode.l10n.t('There may be more: call again with the same filters and offset {0} (the response offset, passed back as it is).', page.nextOffset)
          : vscode.l10n.t('This is the last page.'),
      ];
      if (page.offContract.length > 0) {
        lines.push(vscode.l10n.t('{0} records do not match the API contract; what could be read of them is under off_contract.', page.offContract.length));
      }
      const records = { deployments: page.deployments.map(summary), next_offset: page.mayHaveMore ? page.nextOffset : null, off_contract: page.offContract.map(offContract) };
      return textResult(lines.join(' '), jsonBlock(records));
    },
  };

  const getDeployments: Tool = {
    async invoke(options, token) {
      const input = readInput<GetDeploymentsInput>('deploymentsExplorer_getDeployments', options.input);
      const target = await readyTarget(services);
      const client = await services.connection.getClient();
      const ids = [...new Map(input.deployment_ids.map((id) => [idKey(id), id])).values()];
      // One request for all of them, as watching does.
      const page = await client.listDeployments({ deploymentIds: ids, limit: ids.length }, { signal: signalOf(token) });
      services.deploymentIndex.current().update(page.deployments, page.offContract);
      const found = new Set([...page.deployments.map((d) => d.id), ...page.offContract.map((d) => d.id)].flatMap((id) => (id ? [idKey(id)] : [])));
      const missing = ids.filter((id) => !found.has(idKey(id)));
      const lines = [vscode.l10n.t('{0} of {1} deployments found, {2}. Secret values are masked.', found.size, ids.length, targetWords(target))];
      if (missing.length > 0) lines.push(vscode.l10n.t('Not found (deleted, or of another tenant or control plane): {0}.', missing.join(', ')));
      const records = { deployments: page.deployments.map((deployment) => maskSecrets(deployment)), not_found: missing, off_contract: page.offContract.map(offContract) };
      return textResult(lines.join(' '), jsonBlock(records));
    },
  };

  const listRepositories: Tool = {
    async invoke(options, token) {
      const input = readInput<ListRepositoriesInput>('deploymentsExplorer_listRepositories', options.input);
      const target = await readyTarget(services);
      const { catalog } = services;
      const signal = signalOf(token);
      const known = catalog.integrations();
      const asked = input.integration_id ? [catalog.find(input.integration_id) ?? { id: input.integration_id.trim(), origin: undefined }] : known;
      const knownWords = known.length
        ? vscode.l10n.t(
            'Known integrations: {0}.',
            known.map((integration) => `${catalog.label(integration)} (${integration.id}, ${originWords(integration.origin)})`).join('; '),
          )
        : vscode.l10n.t(
            'No integration is known: the API cannot list them. Ask the user to run {0} with its ID, or {1}.',
            commandName(vscode.l10n.t('Add Integration…')),
            commandName(vscode.l10n.t('Discover Integrations from Deployments')),
          );
      const limit = input.limit ?? 50;
      const filter = input.name_contains?.trim().toLowerCase();
      const results = [];
      for (const integration of asked) {
        const entry: Record<string, unknown> = { integration_id: integration.id, name: catalog.label(integration), known_because: originWords(integration.origin) };
        try {
          const all = await catalog.repositories(integration.id, signal);
          const matching = filter ? all.filter((repository) => `${repository.owner}/${repository.name} ${repository.url}`.toLowerCase().includes(filter)) : all;
          Object.assign(entry, { total: all.length, matching: matching.length, repositories: matching.slice(0, limit).map(repositoryRecord) });
          const state = catalog.state(integration.id);
          if (state.status === 'loaded' && state.offContract.length > 0) entry.off_contract = state.offContract.map((record) => record.reason);
        } catch (error) {
          if (signal.aborted) throw error;
          entry.error = messageOf(error).split('\n').join(' ');
        }
        results.push(entry);
      }
      const lines = [knownWords, vscode.l10n.t('Repositories {0}; at most {1} per integration are listed (name_contains narrows them).', targetWords(target), limit)];
      return textResult(lines.join(' '), jsonBlock({ integrations: results }));
    },
  };

  const workspaceDeployments: Tool = {
    async invoke(options, token) {
      readInput('deploymentsExplorer_workspaceDeployments', options.input);
      const target = await readyTarget(services);
      const report = await workspace.report(signalOf(token));
      if (report.kind === 'noGit') {
        return textResult(vscode.l10n.t('The Git extension is not available (disabled, or not installed): ask the user to enable it (setting git.enabled) to see what is deployed from this workspace.'));
      }
      if (report.kind === 'noRemotes') {
        return textResult(
          report.folders.length === 0
            ? vscode.l10n.t('No folder is open: open the folder of a git repository to see what is deployed from it.')
            : vscode.l10n.t('No git repository with a remote is open in {0}: the deployments of a repository are found by its remote URL.', report.folders.join(', ')),
        );
      }
      const lines = [vscode.l10n.t('Deployments from this workspace’s repositories, {0}.', targetWords(target))];
      if (report.scan.phase === 'capped') {
        lines.push(vscode.l10n.t('Only the first {0} deployments of the control plane were looked at (setting deploymentsExplorer.workspace.scanLimit); there may be more.', report.scan.looked));
      }
      for (const { folder, remotes } of report.withoutDeployments) {
        lines.push(vscode.l10n.t('No deployment comes from {0} (remotes {1}).', folder, remotes.join(', ')));
      }
      const repositories = report.repositories.map((repository) => ({
        folder: repository.folder,
        checked_out_branch: repository.branch,
        remotes: repository.remotes,
        refs: repository.refs.map((group) => ({
          ref: refLabel(group.ref),
          kind: group.ref.kind,
          checked_out: group.checkedOut || undefined,
          deployments: group.deployments.map(({ deployment, state }) => ({
            id: deployment.id,
            name: deployment.name,
            status: deployment.status,
            type: deployment.type,
            deployed_commit: deployment.commit,
            against_local: commitStateWords(state),
            what_to_do: commitStateHint(state),
            ...(state.kind === 'behind' && {
              commits_not_deployed: state.more ? vscode.l10n.t('more than {0}', state.count) : state.count,
              first_not_deployed: state.commits.slice(0, 5).map((commit) => `${commit.hash.slice(0, 10)} ${commit.message.split('\n')[0]}`),
            }),
            ...(deployment.problems && { off_contract: deployment.problems.map(problemLine) }),
          })),
        })),
      }));
      return textResult(lines.join(' '), jsonBlock({ repositories }));
    },
  };

  return {
    deploymentsExplorer_listDeployments: listDeployments,
    deploymentsExplorer_getDeployments: getDeployments,
    deploymentsExplorer_listRepositories: listRepositories,
    deploymentsExplorer_workspaceDeployments: workspaceDeployments,
  };
}

function originWords(origin: 'added' | 'discovered' | undefined): string {
  if (origin === 'added') return vscode.l10n.t('added by the user in settings');
  if (origin === 'discovered') return vscode.l10n.t('discovered from the integration IDs of deployments');
  return vscode.l10n.t('not known: asked for by ID');
}

function repositoryRecord(repository: Repository): Record<string, unknown> {
  return { owner: repository.owner, name: repository.name, url: repository.url, default_branch: repository.default_branch, id: repository.id };
}
