import vscode = require('vscode');
import { messageOf } from '../../api/errors';
import { sentence } from '../../api/text';
import { escapeMarkdown, headline } from '../../model/viewText';
import { idKey } from '../../model/ids';
import { DeploymentList, DeploymentRow } from '../../model/deploymentList';
import { DetailNode, deploymentDetails, offContractDetails } from '../../model/deploymentDetails';
import { FixRow, fixRows } from '../../model/fixActions';
import { errorItem, fixItem, offContractItem, pagingItem } from '../../platform/treeRows';
import { Commands } from '../../platform/commandIds';
import {
  accessibleLabel,
  deploymentContextValue,
  deploymentDescription,
  deploymentLabel,
  statusIcon,
  tooltipFields,
} from '../../model/deploymentPresentation';

/** The list's own row, with what the view built for it. */
export interface DeploymentElement extends DeploymentRow {
  /**
   * Kept while the record and watch mark stay the same: after a page is appended VS Code asks for every
   * row's TreeItem again (a property, not a map: a lookup per row is itself too slow at 50k rows).
   */
  treeItem?: vscode.TreeItem;
  /** Built when first expanded; kept until the record changes. */
  children?: DetailElement[];
}
export interface DetailElement {
  readonly kind: 'detail';
  readonly id: string;
  readonly node: DetailNode;
  readonly parent: DeploymentElement | DetailElement;
  children?: DetailElement[];
}
/** The row after the loaded ones: "Load more…", a failure (with its fix rows), or why the listing stopped. */
type StatusElement = { readonly kind: 'loadMore' } | { readonly kind: 'error' } | { readonly kind: 'notice' } | FixRow;
export type DeploymentsTreeElement = DeploymentElement | DetailElement | StatusElement;

