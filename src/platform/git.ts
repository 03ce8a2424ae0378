import * as path from 'node:path';
import vscode = require('vscode');
import { messageOf } from '../api/errors';
import type { GitRemote } from '../model/remoteUrls';
import type { CommitGraph, CommitSummary } from '../model/workspaceDeployments';

/**
 * The built-in git extension's API (v1), typed for what this extension uses of it: Deploy This
 * Workspace (remotes) and This Workspace (branches, commits, push). No `git` process of our own.
 */

export interface GitBranch {
  readonly name?: string;
  readonly commit?: string;
  readonly upstream?: { readonly remote: string; readonly name: string };
  readonly ahead?: number;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: {
    readonly HEAD: GitBranch | undefined;
    readonly remotes: ReadonlyArray<{ readonly name: string; readonly fetchUrl?: string; readonly pushUrl?: string }>;
    readonly onDidChange: vscode.Event<void>;
  };
  /** Rejects when the clone does not have the object. */
  getCommit(ref: string): Promise<CommitSummary>;
  getMergeBase(ref1: string, ref2: string): Promise<string | undefined>;
  /** With `range`, every commit of the range (the extension ignores `maxEntries` then). */
  log(options?: { range?: string; maxEntries?: number }): Promise<CommitSummary[]>;
  push(remoteName?: string, branchName?: string, setUpstream?: boolean): Promise<void>;
  /** Reads HEAD, branches and remotes from the disk again. */
  status(): Promise<void>;
}

export interface GitApi {
  readonly repositories: readonly GitRepository[];
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  readonly onDidCloseRepository: vscode.Event<GitRepository>;
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}

interface GitExtension {
  readonly enabled: boolean;
  readonly onDidChangeEnablement: vscode.Event<boolean>;
  getAPI(version: 1): GitApi;
}

/** The git extension's exports, activated if needed; undefined when it is not installed. */
async function gitExtension(): Promise<GitExtension | undefined> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return undefined;
  return extension.isActive ? extension.exports : await withTimeout(extension.activate());
}

/** The git API; undefined when the git extension is missing or disabled (`git.enabled`). */
export async function gitApi(): Promise<GitApi | undefined> {
  const exports = await gitExtension();
  if (!exports || exports.enabled === false) return undefined;
  return exports.getAPI(1);
}

/** Calls `listener` when git is enabled or disabled, and when a repository opens, closes or changes (HEAD, remotes, refs). */
export async function onGitChange(listener: () => void): Promise<vscode.Disposable> {
  const exports = await gitExtension().catch(() => undefined);
  if (!exports) return new vscode.Disposable(() => undefined);
  let subscriptions: vscode.Disposable[] = [];
  // Again on each of these changes: a disabled extension has no API, an enabled one a new one, and the repositories change.
  const attach = () => {
    vscode.Disposable.from(...subscriptions).dispose();
    const api = exports.enabled === false ? undefined : exports.getAPI(1);
    subscriptions = (api?.repositories ?? []).map((repository) => repository.state.onDidChange(listener));
    if (api) subscriptions.push(api.onDidOpenRepository(changed), api.onDidCloseRepository(changed));
  };
  const changed = () => {
    attach();
    listener();
  };
  attach();
  const enablement = exports.onDidChangeEnablement(changed);
  return new vscode.Disposable(() => vscode.Disposable.from(enablement, ...subscriptions).dispose());
}

/** The repository `folder` is in (or is the root of): one the extension knows, or opened for it; undefined when none. */
export async function repositoryOf(api: GitApi, folder: vscode.Uri): Promise<GitRepository | undefined> {
  const known = api.repositories
    .filter((candidate) => isInside(folder, candidate.rootUri))
    .sort((a, b) => b.rootUri.path.length - a.rootUri.path.length)[0];
  const repository = known ?? (api.openRepository ? await withTimeout(api.openRepository(folder)).catch(() => null) : null) ?? undefined;
  return repository && withState(repository);
}

