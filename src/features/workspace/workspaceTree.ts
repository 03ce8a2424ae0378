import * as path from 'node:path';
import vscode = require('vscode');
import { ControlPlaneError, isUuid } from '../../api';
import { messageOf } from '../../api/errors';
import { sentence } from '../../api/text';
import { DeploymentIndex, IndexedDeployment } from '../../model/deploymentIndex';
import { statusIcon } from '../../model/deploymentPresentation';
import { statusWithRawValue, statusWords } from '../../model/deploymentStatus';
import { fixRows, FixRow } from '../../model/fixActions';
import { GitRemote, remoteLabel } from '../../model/remoteUrls';
import { formatCount, formatTime, headline } from '../../model/viewText';
import {
  CommitGraph,
  CommitState,
  commitStateHint,
  commitStateWords,
  CommitSummary,
  compareDeployedCommit,
  DeployedRef,
  groupByRef,
  parseRef,
  refInClone,
  refLabel,
} from '../../model/workspaceDeployments';
import { Commands } from '../../platform/commandIds';
import { commitGraph, gitApi, GitRepository, onGitChange, remotesOf, workspaceRepositories } from '../../platform/git';
import { DeploymentReference, Services, WorkspaceReport, WorkspaceRepositoryReport } from '../../platform/services';
import { readSettings } from '../../platform/settings';
import { errorItem, fixItem, offContractItem, pagingItem } from '../../platform/treeRows';

export const WORKSPACE_VIEW_ID = 'deploymentsExplorer.workspace';
const NO_GIT_CONTEXT = 'deploymentsExplorer.workspaceNoGit';
const SCANNING_CONTEXT = 'deploymentsExplorer.workspaceScanning';

interface RepositoryElement {
  readonly kind: 'repository';
  readonly id: string;
  readonly repository: GitRepository;
  readonly deployments: readonly IndexedDeployment[];
  /** The remotes that name the deployments' repository; the first one's remote-tracking branches stand in for branches only there. */
  readonly remotes: readonly GitRemote[];
}
interface RefElement {
  readonly kind: 'ref';
  readonly id: string;
  readonly parent: RepositoryElement;
  readonly ref: DeployedRef;
  readonly rows: WorkspaceDeploymentElement[];
}
/** A deployment row: the Deployments view's row commands take it (a DeploymentReference). */
export interface WorkspaceDeploymentElement extends DeploymentReference {
  readonly kind: 'workspaceDeployment';
  readonly id: string;
  readonly parent: RefElement;
  readonly entry: IndexedDeployment;
  readonly state: CommitState;
}
export interface CommitElement {
  readonly kind: 'commit';
  readonly id: string;
  readonly parent: WorkspaceDeploymentElement;
  readonly commit: CommitSummary;
}
type StatusElement = { readonly kind: 'scan'; readonly id: string } | { readonly kind: 'deployWorkspace'; readonly id: string } | FixRow;
type MoreCommitsElement = { readonly kind: 'moreCommits'; readonly id: string; readonly parent: WorkspaceDeploymentElement; readonly count: string };
export type WorkspaceElement = RepositoryElement | RefElement | WorkspaceDeploymentElement | CommitElement | MoreCommitsElement | StatusElement;

/**
 * This Workspace: for each git repository of the workspace whose remotes match deployments, its
 * deployments grouped by ref, each with its commit against the local one, and under it the commits
 * not yet deployed. The deployments come from the control plane's index, whose scan the view starts
 * when it first asks for rows (never at activation: the view starts collapsed); a scan shows in the
 * view's progress bar and in a row that stops it or offers to go past the limit.
 */