/** The list's rows, then one status row. A row's TreeItem is built once, so a new page costs work for that page only. */
export class DeploymentsTreeProvider implements vscode.TreeDataProvider<DeploymentsTreeElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<DeploymentsTreeElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly loadMore = { kind: 'loadMore' } as const;
  private readonly subscription: { dispose(): void };
  private watchedKeys = new Set<string>();

  constructor(
    private readonly list: DeploymentList,
    /** Starts the first load (with progress and error reporting) when the view first asks for rows. */
    private readonly startFirstLoad: () => void,
    /** False while the view cannot load (no base URL or API key): the welcome content shows instead. */
    private readonly canLoad: () => boolean,
  ) {
    this.subscription = list.onDidChange((change) => {
      if (change.kind === 'updated') {
        const element = this.elementFor(change.item.key);
        if (!element) return;
        element.treeItem = undefined;
        element.children = undefined;
        return this.changed.fire(element);
      }
      if (change.kind === 'status' && list.isLoading && list.pageCount > 0 && list.rows.length > 0) {
        // Starting to load more only changes the last row; anything else changes which rows exist.
        return this.changed.fire(this.loadMore);
      }
      this.changed.fire(undefined);
    });
  }

  elementFor(deploymentId: string): DeploymentElement | undefined {
    return this.list.row(deploymentId);
  }

  /** Marks the rows of these deployments as watched; only rows whose mark changes are redrawn (their details stay). */
  setWatched(deploymentIds: readonly string[]): void {
    const previous = this.watchedKeys;
    this.watchedKeys = new Set(deploymentIds.map(idKey));
    for (const key of new Set([...previous, ...this.watchedKeys])) {
      const element = this.elementFor(key);
      if (!element || previous.has(key) === this.watchedKeys.has(key)) continue;
      element.treeItem = undefined;
      this.changed.fire(element);
    }
  }

  getChildren(element?: DeploymentsTreeElement): DeploymentsTreeElement[] {
    if (!element) return this.rootChildren();
    return element.kind === 'deployment' || element.kind === 'detail' ? this.detailChildren(element) : [];
  }

  getParent(element: DeploymentsTreeElement): DeploymentsTreeElement | undefined {
    return element.kind === 'detail' ? element.parent : undefined;
  }

  getTreeItem(element: DeploymentsTreeElement): vscode.TreeItem {
    if (element.kind === 'deployment') return this.deploymentItem(element);
    if (element.kind === 'detail') return detailItem(element);
    if (element.kind === 'fix') return fixItem(element);
    return element.kind === 'loadMore' ? this.loadMoreItem() : element.kind === 'error' ? this.errorItem() : this.noticeItem();
  }

  /** A deployment row's Markdown tooltip, built when it is hovered rather than for every row of every page. */
  resolveTreeItem(item: vscode.TreeItem, element: DeploymentsTreeElement): vscode.TreeItem {
    if (element.kind === 'deployment' && item.tooltip === undefined) {
      const { deployment } = element.item;
      item.tooltip = new vscode.MarkdownString(`**${escapeMarkdown(deploymentLabel(deployment))}**\n\n`, true);
      for (const [label, value] of tooltipFields(deployment, vscode.env.language)) {
        item.tooltip.appendMarkdown(`${label}: `).appendText(value).appendMarkdown('  \n');
      }
    }
    return item;
  }

  private rootChildren(): DeploymentsTreeElement[] {
    const list = this.list;
    if (!this.canLoad()) return [];
    if (list.status === 'idle') {
      this.startFirstLoad();
      return [];
    }
    if (list.status === 'error') return [...list.rows, { kind: 'error' }, ...fixRows(list.error, 'deployments')];
    if ((list.isLoading && list.pageCount > 0) || list.hasMore) return [...list.rows, this.loadMore];
    return list.endReason === 'offsetStuck' ? [...list.rows, { kind: 'notice' }] : [...list.rows];
  }

  private detailChildren(element: DeploymentElement | DetailElement): DetailElement[] {
    if (!element.children) {
      const language = vscode.env.language;
      const nodes =
        element.kind === 'detail'
          ? (element.node.children ?? [])
          : element.offContract
            ? offContractDetails(element.item.deployment, element.offContract.problems, language)
            : deploymentDetails(element.item.deployment, language);
      const parentId = element.kind === 'deployment' ? `deployment:${element.item.key}` : element.id;
      const used = new Map<string, number>();
      element.children = nodes.map((node) => {
        // Sibling labels can repeat (two volumes without a name); keep ids unique.
        const seen = used.get(node.label) ?? 0;
        used.set(node.label, seen + 1);
        return { kind: 'detail' as const, id: `${parentId}/${node.label}${seen ? `~${seen}` : ''}`, node, parent: element };
      });
    }
    return element.children;
  }

  private deploymentItem(element: DeploymentElement): vscode.TreeItem {
    if (element.treeItem) return element.treeItem;
    const { item: loaded, offContract: invalid } = element;
    const id = `deployment:${loaded.key}`;
    if (invalid) {
      return (element.treeItem = offContractItem({
        id,
        label: invalid.name || invalid.id || vscode.l10n.t('Record {0} of its page', invalid.index + 1),
        problems: invalid.problems,
        note: vscode.l10n.t('Its details and JSON show the record as the server sent it.'),
        // Show JSON and Copy ID still apply.
        contextValue: `deployment offContract${invalid.id ? ' id' : ''}`,
        collapsible: true,
      }));
    }
    const deployment = loaded.deployment;
    const watched = this.watchedKeys.has(loaded.key);
    const icon = statusIcon(deployment.status);
    const item = (element.treeItem = new vscode.TreeItem(deploymentLabel(deployment), vscode.TreeItemCollapsibleState.Collapsed));
    item.id = id;
    item.description = [deploymentDescription(deployment), watched ? vscode.l10n.t('watching') : ''].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
    item.contextValue = deploymentContextValue(deployment) + (watched ? ' watched' : '');
    item.accessibilityInformation = { label: accessibleLabel(deployment), role: 'treeitem' };
    return item;
  }

  private loadMoreItem(): vscode.TreeItem {
    const id = 'deployments:loadMore';
    if (this.list.isLoading) {
      return pagingItem({ id, label: vscode.l10n.t('Loading more…'), contextValue: 'loadMore.loading', accessibilityLabel: vscode.l10n.t('Loading more deployments') });
    }
    const loaded = this.list.rows.length;
    return pagingItem({
      id,
      label: vscode.l10n.t('Load more…'),
      description: vscode.l10n.t('{0} loaded', loaded),
      tooltip: vscode.l10n.t('Load the next page of deployments ({0} loaded so far)', loaded),
      command: { command: Commands.loadMoreDeployments, title: vscode.l10n.t('Load More Deployments') },
      contextValue: 'loadMore',
      accessibilityLabel: vscode.l10n.t('Load more deployments, {0} loaded', loaded),
    });
  }

  private errorItem(): vscode.TreeItem {
    const { error } = this.list;
    const page = this.list.pageCount + 1;
    const message = messageOf(error);
    return errorItem({
      id: 'deployments:error',
      label: page > 1 ? vscode.l10n.t("Couldn't load page {0}: Retry", page) : vscode.l10n.t("Couldn't load deployments: Retry"),
      description: headline(message),
      error,
      command: { command: Commands.loadMoreDeployments, title: vscode.l10n.t('Retry') },
      contextValue: 'loadError',
      accessibilityLabel: vscode.l10n.t('Loading page {0} failed: {1} Activate to retry.', page, sentence(message)),
    });
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

function detailItem({ id, node }: DetailElement): vscode.TreeItem {
  const { None, Expanded, Collapsed } = vscode.TreeItemCollapsibleState;
  const item = new vscode.TreeItem(node.label, !node.children?.length ? None : node.expanded ? Expanded : Collapsed);
  item.id = id;
  const text = node.value === undefined ? node.label : `${node.label}: ${node.value}`;
  if (node.value !== undefined) {
    item.description = node.value;
    item.tooltip = text;
  }
  item.contextValue = 'deploymentDetail';
  item.accessibilityInformation = { label: text };
  return item;
}
