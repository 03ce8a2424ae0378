import * as vscode from 'vscode';
import { escapeMarkdown } from '../../model/markdown';
import { idKey } from '../../model/ids';
import { DeploymentList, LoadedDeployment, LoadedInvalidDeployment } from '../../model/deploymentList';
import { DetailNode, deploymentDetails, problemNode } from '../../model/deploymentDetails';
import { messageOf } from '../../api/errors';
import type { Deployment, InvalidDeployment } from '../../api';
import { problemLine, problemWords } from '../../model/fieldNames';
import { FixRow, fixRowIcon, fixRows } from '../../platform/fixRows';
import {
  accessibleLabel,
  deploymentContextValue,
  deploymentDescription,
  deploymentLabel,
  statusIcon,
  tooltipFields,
} from '../../model/deploymentPresentation';
import { Commands } from '../../platform/commandIds';

const LOAD_MORE_COMMAND = Commands.loadMoreDeployments;

export interface DeploymentElement {
  readonly kind: 'deployment';
  /** Replaced in place when a newer record arrives (the row keeps its identity). */
  item: LoadedDeployment;
  /**
   * The row's TreeItem, built on the first getTreeItem and reused while `item` is the same record;
   * dropped when the row's watch mark changes (`setWatched`).
   */
  treeItem?: { readonly of: LoadedDeployment; readonly item: vscode.TreeItem };
  /**
   * Set when the record does not match the API contract: `item.deployment` is then the record as the
   * server sent it (its details and JSON still open), and this names what is wrong with it.
   */
  readonly invalid?: InvalidDeployment;
}
export interface DetailElement {
  readonly kind: 'detail';
  readonly id: string;
  readonly node: DetailNode;
  readonly parent: DeploymentElement | DetailElement;
}
export interface LoadMoreElement {
  readonly kind: 'loadMore';
}
export interface ErrorElement {
  readonly kind: 'error';
}
export interface NoticeElement {
  readonly kind: 'notice';
}
/** A fix beside the error row (Set API Key…, Set Tenant ID…, a named setting): the same rows as the Integrations tree's. */
export interface FixElement {
  readonly kind: 'fix';
  readonly id: string;
  readonly fix: FixRow;
}
export type DeploymentsTreeElement = DeploymentElement | DetailElement | LoadMoreElement | ErrorElement | NoticeElement | FixElement;

/** What an off-contract row says, and its context value (Show JSON and Copy ID still apply). */
const OFF_CONTRACT_CONTEXT = 'deployment offContract';

/**
 * Rows of the Deployments view: the loaded deployments, then one status row
 * ("Load more…", its loading state, an error with Retry, or why the listing
 * stopped). Elements and their TreeItems are created once per record, so a
 * new page costs work for that page only: the root's array is extended in
 * place (never copied or re-sorted), rows are found by key in a map, and a
 * row's Markdown tooltip is built only when it is hovered (resolveTreeItem).
 */