export class WorkspaceTreeProvider implements vscode.TreeDataProvider<WorkspaceElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WorkspaceElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly treeView: vscode.TreeView<WorkspaceElement>;
  private readonly disposables: vscode.Disposable[] = [];
  /** Per repository root: what git answered, until its HEAD or a remote changes (signature). */
  private readonly clones = new Map<string, { signature: string; graph: CommitGraph }>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Git is followed from the first time the view shows, not from activation. */
  private gitWatch: Promise<vscode.Disposable> | undefined;
  /** The connection changed (a key set, a proxy fixed): a scan that failed is tried again when the view next draws. */
  private retryFailedScan = false;

  constructor(private readonly services: Services) {
    this.treeView = vscode.window.createTreeView(WORKSPACE_VIEW_ID, { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(
      this.treeView,
      this.changed,
      services.deploymentIndex.onDidChange(() => this.scheduleRefresh()),
      services.deploymentIndex.onDidStartScan((run) => this.showScanProgress(run)),
      // The indexes announce the connection change too, which redraws the view.
      services.connection.onDidChange(() => (this.retryFailedScan = true)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.scheduleRefresh()),
      { dispose: () => clearTimeout(this.refreshTimer) },
    );
  }

  /** Refresh: the commits read again, the index rebuilt from the first page. */
  async refresh(): Promise<void> {
    this.clones.clear();
    await this.services.deploymentIndex.scan(true);
  }

  /** Reveals and selects the row of a deployment; false when the view does not show it. */
  async reveal(deploymentId: string): Promise<boolean> {
    for (const repository of await this.getChildren()) {
      if (repository.kind !== 'repository') continue;
      const row = (await this.refGroups(repository)).flatMap((group) => group.rows).find((candidate) => candidate.deploymentId === deploymentId);
      if (!row) continue;
      await this.treeView.reveal(row, { select: true, focus: true, expand: false });
      return true;
    }
    return false;
  }

  /**
   * What the view shows, as data (the agent's "what is deployed from this workspace"): the index is built first when no
   * scan has built it, as Deploy This Branch… does; `signal` stops that scan. A scan that failed is thrown.
   */
  async report(signal: AbortSignal): Promise<WorkspaceReport> {
    const api = await gitApi().catch(() => undefined);
    if (!api) return { kind: 'noGit' };
    const withRemotes = await repositoriesWithRemotes(this.services.log);
    if (withRemotes.length === 0) return { kind: 'noRemotes', folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath) };
    const stop = () => this.services.deploymentIndex.stopScan();
    signal.addEventListener('abort', stop);
    let index: DeploymentIndex;
    try {
      index = this.services.deploymentIndex.current();
      if (!index.built) index = await this.services.deploymentIndex.builtIndex();
    } finally {
      signal.removeEventListener('abort', stop);
    }
    if (index.scanState.phase === 'failed') throw index.scanState.error;
    if (signal.aborted || !index.built) throw new ControlPlaneError('cancelled');
    const repositories: WorkspaceRepositoryReport[] = [];
    const withoutDeployments: Array<{ folder: string; remotes: string[] }> = [];
    for (const repository of withRemotes) {
      const { deployments, remotes } = index.ofRemotes(remotesOf(repository));
      const folder = repository.rootUri.fsPath;
      if (deployments.length === 0) {
        withoutDeployments.push({ folder, remotes: [...new Set(remotesOf(repository).map(remoteLabel))] });
        continue;
      }
      const element: RepositoryElement = { kind: 'repository', id: `repository:${repository.rootUri.toString()}`, repository, deployments, remotes };
      const branch = repository.state.HEAD?.name;
      const refs = (await this.refGroups(element)).map((group) => ({
        ref: group.ref,
        checkedOut: group.ref.kind === 'branch' && group.ref.name === branch,
        deployments: group.rows.map((row) => ({ deployment: row.entry, state: row.state })),
      }));
      repositories.push({ folder, branch, remotes: [...new Set(remotes.map(remoteLabel))], refs });
    }
    return { kind: 'report', scan: index.scanState, repositories, withoutDeployments };
  }

  /** While a scan runs: the view's progress bar, and Stop in its title instead of Look at More. */
  private showScanProgress(run: Promise<void>): void {
    void vscode.commands.executeCommand('setContext', SCANNING_CONTEXT, true);
    void vscode.window.withProgress({ location: { viewId: WORKSPACE_VIEW_ID } }, () => run).then(() => {
      if (this.services.deploymentIndex.current().scanState.phase !== 'scanning') void vscode.commands.executeCommand('setContext', SCANNING_CONTEXT, false);
    });
  }

  getParent(element: WorkspaceElement): WorkspaceElement | undefined {
    return 'parent' in element ? element.parent : undefined;
  }

  async getChildren(element?: WorkspaceElement): Promise<WorkspaceElement[]> {
    if (!element) return this.rootChildren();
    switch (element.kind) {
      case 'repository':
        return this.refGroups(element);
      case 'ref':
        return element.rows;
      case 'workspaceDeployment': {
        if (element.state.kind !== 'behind') return [];
        const commits: WorkspaceElement[] = element.state.commits.map((commit) => ({ kind: 'commit', id: `${element.id}/${commit.hash}`, parent: element, commit }));
        const rest = element.state.count - element.state.commits.length;
        if (rest > 0 || element.state.more) {
          const count = formatCount(rest, vscode.env.language);
          commits.push({ kind: 'moreCommits', id: `${element.id}/more`, parent: element, count: element.state.more ? vscode.l10n.t('more than {0}', count) : count });
        }
        return commits;
      }
      default:
        return [];
    }
  }

  private async rootChildren(): Promise<WorkspaceElement[]> {
    const { services } = this;
    this.services.messages.set(this.treeView, 'view', undefined);
    if (!(await services.connection.isConfigured())) return [];
    this.gitWatch ??= onGitChange(() => this.scheduleRefresh());
    const withRemotes = await repositoriesWithRemotes(services.log);
    void vscode.commands.executeCommand('setContext', NO_GIT_CONTEXT, withRemotes.length === 0);
    // No remote to look for: nothing to ask the control plane (the welcome view says so).
    if (withRemotes.length === 0) return [];

    const index = services.deploymentIndex.current();
    if (index.scanState.phase === 'none' || (index.scanState.phase === 'failed' && this.retryFailedScan)) void services.deploymentIndex.scan(index.scanState.phase === 'none');
    this.retryFailedScan = false;
    const roots: RepositoryElement[] = [];
    for (const repository of withRemotes) {
      const { deployments, remotes } = index.ofRemotes(remotesOf(repository));
      if (deployments.length > 0) roots.push({ kind: 'repository', id: `repository:${repository.rootUri.toString()}`, repository, deployments, remotes });
    }
    const rows: WorkspaceElement[] = [...roots];
    const { phase } = index.scanState;
    if (phase !== 'complete') rows.push({ kind: 'scan', id: 'workspace:scan' });
    if (phase === 'failed') rows.push(...fixRows(index.scanState.error, 'workspace'));
    if (roots.length === 0 && (phase === 'complete' || phase === 'capped')) {
      this.services.messages.set(this.treeView, 'view', this.noMatchMessage(index, withRemotes));
      rows.push({ kind: 'deployWorkspace', id: 'workspace:deployWorkspace' });
    }
    return rows;
  }

  /** Which remotes were looked for, among how many deployments. */
  private noMatchMessage(index: DeploymentIndex, repositories: readonly GitRepository[]): string {
    const remotes = [...new Set(repositories.flatMap((repository) => remotesOf(repository).map(remoteLabel)))];
    const looked = formatCount(index.scanState.looked, vscode.env.language);
    if (index.scanState.phase === 'capped') {
      return vscode.l10n.t('None of the first {0} deployments of this control plane comes from this workspace’s remotes: {1}.', looked, remotes.join(', '));
    }
    if (index.scanState.looked === 0) return vscode.l10n.t('This control plane has no deployments yet; this workspace’s remotes: {0}.', remotes.join(', '));
    if (index.scanState.looked === 1) return vscode.l10n.t('The one deployment of this control plane does not come from this workspace’s remotes: {0}.', remotes.join(', '));
    return vscode.l10n.t('None of the {0} deployments of this control plane comes from this workspace’s remotes: {1}.', looked, remotes.join(', '));
  }

  /**
   * The deployments of a repository by ref as the clone reads it (refInClone), each with its commit against the
   * local one. One after the other: each comparison starts git processes, and a repository can have many deployments.
   */
  private async refGroups(element: RepositoryElement): Promise<RefElement[]> {
    const { repository, deployments, remotes } = element;
    // A saved file changes git's state too: the commits are compared again only when the HEAD or a remote changed.
    const root = repository.rootUri.toString();
    const gitState = signature(repository);
    if (this.clones.get(root)?.signature !== gitState) this.clones.set(root, { signature: gitState, graph: commitGraph(repository) });
    const { graph } = this.clones.get(root)!;
    const read = new Map<IndexedDeployment, { ref: DeployedRef; state: CommitState }>();
    for (const entry of deployments) {
      // When git fails here, the comparison on the deployment's row fails too, and says so.
      const ref = (await refInClone(entry.ref, graph, remotes[0].name).catch(() => undefined))?.ref ?? parseRef(entry.ref);
      const state = await compareDeployedCommit(entry, graph, remotes[0].name).catch((error): CommitState => {
        this.services.log.warn(`This Workspace: could not compare the commit of ${entry.id}: ${messageOf(error)}`);
        return { kind: 'failed' };
      });
      read.set(entry, { ref, state });
    }
    return groupByRef(deployments, repository.state.HEAD?.name, (entry) => read.get(entry)!.ref).map((group) => {
      const ref: RefElement = { kind: 'ref', id: `${element.id}/ref:${group.key}`, parent: element, ref: group.ref, rows: [] };
      for (const entry of group.deployments) {
        const { state } = read.get(entry)!;
        ref.rows.push({ kind: 'workspaceDeployment', id: `${ref.id}/${entry.id}`, deploymentId: entry.id, name: entry.name, parent: ref, entry, state });
      }
      return ref;
    });
  }

  getTreeItem(element: WorkspaceElement): vscode.TreeItem {
    switch (element.kind) {
      case 'repository':
        return repositoryItem(element);
      case 'ref':
        return refItem(element);
      case 'workspaceDeployment':
        return deploymentItem(element);
      case 'commit':
        return commitItem(element);
      case 'moreCommits': {
        const label = vscode.l10n.t('{0} more not deployed', element.count);
        return Object.assign(new vscode.TreeItem(label), { id: element.id, iconPath: new vscode.ThemeIcon('ellipsis') });
      }
      case 'scan':
        return this.scanItem();
      case 'deployWorkspace': {
        const title = vscode.l10n.t('Deploy This Workspace…');
        const command = { command: Commands.deployWorkspace, title };
        return Object.assign(new vscode.TreeItem(title), { id: element.id, iconPath: new vscode.ThemeIcon('cloud-upload'), command });
      }
      case 'fix':
        return fixItem(element);
    }
  }

  /** The scan's row: how far it got, and the way on (stop it, go past the limit, go on, retry). */
  private scanItem(): vscode.TreeItem {
    const { scanState: scan } = this.services.deploymentIndex.current();
    const looked = formatCount(scan.looked, vscode.env.language);
    const limit = formatCount(readSettings().workspaceScanLimit, vscode.env.language);
    const id = 'workspace:scan';
    switch (scan.phase) {
      case 'failed':
        return errorItem({
          id,
          label: vscode.l10n.t("Couldn't look through the deployments: Retry"),
          description: headline(messageOf(scan.error)),
          error: scan.error,
          command: { command: Commands.continueWorkspaceScan, title: vscode.l10n.t('Retry') },
          contextValue: 'workspaceScanFailed',
          accessibilityLabel: vscode.l10n.t('Looking through the deployments failed after {0}: {1} Activate to retry.', looked, sentence(messageOf(scan.error))),
        });
      case 'capped':
      case 'stopped': {
        const label =
          scan.phase === 'capped'
            ? vscode.l10n.t('Looked at the first {0} deployments', looked)
            : scan.looked === 1
              ? vscode.l10n.t('Stopped after 1 deployment')
              : vscode.l10n.t('Stopped after {0} deployments', looked);
        return pagingItem({
          id,
          label,
          description: vscode.l10n.t('Look at {0} more…', limit),
          tooltip: vscode.l10n.t('There may be more deployments, and some of them from this workspace. Click to look at {0} more.', limit),
          command: { command: Commands.continueWorkspaceScan, title: vscode.l10n.t('Look at More Deployments') },
          contextValue: 'workspaceScanMore',
          accessibilityLabel: vscode.l10n.t('{0}. Activate to look at {1} more.', label, limit),
        });
      }
      default:
        return pagingItem({
          id,
          label: vscode.l10n.t('Looking through the deployments… {0} so far', looked),
          description: vscode.l10n.t('click to stop'),
          tooltip: vscode.l10n.t('The API cannot filter by repository, so every deployment is looked at once; the index is kept for this window.'),
          command: { command: Commands.stopWorkspaceScan, title: vscode.l10n.t('Stop') },
          contextValue: 'workspaceScanning',
          accessibilityLabel: vscode.l10n.t('Looking through the deployments, {0} so far. Activate to stop.', looked),
        });
    }
  }

  private scheduleRefresh(): void {
    // Until the view first asks for rows there is nothing to redraw (and no reason to ask git anything).
    if (!this.gitWatch) return;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.changed.fire(undefined), 100);
  }

  dispose(): void {
    void this.gitWatch?.then((watch) => watch.dispose());
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

/** The workspace's git repositories that have a remote to look for; none without git. */
async function repositoriesWithRemotes(log: Services['log']): Promise<GitRepository[]> {
  const api = await gitApi().catch((error) => void log.warn(`This Workspace: the git extension is not available: ${messageOf(error)}`));
  const repositories = api ? await workspaceRepositories(api, (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri)) : [];
  return repositories.filter((repository) => remotesOf(repository).length > 0);
}

/** What the view shows of a repository's git state: its HEAD and remotes. */
function signature(repository: GitRepository): string {
  const head = repository.state.HEAD;
  return [head?.name, head?.commit, ...remotesOf(repository).map((remote) => `${remote.name}=${remote.url}`)].join(' ');
}

function repositoryItem(element: RepositoryElement): vscode.TreeItem {
  const item = new vscode.TreeItem(path.posix.basename(element.repository.rootUri.path), vscode.TreeItemCollapsibleState.Expanded);
  item.id = element.id;
  const count = element.deployments.length;
  item.description = count === 1 ? vscode.l10n.t('1 deployment') : vscode.l10n.t('{0} deployments', count);
  item.tooltip = vscode.l10n.t('{0}: deployments of {1}', element.repository.rootUri.fsPath, [...new Set(element.remotes.map(remoteLabel))].join(', '));
  item.iconPath = new vscode.ThemeIcon('repo');
  item.contextValue = 'workspaceRepository';
  return item;
}

function refItem(element: RefElement): vscode.TreeItem {
  const { ref } = element;
  const item = new vscode.TreeItem(refLabel(ref), vscode.TreeItemCollapsibleState.Expanded);
  item.id = element.id;
  const head = element.parent.repository.state.HEAD?.name;
  const current = ref.kind === 'branch' && ref.name === head;
  const kind = { branch: vscode.l10n.t('branch'), tag: vscode.l10n.t('tag'), commit: vscode.l10n.t('commit'), other: vscode.l10n.t('ref'), none: '' }[ref.kind];
  item.description = [kind, current ? vscode.l10n.t('checked out') : ''].filter(Boolean).join(' · ');
  item.iconPath = new vscode.ThemeIcon({ branch: 'git-branch', tag: 'tag', commit: 'git-commit', other: 'git-branch', none: 'question' }[ref.kind]);
  item.contextValue = 'workspaceRef';
  return item;
}

/**
 * `name`, then `type · status in words · commit state`; its tooltip says what to do about the state. A record off the
 * API contract is marked as in the Deployments view, the state in its tooltip; what needs the record whole is not offered.
 */
function deploymentItem(row: WorkspaceDeploymentElement): vscode.TreeItem {
  const { entry, state } = row;
  const label = entry.name ?? entry.id;
  const words = commitStateWords(state, vscode.env.language);
  const hint = commitStateHint(state);
  if (entry.problems) {
    return offContractItem({
      id: row.id,
      label,
      problems: entry.problems,
      note: [`${vscode.l10n.t('Against your clone')}: ${words}`, hint].filter(Boolean).join('\n'),
      // Watch and Pin follow it by ID, which must be a UUID.
      contextValue: `workspaceDeployment offContract${isUuid(entry.id) ? ' id' : ''}`,
      collapsible: state.kind === 'behind',
    });
  }
  const item = new vscode.TreeItem(label, state.kind === 'behind' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = row.id;
  item.description = [entry.type, statusWords(entry.status), words].filter(Boolean).join(' · ');
  const icon = statusIcon(entry.status);
  item.iconPath = new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown('**').appendText(label).appendMarkdown('**\n\n');
  const lines: Array<[string, string | undefined]> = [
    [vscode.l10n.t('ID'), entry.id],
    [vscode.l10n.t('Type'), entry.type],
    [vscode.l10n.t('Status'), statusWithRawValue(entry.status)],
    [vscode.l10n.t('Ref'), entry.ref],
    [vscode.l10n.t('Deployed commit'), entry.commit],
    [vscode.l10n.t('Against your clone'), words],
  ];
  for (const [name, value] of lines) if (value) tooltip.appendText(`${name}: ${value}`).appendMarkdown('  \n');
  if (hint) tooltip.appendMarkdown('\n').appendText(hint);
  item.tooltip = tooltip;
  item.contextValue = 'workspaceDeployment';
  item.accessibilityInformation = { label: vscode.l10n.t('Deployment {0}, {1}', label, item.description), role: 'treeitem' };
  return item;
}

function commitItem(element: CommitElement): vscode.TreeItem {
  const { commit } = element;
  const subject = commit.message.split('\n')[0];
  const item = new vscode.TreeItem(subject, vscode.TreeItemCollapsibleState.None);
  item.id = element.id;
  const date = commit.authorDate ? formatTime(commit.authorDate.toISOString(), vscode.env.language) : undefined;
  item.description = [commit.authorName, date].filter(Boolean).join(' · ');
  item.tooltip = `${commit.hash}\n${commit.message}`;
  item.iconPath = new vscode.ThemeIcon('git-commit');
  item.command = { command: Commands.openCommit, title: vscode.l10n.t('Open Commit'), arguments: [element] };
  item.contextValue = 'workspaceCommit';
  item.accessibilityInformation = { label: vscode.l10n.t('Commit not deployed: {0}, {1}', subject, item.description) };
  return item;
}
