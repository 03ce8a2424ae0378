import * as l10n from '@vscode/l10n';
import type { IndexedDeployment } from './deploymentIndex';
import { normaliseDeploymentName } from './createPayload';
import { normaliseRemoteUrl } from './remoteUrls';
import { formatCount } from './viewText';

/**
 * What `source_revision_config.repo_ref` names: `refs/heads/x` and `x` are the same branch; a full
 * SHA is a commit (`name` lower case); `other` is any other `refs/…` as written.
 */
export type DeployedRef = { kind: 'branch' | 'tag' | 'commit' | 'other'; name: string } | { kind: 'none' };

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
/**
 * A commit as git names it, in full or abbreviated. The deployed commit is the server's text and goes to git as a
 * revision argument: anything else (`--output=…` reads as an option of `git show`) is never handed over.
 */
const OBJECT_NAME = /^[0-9a-f]{4,64}$/i;

export function parseRef(ref: string | undefined): DeployedRef {
  const value = ref?.trim();
  if (!value) return { kind: 'none' };
  if (value.startsWith('refs/heads/')) return { kind: 'branch', name: value.slice('refs/heads/'.length) };
  if (value.startsWith('refs/tags/')) return { kind: 'tag', name: value.slice('refs/tags/'.length) };
  if (FULL_SHA.test(value)) return { kind: 'commit', name: value.toLowerCase() };
  if (value.startsWith('refs/')) return { kind: 'other', name: value };
  return { kind: 'branch', name: value };
}

/** How a ref group is labelled: the branch or tag name, a short SHA, the ref as written. */
export function refLabel(ref: DeployedRef): string {
  if (ref.kind === 'none') return l10n.t('(no ref recorded)');
  return ref.kind === 'commit' ? ref.name.slice(0, 8) : ref.name;
}

const KIND_ORDER: ReadonlyArray<DeployedRef['kind']> = ['branch', 'tag', 'commit', 'other', 'none'];

/**
 * Deployments grouped by the ref they deploy (`refOf`: as the clone reads it, see refInClone): the checked-out
 * branch first, then branches, tags, commits and other refs, each by name; in a group, deployments by name.
 */
export function groupByRef(
  deployments: readonly IndexedDeployment[],
  checkedOut?: string,
  refOf = (deployment: IndexedDeployment) => parseRef(deployment.ref),
): Array<{ ref: DeployedRef; key: string; deployments: IndexedDeployment[] }> {
  const groups = new Map<string, { ref: DeployedRef; key: string; deployments: IndexedDeployment[] }>();
  for (const deployment of deployments) {
    const ref = refOf(deployment);
    // One key per ref, whatever way it was written.
    const key = ref.kind === 'none' ? 'none' : `${ref.kind}:${ref.name}`;
    const group = groups.get(key);
    if (group) group.deployments.push(deployment);
    else groups.set(key, { ref, key, deployments: [deployment] });
  }
  const { compare } = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  const rank = (ref: DeployedRef) => (ref.kind === 'branch' && ref.name === checkedOut ? -1 : KIND_ORDER.indexOf(ref.kind));
  const sorted = [...groups.values()].sort((a, b) => rank(a.ref) - rank(b.ref) || compare(refLabel(a.ref), refLabel(b.ref)));
  for (const group of sorted) group.deployments.sort((a, b) => compare(a.name ?? a.id, b.name ?? b.id));
  return sorted;
}

/** A commit as the view lists it (what the git extension answers of one). */
export interface CommitSummary {
  readonly hash: string;
  readonly message: string;
  readonly authorName?: string;
  readonly authorDate?: Date;
}

/** What a clone can say about commits: the parts of the git extension's repository used here. */
export interface CommitGraph {
  /** The commit `revision` names; undefined when the clone does not have it; rejects when git fails otherwise. */
  resolve(revision: string): Promise<string | undefined>;
  mergeBase(a: string, b: string): Promise<string | undefined>;
  /** Commits in `from..to`, newest first, at most `max`. */
  commitsBetween(from: string, to: string, max: number): Promise<CommitSummary[]>;
}

/** How many commits not yet deployed the view lists under a deployment. */
const LISTED_COMMITS = 50;
/** Counted up to this many; beyond, "more than". */
const COUNTED_COMMITS = 1000;

/**
 * The deployed commit against the local one:
 * - `noCommit`: the record has no `repo_commit_sha`;
 * - `notInClone`: this clone does not have the deployed commit (a fetch may bring it);
 * - `noLocalRef`: this clone has no such branch or tag (`against` is what was looked for);
 * - `upToDate`: the same commit;
 * - `behind`: the deployed commit is an ancestor of the local one (`commits`: the first of those not deployed);
 * - `ahead`: the local one is an ancestor of the deployed one (pull to see them);
 * - `diverged`: neither is an ancestor of the other;
 * - `failed`: git failed while comparing (the caller logs why).
 */
export type CommitState =
  | { kind: 'noCommit' }
  | { kind: 'failed' }
  | { kind: 'notInClone'; deployed: string }
  | { kind: 'noLocalRef'; against: string }
  | { kind: 'upToDate'; against: string }
  | { kind: 'behind'; against: string; count: number; more: boolean; commits: CommitSummary[] }
  | { kind: 'ahead'; against: string; count: number; more: boolean }
  | { kind: 'diverged'; against: string };

/**
 * `repo_ref` as this clone reads it, with the commit it names here (`local`) and the name to compare against: the
 * local branch or tag; for a branch only on the remote, the remote-tracking branch of `remote`; for a bare name
 * (no `refs/`) that is no branch, the tag of that name, as the code host resolves it.
 */
