import vscode = require('vscode');
import { type Repository } from '../../api';
import { isErrorOf, messageOf } from '../../api/errors';
import { isCancellation } from '../../platform/commandRunner';
import { errorIcon, errorItem, fixItem, offContractItem, pagingItem } from '../../platform/treeRows';
import { fixRows } from '../../model/fixActions';
import { idKey as key } from '../../model/ids';
import { KnownIntegration } from '../../model/repositoryCatalog';
import { RepositoryUsage, usageWords } from '../../model/deploymentIndex';
import { Services } from '../../platform/services';
import { IntegrationNode, IntegrationsTreeNode, MessageNode, MoreNode, RepositoryNode, RepositoryRows } from '../../model/integrationRows';
import { formatCount, headline } from '../../model/viewText';
import {
  integrationDescription,
  integrationLabel,
  integrationTooltipMarkdown,
  repositoryTooltipMarkdown,
} from '../../model/integrationPresentation';
import { Commands } from '../../platform/commandIds';

export const INTEGRATIONS_VIEW_ID = 'deploymentsExplorer.integrations';

/**
 * Integrations (added, then discovered) and their repositories from the shared RepositoryCatalog,
 * loaded with progress in the view; a failure becomes an error row, never an empty branch.
 * Repository rows come a page at a time (RepositoryRows), their tooltips only on hover.
 */
