import * as path from 'node:path';
import vscode = require('vscode');
import { GitRemote, parseGitConfig, parseGitDirFile } from '../../model/remoteUrls';
import { messageOf } from '../../api/errors';

export interface FolderRemote extends GitRemote {
  /** The workspace folder (or repository root) the remote was read from. */
  folder: string;
}

/** The parts of the built-in git extension's API (v1) used here. */
interface GitApi {
  repositories: Array<{ rootUri: vscode.Uri; state: { remotes: Array<{ name: string; fetchUrl?: string; pushUrl?: string }> } }>;
  openRepository?(root: vscode.Uri): Promise<GitApi['repositories'][number] | null>;
}

const GIT_API_TIMEOUT_MS = 5000;

/**
 * The git remotes of the given folders: from VS Code's git extension when it
 * is there and enabled (it knows repositories above the folder and
 * worktrees), and from `.git/config` in any case, so a disabled git extension
 * or a missing git binary still works.
 */
export async function readWorkspaceRemotes(
  folders: readonly vscode.Uri[] = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri),
  log?: vscode.LogOutputChannel,
): Promise<FolderRemote[]> {
  const found: FolderRemote[] = [];
  const add = (remote: FolderRemote): void => {
    if (!found.some((known) => known.folder === remote.folder && known.name === remote.name && known.url === remote.url)) found.push(remote);
  };
  for (const folder of folders) {
    for (const remote of await readGitConfigRemotes(folder, log)) add(remote);
  }
  for (const remote of await readGitExtensionRemotes(folders, log)) add(remote);
  return found;
}

async function readGitConfigRemotes(folder: vscode.Uri, log?: vscode.LogOutputChannel): Promise<FolderRemote[]> {
  const dotGit = vscode.Uri.joinPath(folder, '.git');
  try {
    let gitDir = dotGit;
    const stat = await vscode.workspace.fs.stat(dotGit);
    if (stat.type & vscode.FileType.File) {
      // Worktree or submodule: `.git` is a file naming the real git directory.
      const target = parseGitDirFile(await readText(dotGit));
      if (!target) return [];
      gitDir = path.isAbsolute(target) ? folder.with({ path: target }) : vscode.Uri.joinPath(folder, target);
      // A worktree's config lives in the common directory.
      const common = await readText(vscode.Uri.joinPath(gitDir, 'commondir')).catch(() => undefined);
      if (common?.trim()) gitDir = path.isAbsolute(common.trim()) ? folder.with({ path: common.trim() }) : vscode.Uri.joinPath(gitDir, common.trim());
    }
    const config = await readText(vscode.Uri.joinPath(gitDir, 'config'));
    return parseGitConfig(config).map((remote) => ({ ...remote, folder: folder.fsPath }));
  } catch (error) {
    if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound')) {
      log?.warn(`Could not read the git config of ${folder.fsPath}: ${messageOf(error)}`);
    }
    return [];
  }
}

async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

async function readGitExtensionRemotes(folders: readonly vscode.Uri[], log?: vscode.LogOutputChannel): Promise<FolderRemote[]> {
  const extension = vscode.extensions.getExtension<{ enabled?: boolean; getAPI(version: 1): GitApi }>('vscode.git');
  if (!extension) return [];
  try {
    const exports = extension.isActive ? extension.exports : await withTimeout(extension.activate());
    if (!exports || exports.enabled === false) return [];
    const api = exports.getAPI(1);
    const remotes: FolderRemote[] = [];
    for (const folder of folders) {
      const repository =
        api.repositories.find((candidate) => isInside(folder, candidate.rootUri)) ??
        (api.openRepository ? await withTimeout(api.openRepository(folder)).catch(() => null) : null);
      for (const remote of repository?.state.remotes ?? []) {
        for (const url of new Set([remote.fetchUrl, remote.pushUrl])) {
          if (url) remotes.push({ folder: folder.fsPath, name: remote.name, url });
        }
      }
    }
    return remotes;
  } catch (error) {
    log?.warn(`The git extension could not list remotes: ${messageOf(error)}`);
    return [];
  }
}

/** `folder` is the repository root or lies inside it. */
function isInside(folder: vscode.Uri, root: vscode.Uri): boolean {
  const relative = path.posix.relative(root.path, folder.path);
  return folder.scheme === root.scheme && !relative.startsWith('..') && !path.posix.isAbsolute(relative);
}

function withTimeout<T>(promise: Thenable<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${GIT_API_TIMEOUT_MS / 1000} s`)), GIT_API_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
