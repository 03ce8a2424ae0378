import * as path from 'node:path';
import vscode = require('vscode');
import { GitRemote, parseGitConfig, parseGitDirFile } from '../../model/remoteUrls';
import { messageOf } from '../../api/errors';
import { gitApi, remotesOf, repositoryOf } from '../../platform/git';

export interface FolderRemote extends GitRemote {
  /** The workspace folder (or repository root) the remote was read from. */
  folder: string;
}

/**
 * The git remotes of the given folders: from VS Code's git extension when it is there and enabled (it knows
 * repositories above the folder and worktrees), and from `.git/config` in any case, so a disabled git extension
 * or a missing git binary still works.
 */
export async function readWorkspaceRemotes(
  folders: readonly vscode.Uri[] = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri),
  log?: vscode.LogOutputChannel,
): Promise<FolderRemote[]> {
  const fromConfig = await Promise.all(folders.map((folder) => readGitConfigRemotes(folder, log)));
  const found = new Map<string, FolderRemote>();
  for (const remote of [...fromConfig.flat(), ...(await readGitExtensionRemotes(folders, log))]) {
    const key = JSON.stringify([remote.folder, remote.name, remote.url]);
    if (!found.has(key)) found.set(key, remote);
  }
  return [...found.values()];
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
  try {
    const api = await gitApi();
    if (!api) return [];
    const remotes: FolderRemote[] = [];
    for (const folder of folders) {
      const repository = await repositoryOf(api, folder);
      if (repository) remotes.push(...remotesOf(repository).map((remote) => ({ ...remote, folder: folder.fsPath })));
    }
    return remotes;
  } catch (error) {
    log?.warn(`The git extension could not list remotes: ${messageOf(error)}`);
    return [];
  }
}