export class IntegrationsTreeProvider implements vscode.TreeDataProvider<IntegrationsTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<IntegrationsTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  private readonly integrationNodes = new Map<string, IntegrationNode>();
  /** The rows of each listing: a refreshed listing starts again at one page. */
  private readonly repositoryRows = new WeakMap<readonly Repository[], RepositoryRows>();
  private readonly loadingInView = new Set<string>();
  private readonly catalogSubscription: vscode.Disposable;
  private readonly indexSubscription: vscode.Disposable;
  private usageVersion = '';
  private authNoticeShowing = false;

  constructor(private readonly services: Services) {
    this.catalogSubscription = services.catalog.onDidChange((integrationId) => this.onCatalogChange(integrationId));
    this.indexSubscription = services.deploymentIndex.onDidChange(() => this.onIndexChange());
  }

  /**
   * Refreshing a branch while its getChildren is still running makes VS Code register the same IDs twice
   * ("Element with id … is already registered"): a load the view itself started is not echoed back; the
   * row is refreshed once, after its children were answered.
   */
  private onCatalogChange(integrationId: string | undefined): void {
    if (integrationId === undefined) return this.schedule(undefined);
    const id = key(integrationId);
    if (this.loadingInView.has(id) || this.services.catalog.state(id).status === 'loading') return;
    this.refreshBranch(id);
  }

  /** Repository rows say how many deployments use them (This Workspace's index): redrawn when those counts may change. */
  private onIndexChange(): void {
    const version = this.services.deploymentIndex.usageVersion();
    if (version === this.usageVersion) return;
    this.usageVersion = version;
    this.schedule(undefined);
  }

  /** VS Code's extension host coalesces the refreshes of one moment itself: each change is handed over at once. */
  private schedule(node: IntegrationNode | undefined): void {
    this.changed.fire(node);
  }

  getTreeItem(node: IntegrationsTreeNode): vscode.TreeItem {
    if (node.kind === 'integration') return this.integrationItem(node.integration);
    if (node.kind === 'repository') return repositoryItem(node, this.services.deploymentIndex.usage(node.repository.url));
    if (node.kind === 'message') return messageItem(node);
    return node.kind === 'more' ? moreItem(node) : fixItem(node);
  }

  /** Tooltips of repository rows are built only when one is hovered. */
  resolveTreeItem(item: vscode.TreeItem, node: IntegrationsTreeNode): vscode.TreeItem {
    if (node.kind === 'repository' && !item.tooltip) item.tooltip = new vscode.MarkdownString(repositoryTooltipMarkdown(node.repository));
    return item;
  }

  async getChildren(node?: IntegrationsTreeNode): Promise<IntegrationsTreeNode[]> {
    if (!node) return this.rootNodes();
    return node.kind === 'integration' ? this.childrenOf(node.integration.id) : [];
  }

  getParent(node: IntegrationsTreeNode): IntegrationsTreeNode | undefined {
    return node.kind === 'integration' ? undefined : this.nodeFor(node.integrationId);
  }

  nodeFor(integrationId: string): IntegrationNode | undefined {
    const known = this.services.catalog.find(integrationId);
    return known ? this.integrationNode(known) : undefined;
  }

  /**
   * Loads the repositories if needed and finds the row of this URL (RepositoryRows.find). A repository
   * beyond the shown rows is shown first, and the branch refreshed, so that TreeView.reveal finds it.
   */
  async findRepositoryNode(integrationId: string, repositoryUrl: string): Promise<RepositoryNode | undefined> {
    await this.childrenOf(integrationId);
    const rows = this.rowsOf(integrationId);
    const shown = rows?.shown;
    const node = rows?.find(repositoryUrl);
    if (rows && rows.shown !== shown) this.refreshBranch(integrationId);
    return node;
  }

  /**
   * Shows the next page of an integration's rows, or all of them; refreshes only that integration's
   * branch. `listing`: the one the activated row paged through; a row left from before a refresh
   * does nothing. False when nothing more was shown.
   */
  showMore(integrationId: string, options: { all?: boolean; listing?: readonly Repository[] } = {}): boolean {
    const rows = this.rowsOf(integrationId);
    if (!rows || (options.listing && options.listing !== rows.repositories)) return false;
    const added = rows.showMore(options.all);
    if (added > 0) this.refreshBranch(integrationId);
    return added > 0;
  }

  private refreshBranch(integrationId: string): void {
    const node = this.integrationNodes.get(key(integrationId));
    if (node) this.schedule(node);
  }

  private rowsOf(integrationId: string): RepositoryRows | undefined {
    const state = this.services.catalog.state(integrationId);
    if (state.status !== 'loaded') return undefined;
    const rows = this.repositoryRows.get(state.repositories) ?? new RepositoryRows(integrationId, state.repositories, state.offContract);
    this.repositoryRows.set(state.repositories, rows);
    return rows;
  }

  async childrenOf(integrationId: string): Promise<IntegrationsTreeNode[]> {
    const { catalog } = this.services;
    const id = key(integrationId);
    if (['idle', 'loading'].includes(catalog.state(id).status)) {
      this.loadingInView.add(id);
      try {
        await vscode.window.withProgress({ location: { viewId: INTEGRATIONS_VIEW_ID } }, () => catalog.repositories(integrationId));
      } catch (error) {
        if (isCancellation(error)) return [];
        // A rejected key affects every integration: say so once, with the fix, rather than per row.
        if (isErrorOf(error, 'auth') && !this.authNoticeShowing) {
          this.authNoticeShowing = true;
          void this.services.commands.showError(error, undefined, 'Loading repositories').finally(() => (this.authNoticeShowing = false));
        }
      } finally {
        this.loadingInView.delete(id);
        // The row's description (repository count, failure) changed: refresh it once the children are in.
        setTimeout(() => this.refreshBranch(id), 0);
      }
    }
    const state = catalog.state(id);
    if (state.status !== 'error') return this.rowsOf(integrationId)?.children() ?? [];
    return [
      { kind: 'message', role: 'error', integrationId, message: messageOf(state.error), error: state.error, id: `${id}/error` },
      ...fixRows(state.error, id).map((row) => ({ ...row, integrationId })),
    ];
  }

  private async rootNodes(): Promise<IntegrationsTreeNode[]> {
    // Empty while the connection is not set up: the welcome view then says what is missing.
    if (!(await this.services.connection.isConfigured())) return [];
    const integrations = this.services.catalog.integrations();
    const live = new Set(integrations.map((integration) => key(integration.id)));
    for (const id of this.integrationNodes.keys()) if (!live.has(id)) this.integrationNodes.delete(id);
    return integrations.map((integration) => this.integrationNode(integration));
  }

  /** The row of an integration: the same object for as long as the integration is listed. */
  private integrationNode(integration: KnownIntegration): IntegrationNode {
    const id = key(integration.id);
    let node = this.integrationNodes.get(id);
    if (node) node.integration = integration;
    else this.integrationNodes.set(id, (node = { kind: 'integration', integration }));
    return node;
  }

  private integrationItem(integration: KnownIntegration): vscode.TreeItem {
    const { catalog } = this.services;
    const state = catalog.state(integration.id);
    const count = state.status === 'loaded' ? state.repositories.length : undefined;
    const invalid = state.status === 'loaded' ? state.offContract.length : 0;
    const facts = catalog.facts(integration.id);
    const label = integrationLabel(integration, facts);
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `integration/${key(integration.id)}`;
    const note = invalid === 1 ? vscode.l10n.t('1 does not match the API contract') : vscode.l10n.t('{0} do not match the API contract', invalid);
    const description = integrationDescription(integration, count, state.status === 'error', facts, vscode.env.language);
    item.description = [description, invalid > 0 ? note : ''].filter(Boolean).join(' · ');
    const discovery = integration.origin === 'discovered' ? catalog.discoveryAge() : undefined;
    const tooltip = new vscode.MarkdownString(integrationTooltipMarkdown(integration, count, discovery, facts, vscode.env.language));
    item.contextValue = `integration.${integration.origin}`;
    item.iconPath = new vscode.ThemeIcon(integration.origin === 'added' ? 'plug' : 'telescope');
    if (state.status === 'error') {
      // A collapsed integration whose last load failed shows it, not only once opened.
      item.iconPath = errorIcon();
      tooltip.appendMarkdown('\n\n').appendText(vscode.l10n.t('Last load failed: {0}', messageOf(state.error)));
    }
    item.tooltip = tooltip;
    item.accessibilityInformation = {
      label: item.description ? vscode.l10n.t('Integration {0}, {1}', label, item.description) : vscode.l10n.t('Integration {0}', label),
    };
    return item;
  }

  dispose(): void {
    vscode.Disposable.from(this.changed, this.catalogSubscription, this.indexSubscription).dispose();
  }
}