export class DeploymentsTreeProvider implements vscode.TreeDataProvider<DeploymentsTreeElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<DeploymentsTreeElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  private rows: DeploymentElement[] = [];
  private readonly byKey = new Map<string, DeploymentElement>();
  private readonly details = new WeakMap<DeploymentElement | DetailElement, DetailElement[]>();
  /** What getChildren(root) answered last: the rows, then the status row; extended in place on append. */
  private root: DeploymentsTreeElement[] | undefined;
  /** The status rows at the end of `root` (the error row and its fixes, Load more…, or the notice). */
  private rootStatus: readonly DeploymentsTreeElement[] = [];
  private fixElements: { readonly error: unknown; readonly rows: FixElement[] } | undefined;
  private readonly loadMore: LoadMoreElement = { kind: 'loadMore' };
  private readonly errorRow: ErrorElement = { kind: 'error' };
  private readonly noticeRow: NoticeElement = { kind: 'notice' };
  private readonly subscription: { dispose(): void };
  private watchedKeys = new Set<string>();

  constructor(
    readonly list: DeploymentList,
    /** Starts the first load (with progress and error reporting) when the view first asks for rows. */
    private readonly startFirstLoad: () => void,
    /** False while the view cannot load (no base URL or API key): the welcome content shows instead. */
    private readonly canLoad: () => boolean,
  ) {
    this.subscription = list.onDidChange((change) => {
      switch (change.kind) {
        case 'reset':
          this.rows = [];
          this.byKey.clear();
          this.root = undefined;
          this.changed.fire(undefined);
          break;
        case 'appended': {
          const root = this.root;
          if (root) root.length -= this.rootStatus.length;
          for (const element of this.pageElements(change.added, change.addedInvalid)) {
            this.rows.push(element);
            root?.push(element);
          }
          this.rootStatus = [];
          this.changed.fire(undefined);
          break;
        }
        case 'inserted':
          this.rows.unshift(this.element(change.item));
          this.root = undefined;
          this.changed.fire(undefined);
          break;
        case 'updated': {
          const element = this.byKey.get(change.item.key);
          if (element) {
            element.item = change.item;
            this.invalidate(element);
          }
          break;
        }
        case 'status':
          // Starting to load more only changes the last row; anything else changes which rows exist.
          if (list.isLoading && list.pageCount > 0 && this.rows.length > 0) this.changed.fire(this.loadMore);
          else this.changed.fire(undefined);
          break;
      }
    });
  }

  /** The loaded deployment rows, in order. */
  get deploymentElements(): readonly DeploymentElement[] {
    return this.rows;
  }

  /** O(1): the list's key map, then this provider's. */
  elementFor(deploymentId: string): DeploymentElement | undefined {
    const item = this.list.find(deploymentId);
    return item ? this.byKey.get(item.key) : undefined;
  }

  /** Marks the rows of these deployments as watched; only rows whose mark changes are redrawn. */
  setWatched(deploymentIds: readonly string[]): void {
    const previous = this.watchedKeys;
    this.watchedKeys = new Set(deploymentIds.map(idKey));
    for (const key of new Set([...previous, ...this.watchedKeys])) {
      if (previous.has(key) === this.watchedKeys.has(key)) continue;
      const element = this.byKey.get(key);
      if (!element) continue;
      // The mark is in the row's TreeItem only; its details stay as they are.
      element.treeItem = undefined;
      this.changed.fire(element);
    }
  }

  private invalidate(element: DeploymentElement): void {
    element.treeItem = undefined;
    this.details.delete(element);
    this.changed.fire(element);
  }

  getChildren(element?: DeploymentsTreeElement): DeploymentsTreeElement[] {
    if (!element) return this.rootChildren();
    if (element.kind === 'deployment' || element.kind === 'detail') return this.detailChildren(element);
    return [];
  }

  getParent(element: DeploymentsTreeElement): DeploymentsTreeElement | undefined {
    return element.kind === 'detail' ? element.parent : undefined;
  }

  getTreeItem(element: DeploymentsTreeElement): vscode.TreeItem {
    switch (element.kind) {
      case 'deployment':
        return this.deploymentItem(element);
      case 'detail':
        return detailItem(element);
      case 'loadMore':
        return this.loadMoreItem();
      case 'error':
        return this.errorItem();
      case 'notice':
        return this.noticeItem();
      case 'fix':
        return fixItem(element);
    }
  }

  private rootChildren(): DeploymentsTreeElement[] {
    if (!this.canLoad()) return [];
    const list = this.list;
    if (list.status === 'idle') {
      this.startFirstLoad();
      return [];
    }
    let status: readonly DeploymentsTreeElement[] = [];
    if (list.status === 'error') status = [this.errorRow, ...this.fixRowsOf(list.error)];
    else if (list.isLoading && list.pageCount > 0) status = [this.loadMore];
    else if (list.hasMore) status = [this.loadMore];
    else if (list.endReason === 'offsetStuck') status = [this.noticeRow];
    // The same array each time, kept in step with `rows` (see the list listener): no O(n) copy per page.
    let root = this.root;
    if (!root) {
      root = this.rows.slice();
      this.rootStatus = [];
      this.root = root;
    }
    if (this.rootStatus.length !== status.length || this.rootStatus.some((row, index) => row !== status[index])) {
      root.length -= this.rootStatus.length;
      root.push(...status);
      this.rootStatus = status;
    }
    return root;
  }

  /** The fix rows of `error`, the same elements while the error is the same (stable row identity). */
  private fixRowsOf(error: unknown): FixElement[] {
    let cached = this.fixElements;
    if (cached?.error !== error || !cached) {
      cached = { error, rows: fixRows(error).map((fix) => ({ kind: 'fix' as const, id: `deployments:fix/${fix.kind}`, fix })) };
      this.fixElements = cached;
    }
    return cached.rows;
  }

  /**
   * A page's rows in the server's order: the records that did not match the contract go back to
   * the place they had in the page (their index), between the valid ones.
   */
  private pageElements(added: readonly LoadedDeployment[], addedInvalid: readonly LoadedInvalidDeployment[]): DeploymentElement[] {
    const invalid = [...addedInvalid].sort((a, b) => a.record.index - b.record.index);
    const out: DeploymentElement[] = [];
    let valid = 0;
    let next = 0;
    while (valid < added.length || next < invalid.length) {
      if (next < invalid.length && (valid >= added.length || invalid[next].record.index <= out.length)) {
        out.push(this.invalidElement(invalid[next++]));
      } else {
        out.push(this.element(added[valid++]));
      }
    }
    return out;
  }

  private invalidElement(loaded: LoadedInvalidDeployment): DeploymentElement {
    const raw = loaded.record.raw;
    const deployment = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : { value: raw }) as Deployment;
    const element: DeploymentElement = { kind: 'deployment', item: { key: loaded.key, deployment }, invalid: loaded.record };
    this.byKey.set(loaded.key, element);
    return element;
  }

  private detailChildren(element: DeploymentElement | DetailElement): DetailElement[] {
    let children = this.details.get(element);
    if (!children) {
      const nodes =
        element.kind === 'deployment'
          ? element.invalid
            ? offContractDetails(element.item.deployment, element.invalid)
            : deploymentDetails(element.item.deployment, vscode.env.language)
          : element.node.children ?? [];
      const parentId = element.kind === 'deployment' ? `deployment:${element.item.key}` : element.id;
      const used = new Map<string, number>();
      children = nodes.map((node) => {
        // Sibling labels can repeat (two volumes without a name); keep ids unique.
        const seen = used.get(node.label) ?? 0;
        used.set(node.label, seen + 1);
        return { kind: 'detail' as const, id: `${parentId}/${node.label}${seen ? `~${seen}` : ''}`, node, parent: element };
      });
      this.details.set(element, children);
    }
    return children;
  }

  private element(item: LoadedDeployment): DeploymentElement {
    const element: DeploymentElement = { kind: 'deployment', item };
    this.byKey.set(item.key, element);
    return element;
  }

  /** A deployment row's Markdown tooltip, built when it is hovered rather than for every row of every page. */
  resolveTreeItem(item: vscode.TreeItem, element: DeploymentsTreeElement): vscode.TreeItem {
    if (element.kind === 'deployment' && item.tooltip === undefined) {
      item.tooltip = element.invalid ? offContractTooltip(element.invalid) : deploymentTooltip(element.item.deployment);
    }
    return item;
  }

  private deploymentItem(element: DeploymentElement): vscode.TreeItem {
    const cached = element.treeItem;
    if (cached && cached.of === element.item) return cached.item;
    if (element.invalid) {
      const item = offContractItem(element.item, element.invalid);
      element.treeItem = { of: element.item, item };
      return item;
    }
    const deployment = element.item.deployment;
    const item = new vscode.TreeItem(deploymentLabel(deployment), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `deployment:${element.item.key}`;
    const watched = this.watchedKeys.has(element.item.key);
    item.description = deploymentDescription(deployment) + (watched ? ` · ${vscode.l10n.t('watching')}` : '');
    const icon = statusIcon(deployment.status);
    item.iconPath = new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
    item.contextValue = deploymentContextValue(deployment) + (watched ? ' watched' : '');
    item.accessibilityInformation = { label: accessibleLabel(deployment), role: 'treeitem' };
    element.treeItem = { of: element.item, item };
    return item;
  }

  private loadMoreItem(): vscode.TreeItem {
    if (this.list.isLoading) {
      const item = new vscode.TreeItem(vscode.l10n.t('Loading more…'), vscode.TreeItemCollapsibleState.None);
      item.id = 'deployments:loadMore';
      item.iconPath = new vscode.ThemeIcon('loading~spin');
      item.contextValue = 'loadMore.loading';
      item.accessibilityInformation = { label: vscode.l10n.t('Loading more deployments') };
      return item;
    }
    const item = new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
    item.id = 'deployments:loadMore';
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.description = vscode.l10n.t('{0} loaded', this.rows.length);
    item.tooltip = vscode.l10n.t('Load the next page of deployments ({0} loaded so far)', this.rows.length);
    item.command = { command: LOAD_MORE_COMMAND, title: vscode.l10n.t('Load More Deployments') };
    item.contextValue = 'loadMore';
    item.accessibilityInformation = { label: vscode.l10n.t('Load more deployments, {0} loaded', this.rows.length) };
    return item;
  }

  private errorItem(): vscode.TreeItem {
    const error = this.list.error;
    const message = messageOf(error);
    const page = this.list.pendingPage;
    const item = new vscode.TreeItem(
      page > 1 ? vscode.l10n.t("Couldn't load page {0}: Retry", page) : vscode.l10n.t("Couldn't load deployments: Retry"),
      vscode.TreeItemCollapsibleState.None,
    );
    item.id = 'deployments:error';
    item.description = message.split('\n')[0];
    item.tooltip = new vscode.MarkdownString().appendText(vscode.l10n.t('{0}\n\nClick to try again.', message));
    item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
    item.command = { command: LOAD_MORE_COMMAND, title: vscode.l10n.t('Retry') };
    item.contextValue = 'loadError';
    item.accessibilityInformation = { label: vscode.l10n.t('Loading page {0} failed: {1}. Activate to retry.', page, message) };
    return item;
  }

  private noticeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Listing stopped: the server repeated the same offset'), vscode.TreeItemCollapsibleState.None);
    item.id = 'deployments:notice';
    item.iconPath = new vscode.ThemeIcon('warning');
    item.tooltip = vscode.l10n.t(
      'The server answered offset {0} again, so asking for more would return the same page forever. Refresh to start over.',
      this.list.nextOffset,
    );
    item.contextValue = 'listingStopped';
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function fixItem(element: FixElement): vscode.TreeItem {
  const item = new vscode.TreeItem(element.fix.command.title, vscode.TreeItemCollapsibleState.None);
  item.id = element.id;
  item.iconPath = fixRowIcon(element.fix.kind);
  item.command = element.fix.command;
  item.contextValue = 'fix';
  item.accessibilityInformation = { label: element.fix.command.title };
  return item;
}

const OFF_CONTRACT_ICON = 'bracket-error';

/** "does not match the API contract": the marked row of a record the client could not validate. */
function offContractItem(loaded: LoadedDeployment, invalid: InvalidDeployment): vscode.TreeItem {
  const label = invalid.name || invalid.id || vscode.l10n.t('Record {0} of its page', invalid.index + 1);
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `deployment:${loaded.key}`;
  const fields = invalid.problems.map(problemWords);
  item.description = vscode.l10n.t('does not match the API contract ({0})', fields.join(', '));
  item.iconPath = new vscode.ThemeIcon(OFF_CONTRACT_ICON, new vscode.ThemeColor('list.warningForeground'));
  item.contextValue = OFF_CONTRACT_CONTEXT + (invalid.id ? ' id' : '');
  item.accessibilityInformation = {
    label: vscode.l10n.t('{0}: does not match the API contract: {1}', label, invalid.problems.map(problemLine).join('; ')),
    role: 'treeitem',
  };
  return item;
}

/** First the fields that do not match (each path in words, the raw path as its tooltip), then what the record has. */
function offContractDetails(deployment: Deployment, invalid: InvalidDeployment): DetailNode[] {
  const problems: DetailNode = {
    label: vscode.l10n.t('Does not match the API contract'),
    expanded: true,
    children: invalid.problems.map(problemNode),
  };
  let rest: DetailNode[];
  try {
    rest = deploymentDetails(deployment, vscode.env.language);
    for (const node of rest) node.expanded = false;
  } catch {
    rest = [{ label: vscode.l10n.t('Details'), value: vscode.l10n.t('cannot be shown; open the JSON') }];
  }
  return [problems, ...rest];
}

function offContractTooltip(invalid: InvalidDeployment): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**${escapeMarkdown(vscode.l10n.t('Does not match the API contract'))}**\n\n`);
  for (const problem of invalid.problems) {
    tooltip.appendText(`${problemWords(problem)}: ${problem.message}`);
    if (problem.path) tooltip.appendMarkdown(` (\`${problem.path.replace(/`/g, "'")}\`)`);
    tooltip.appendMarkdown('  \n');
  }
  tooltip.appendMarkdown(`\n${escapeMarkdown(vscode.l10n.t('Its details and JSON show the record as the server sent it.'))}`);
  return tooltip;
}

function detailItem(element: DetailElement): vscode.TreeItem {
  const { node } = element;
  const item = new vscode.TreeItem(
    node.label,
    !node.children || node.children.length === 0
      ? vscode.TreeItemCollapsibleState.None
      : node.expanded
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = element.id;
  if (node.value !== undefined) {
    item.description = node.value;
    item.tooltip = `${node.label}: ${node.value}`;
  }
  item.contextValue = 'deploymentDetail';
  item.accessibilityInformation = { label: node.value !== undefined ? `${node.label}: ${node.value}` : node.label };
  return item;
}

function deploymentTooltip(deployment: LoadedDeployment['deployment']): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${escapeMarkdown(deploymentLabel(deployment))}**\n\n`);
  for (const [label, value] of tooltipFields(deployment, vscode.env.language)) {
    tooltip.appendMarkdown(`${label}: `);
    tooltip.appendText(value);
    tooltip.appendMarkdown('  \n');
  }
  return tooltip;
}