export async function refInClone(
  written: string | undefined,
  graph: CommitGraph,
  remote?: string,
): Promise<{ ref: DeployedRef; local?: string; against: string }> {
  const ref = parseRef(written);
  if (ref.kind === 'none') return { ref, against: refLabel(ref) };
  const local = await graph.resolve(ref.kind === 'branch' ? `refs/heads/${ref.name}` : ref.kind === 'tag' ? `refs/tags/${ref.name}` : ref.name);
  if (local || ref.kind !== 'branch') return { ref, local, against: refLabel(ref) };
  const tracking = remote === undefined ? undefined : await graph.resolve(`refs/remotes/${remote}/${ref.name}`);
  if (tracking) return { ref, local: tracking, against: `${remote}/${ref.name}` };
  const tag = written!.trim().startsWith('refs/') ? undefined : await graph.resolve(`refs/tags/${ref.name}`);
  return tag ? { ref: { kind: 'tag', name: ref.name }, local: tag, against: ref.name } : { ref, against: ref.name };
}

/**
 * Compares `deployment`'s commit with what its ref names in the clone (refInClone). Rejects when git fails
 * otherwise than by a missing object.
 */
export async function compareDeployedCommit(deployment: Pick<IndexedDeployment, 'ref' | 'commit'>, graph: CommitGraph, remote?: string): Promise<CommitState> {
  const deployedSha = deployment.commit;
  if (!deployedSha) return { kind: 'noCommit' };
  const deployed = OBJECT_NAME.test(deployedSha) ? await graph.resolve(deployedSha) : undefined;
  if (!deployed) return { kind: 'notInClone', deployed: deployedSha };
  const { local, against } = await refInClone(deployment.ref, graph, remote);
  if (!local) return { kind: 'noLocalRef', against };
  if (local === deployed) return { kind: 'upToDate', against };
  const base = await graph.mergeBase(deployed, local);
  if (base !== deployed && base !== local) return { kind: 'diverged', against };
  const behind = base === deployed;
  const [from, to] = behind ? [deployed, local] : [local, deployed];
  const commits = await graph.commitsBetween(from, to, COUNTED_COMMITS + 1);
  const counted = { against, count: Math.min(commits.length, COUNTED_COMMITS), more: commits.length > COUNTED_COMMITS };
  return behind ? { kind: 'behind', ...counted, commits: commits.slice(0, LISTED_COMMITS) } : { kind: 'ahead', ...counted };
}

/** The state in a few words for a row's description. */
export function commitStateWords(state: CommitState, locale?: string): string {
  const count = (n: number, more: boolean) => (more ? l10n.t('more than {0}', formatCount(n, locale)) : formatCount(n, locale));
  switch (state.kind) {
    case 'noCommit':
      return l10n.t('no commit recorded');
    case 'notInClone':
      return l10n.t('deployed commit not in your clone');
    case 'failed':
      return l10n.t('could not compare the commits');
    case 'noLocalRef':
      return l10n.t('{0} not in your clone', state.against);
    case 'upToDate':
      return l10n.t('up to date');
    case 'behind':
      return state.count === 1 && !state.more
        ? l10n.t('1 commit behind {0}', state.against)
        : l10n.t('{0} commits behind {1}', count(state.count, state.more), state.against);
    case 'ahead':
      return state.count === 1 && !state.more
        ? l10n.t('1 commit ahead of your {0}', state.against)
        : l10n.t('{0} commits ahead of your {1}', count(state.count, state.more), state.against);
    case 'diverged':
      return l10n.t('not on your {0}', state.against);
  }
}

/** What to do about a state, for a row's tooltip; undefined when nothing is to be done. */
export function commitStateHint(state: CommitState): string | undefined {
  switch (state.kind) {
    case 'notInClone':
      return l10n.t('The deployed commit {0} is not in this clone: fetch from the remote (Git: Fetch) and refresh.', state.deployed.slice(0, 12));
    case 'noLocalRef':
      return l10n.t('This clone has no {0}: fetch it, or check it out, to compare.', state.against);
    case 'ahead':
      return l10n.t('The deployed commit is newer than your {0}: pull to see it.', state.against);
    case 'diverged':
      return l10n.t('The deployed commit is not an ancestor of your {0}, nor your {0} of it.', state.against);
    case 'noCommit':
      return l10n.t('The control plane recorded no commit for this deployment.');
    case 'failed':
      return l10n.t('Git failed while comparing the deployed commit with your clone (the Deployments Explorer log says why): refresh to try again.');
    default:
      return undefined;
  }
}

/** A deployment name for `branch` of `repository` that passes the contract's name rules: `shop-feature-login`. */
export function branchDeploymentName(repository: string, branch: string): string {
  return normaliseDeploymentName(`${repository}-${branch}`) || normaliseDeploymentName(branch) || 'branch-deployment';
}

/**
 * The code host's page of a commit of the repository at `repositoryUrl` (ssh and scp-like URLs
 * become https): `/commit/<hash>` as GitHub, GitLab, Gitea and Azure DevOps have it, Bitbucket's
 * `/commits/<hash>`; undefined when the URL names no host.
 */
export function commitWebUrl(repositoryUrl: string, hash: string): string | undefined {
  const remote = normaliseRemoteUrl(repositoryUrl);
  if (!remote) return undefined;
  const scheme = /^http:\/\//i.test(repositoryUrl.trim()) ? 'http' : 'https';
  const base = `${scheme}://${remote.host}/${remote.path}`;
  return /(^|\.)bitbucket\./i.test(remote.host) ? `${base}/commits/${hash}` : `${base}/commit/${hash}`;
}