function repositoryItem(node: RepositoryNode, usage: RepositoryUsage | undefined): vscode.TreeItem {
  const { repository } = node;
  const item = new vscode.TreeItem(repository.name, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  const deployed = usage && vscode.l10n.t('deployed: {0}', usageWords(usage));
  item.description = [`${repository.owner} · ${repository.default_branch}`, deployed].filter(Boolean).join(' · ');
  item.contextValue = 'repository';
  item.iconPath = new vscode.ThemeIcon('repo');
  item.accessibilityInformation = {
    label: [vscode.l10n.t('Repository {0}/{1}, default branch {2}', repository.owner, repository.name, repository.default_branch), deployed]
      .filter(Boolean)
      .join(', '),
  };
  return item;
}

function messageItem(node: MessageNode): vscode.TreeItem {
  if (node.role === 'error') {
    return errorItem({
      id: node.id,
      label: headline(node.message),
      description: vscode.l10n.t('click to retry'),
      error: node.error,
      command: { command: Commands.refreshIntegration, title: vscode.l10n.t('Retry'), arguments: [node] },
      contextValue: 'error',
      accessibilityLabel: node.message,
    });
  }
  if (node.role === 'offContract' && node.offContract) {
    const { problems, reason } = node.offContract;
    return offContractItem({ id: node.id, label: node.message, problems, note: reason, contextValue: 'repository.offContract', collapsible: false });
  }
  const item = new vscode.TreeItem(headline(node.message), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.accessibilityInformation = { label: node.message };
  item.contextValue = 'empty';
  item.iconPath = new vscode.ThemeIcon('info');
  item.tooltip = vscode.l10n.t('The integration answered with an empty list: the code host shows it no repositories.');
  return item;
}

/** "Show 1,000 more…", "1,000 of 100,000 shown": activating it (click, Enter) shows the next page in place. */
function moreItem(node: MoreNode): vscode.TreeItem {
  const [next, shown, total] = [node.next, node.shown, node.total].map((count) => formatCount(count, vscode.env.language));
  const one = node.next === 1;
  return pagingItem({
    id: node.id,
    label: vscode.l10n.t('Show {0} more…', next),
    description: vscode.l10n.t('{0} of {1} shown', shown, total),
    tooltip: one
      ? vscode.l10n.t('Show the last of this integration’s {0} repositories. Find Repository… searches them all.', total)
      : vscode.l10n.t('Show the next {0} of this integration’s {1} repositories. Find Repository… searches them all.', next, total),
    contextValue: 'moreRepositories',
    command: { command: Commands.showMoreRepositories, title: vscode.l10n.t('Show More Repositories'), arguments: [node] },
    accessibilityLabel: one
      ? vscode.l10n.t('Show 1 more repository, {0} of {1} shown', shown, total)
      : vscode.l10n.t('Show {0} more repositories, {1} of {2} shown', next, shown, total),
  });
}