/**
 * The repositories of the workspace folders: each folder's own, and those the git extension found
 * inside them; each once (the API hands out a new object for a repository on every call).
 */
export async function workspaceRepositories(api: GitApi, folders: readonly vscode.Uri[]): Promise<GitRepository[]> {
  const found = new Map<string, GitRepository>();
  const add = (repository: GitRepository) => found.set(repository.rootUri.toString(), found.get(repository.rootUri.toString()) ?? repository);
  for (const folder of folders) {
    const own = await repositoryOf(api, folder);
    if (own) add(own);
    for (const repository of api.repositories) if (isInside(repository.rootUri, folder)) add(await withState(repository));
  }
  return [...found.values()];
}

/**
 * The repository with its state read: the git extension hands out a repository it has just opened
 * (at window start, or for `openRepository`) before its first `git status`, with no HEAD and no remotes yet.
 */
async function withState(repository: GitRepository): Promise<GitRepository> {
  if (!repository.state.HEAD) await withTimeout(repository.status()).catch(() => undefined);
  return repository;
}

/** A repository's remotes, one entry per distinct fetch and push URL. */
export function remotesOf(repository: GitRepository): GitRemote[] {
  return repository.state.remotes.flatMap((remote) =>
    [...new Set([remote.fetchUrl, remote.pushUrl])].flatMap((url) => (url ? [{ name: remote.name, url }] : [])),
  );
}

/** What This Workspace asks of a repository's commits, through the git extension; each question is asked once. */
export function commitGraph(repository: GitRepository): CommitGraph {
  const answers = new Map<string, Promise<unknown>>();
  const once = <T>(question: string, ask: () => Promise<T>) => (answers.get(question) ?? answers.set(question, ask()).get(question)) as Promise<T>;
  return {
    // `^{commit}` peels an annotated tag to its commit, whose hash is what deployments record.
    resolve: (revision) => once(revision, () => repository.getCommit(`${revision}^{commit}`).then((commit) => commit.hash, missingObject)),
    mergeBase: (a, b) => once(`${a}...${b}`, () => repository.getMergeBase(a, b).catch(() => undefined)),
    commitsBetween: (from, to, max) =>
      once(`${from}..${to} ${max}`, async () => (await repository.log({ range: `${from}..${to}`, maxEntries: max })).slice(0, max)),
  };
}

/** A revision git does not know ("bad revision …") is not in the clone; any other failure of git is thrown on. */
function missingObject(error: unknown): undefined {
  if (/bad revision|unknown revision|not a valid (object|commit) name|bad object/i.test(gitStderr(error))) return undefined;
  throw gitError(error);
}

/** The repository's HEAD, branches and remotes read from the disk again; when git fails, an error with what it said. */
export async function readState(repository: GitRepository): Promise<void> {
  await repository.status().catch((error: unknown) => {
    const folder = path.posix.basename(repository.rootUri.path);
    throw new Error(vscode.l10n.t('Git could not read the state of {0} ({1}). See the Git output (Git: Show Git Output), and try again once git works there.', folder, messageOf(gitError(error))), {
      cause: error,
    });
  });
}

/** The git extension's message is "Failed to execute git": what git said is in stderr. */
function gitError(error: unknown): unknown {
  const stderr = gitStderr(error);
  return stderr ? new Error(stderr, { cause: error }) : error;
}

function gitStderr(error: unknown): string {
  return String((error as { stderr?: unknown })?.stderr ?? '').trim();
}

function isInside(inner: vscode.Uri, outer: vscode.Uri): boolean {
  const relative = path.posix.relative(outer.path, inner.path);
  return inner.scheme === outer.scheme && !relative.startsWith('..') && !path.posix.isAbsolute(relative);
}

function withTimeout<T>(promise: Thenable<T>): Promise<T> {
  const ms = 5000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(vscode.l10n.t('The Git extension did not answer within {0} s: try again, or reload the window if it stays so.', ms / 1000))), ms);
  });
  return Promise.resolve(Promise.race([promise, timeout])).finally(() => clearTimeout(timer));
}
