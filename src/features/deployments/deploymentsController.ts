import vscode = require('vscode');
import { messageOf } from '../../api/errors';
import { isUuid } from '../../api/vocabulary';
import { readSettings, SECTION } from '../../platform/settings';
import { describeFilters, DeploymentFilterStore } from '../../model/deploymentFilters';
import { DeploymentList, ListChange, LoadedDeployment, offContractRecord } from '../../model/deploymentList';
import { idKey } from '../../model/ids';
import { integrationsUsedBy } from '../../model/integrationDiscovery';
import { DeploymentsFeature, Services } from '../../platform/services';
import type { Deployment, OffContractDeployment } from '../../api';
import type { DeploymentFilters } from '../../api/query';
import { DeploymentElement, DeploymentsTreeElement, DeploymentsTreeProvider } from './deploymentsTreeProvider';

const DEPLOYMENTS_VIEW_ID = 'deploymentsExplorer.deployments';

/** The Deployments view: its list, filters, context keys, description and message, progress, and auto-refresh while visible. */
export class DeploymentsController implements DeploymentsFeature, vscode.Disposable {
  readonly filters: DeploymentFilterStore;
  readonly list: DeploymentList;
  readonly provider: DeploymentsTreeProvider;
  readonly treeView: vscode.TreeView<DeploymentsTreeElement>;
  private readonly disposables: vscode.Disposable[];
  private connectionReady = false;
  /** Counts connection changes: only the newest one's answer applies. */
  private connectionChanges = 0;
  private readonly contextValues = new Map<string, boolean>();
  private autoRefreshTimer: NodeJS.Timeout | undefined;

  constructor(private readonly services: Services) {
    // Per profile: each control plane keeps its own filters.
    this.filters = new DeploymentFilterStore(services.connection.scoped(services.context.workspaceState));
    const filters = this.filters;
    this.list = new DeploymentList(async function* (offset, walk, signal) {
      const client = await services.connection.getClient();
      yield* client.deploymentPages({ ...filters.filters, limit: readSettings().pageSize, offset }, { signal, walk });
    });
    this.provider = new DeploymentsTreeProvider(this.list, () => void this.load(() => this.list.ensureLoaded(), true), () => this.connectionReady);
    // Several rows selected: Copy Deployment ID copies every selected ID; two: Compare Deployments.
    this.treeView = vscode.window.createTreeView(DEPLOYMENTS_VIEW_ID, { treeDataProvider: this.provider, showCollapseAll: true, canSelectMany: true });
    this.disposables = [
      this.treeView,
      this.provider,
      this.list.onDidChange((change) => {
        this.setContext('deploymentsExplorer.deploymentsEmpty', this.list.isEmpty);
        this.shareIntegrations(change);
        services.deploymentIndex.listChanged(change);
        if (change.kind !== 'updated') this.showMessage();
      }),
      this.filters.onDidChange(() => this.showMessage()),
      services.connection.onDidChange(() => void this.connectionChanged()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SECTION}.pageSize`)) this.list.reset();
        if (event.affectsConfiguration(`${SECTION}.autoRefreshSeconds`)) this.scheduleAutoRefresh();
      }),
      this.treeView.onDidChangeVisibility(() => this.scheduleAutoRefresh()),
    ];
    this.showMessage();
    void this.connectionChanged();
  }

  /** Reloads from page 1 with the current filters; errors become the error row (and a message when `notify`). */
  refresh(notify = true): Promise<void> {
    return this.load(() => this.list.reload(), notify);
  }

  loadMore(): Promise<void> {
    if (this.list.isLoading) return this.list.settled();
    return this.load(() => this.list.loadMore(), true);
  }

  applyRecords(deployments: readonly Deployment[]): void {
    for (const deployment of deployments) this.list.update(deployment);
  }

  markWatched(deploymentIds: readonly string[]): void {
    this.provider.setWatched(deploymentIds);
  }

  loadedRecord(deploymentId: string): Deployment | undefined {
    return this.list.find(deploymentId)?.deployment;
  }

  loadedRecords(): Deployment[] {
    return this.list.rows.filter((row) => !row.offContract).map((row) => row.item.deployment);
  }

  /**
   * Selects the row of `deploymentId`. When the loaded pages do not hold it (created after they loaded,
   * or beyond them), it is looked up with `deployment_ids` and the current filters and inserted at the
   * top; when that finds nothing (the filters exclude it) the answer is false.
   */
  async reveal(deploymentId: string): Promise<boolean> {
    await this.list.settled();
    if (this.list.status === 'idle' && this.connectionReady) await this.load(() => this.list.ensureLoaded(), false);
    const id = deploymentId.trim();
    if (!this.provider.elementFor(id) && isUuid(id)) {
      try {
        const listed = await this.listedRecord(id, this.filters.filters);
        if (listed) this.list.insertFirst(listed.deployment, listed.invalid);
      } catch (error) {
        this.services.log.warn(`Could not look up deployment ${id}: ${messageOf(error)}`);
      }
    }
    const element = this.provider.elementFor(id);
    if (!element) return false;
    try {
      await this.treeView.reveal(element, { select: true, focus: true, expand: false });
    } catch (error) {
      // The view may be collapsed or hidden; the row is still there.
      this.services.log.warn(`Could not reveal deployment ${id}: ${messageOf(error)}`);
    }
    return true;
  }

  /**
   * The loaded record of `deploymentId`, or the record looked up by ID alone (the filters do not
   * apply: a row of another view names it), on the contract or off it; throws when the control plane does not list it.
   */
  async lookup(deploymentId: string): Promise<LoadedDeployment> {
    const loaded = this.list.row(deploymentId)?.item;
    if (loaded) return loaded;
    const listed = await this.listedRecord(deploymentId.trim(), {});
    if (!listed) throw new Error(vscode.l10n.t('Deployment {0} is no longer listed by the control plane.', deploymentId));
    return { key: idKey(deploymentId), deployment: listed.deployment };
  }

  /** The record of `id` as the control plane lists it with `filters`, if it does; `invalid` when it is off the contract. */
  private async listedRecord(id: string, filters: DeploymentFilters): Promise<{ deployment: Deployment; invalid?: OffContractDeployment } | undefined> {
    const client = await this.services.connection.getClient();
    const page = await client.listDeployments({ ...filters, deploymentIds: [id], limit: 1, offset: 0 });
    const deployment = page.deployments.find((d) => typeof d.id === 'string' && idKey(d.id) === idKey(id));
    if (deployment) return { deployment };
    const invalid = page.offContract.find((record) => record.id !== undefined && idKey(record.id) === idKey(id));
    return invalid && { deployment: offContractRecord(invalid), invalid };
  }

  /**
   * The deployments a row command acts on: every selected row when the clicked one is part of a
   * multi-selection (what VS Code passes as the second argument), else the one row (a tree element or
   * a deployment ID); with no row given (the Command Palette, a keybinding), every selected row.
   */
  deploymentElements(clicked: unknown, selected?: unknown): DeploymentElement[] {
    const rows = Array.isArray(selected) ? selected.filter(isDeploymentElement) : [];
    if (rows.length > 1) return rows;
    if (isDeploymentElement(clicked)) return [clicked];
    if (typeof clicked !== 'string') return this.treeView.selection.filter(isDeploymentElement);
    const one = this.provider.elementFor(clicked);
    return one ? [one] : [];
  }

  /** With the view's progress bar. A failure stays in the list (its row offers Retry); `notify` also shows it, not waiting for an answer. */
  private async load(operation: () => Promise<void>, notify: boolean): Promise<void> {
    try {
      await vscode.window.withProgress({ location: { viewId: DEPLOYMENTS_VIEW_ID } }, () => operation());
    } catch (error) {
      if (this.list.status !== 'error') return; // superseded by a refresh or a reset
      if (notify) void this.services.commands.showError(error, () => this.loadMore(), 'Deployments');
      else this.services.log.warn(`Deployments: ${messageOf(error)}`);
    }
  }

  /** The integrations of newly loaded records go to the catalog: discovery for free, from pages the user loaded anyway. */
  private shareIntegrations(change: ListChange): void {
    const added = change.kind === 'appended' || change.kind === 'inserted' ? change.added.filter((row) => !row.offContract) : [];
    if (added.length === 0 || !readSettings().discoverIntegrations) return;
    const { integrationIds, codeHosts } = integrationsUsedBy(added.map((row) => row.item.deployment));
    if (integrationIds.length > 0) this.services.catalog.addDiscovered(integrationIds, codeHosts);
  }

  private async connectionChanged(): Promise<void> {
    const change = ++this.connectionChanges;
    // Nothing of the previous connection stays on screen while the new one resolves.
    this.connectionReady = false;
    this.filters.reload();
    this.list.reset();
    const ready = await this.services.connection.isConfigured();
    // A newer change came meanwhile: its answer is the one that holds, whichever arrives last.
    if (change !== this.connectionChanges) return;
    this.connectionReady = ready;
    // Its 'reset' shows the message again (the list listener above).
    this.list.reset();
    this.scheduleAutoRefresh();
  }

  /**
   * The description stays short (how many filters; a mark while certificates are not checked); the message,
   * which wraps, says it in full. An empty listing keeps no message, so the welcome view shows.
   */
  private showMessage(): void {
    const count = Object.keys(this.filters.filters).length;
    const description = count === 0 ? '' : count === 1 ? vscode.l10n.t('1 filter') : vscode.l10n.t('{0} filters', count);
    if (this.treeView.description !== (description || undefined)) this.treeView.description = description || undefined;
    const described = describeFilters(this.filters.filters);
    const invalid = this.list.offContractCount;
    const parts = [
      described && vscode.l10n.t('Filters: {0}', described),
      invalid === 1 && vscode.l10n.t('1 record on the loaded pages does not match the API contract; it is shown marked.'),
      invalid > 1 && vscode.l10n.t('{0} records on the loaded pages do not match the API contract; they are shown marked.', invalid),
    ];
    this.services.messages.set(this.treeView, 'view', this.list.isEmpty ? undefined : parts.filter(Boolean).join('\n'));
    this.setContext('deploymentsExplorer.filtersActive', this.filters.active);
  }

  private setContext(key: string, value: boolean): void {
    if (this.contextValues.get(key) === value) return;
    this.contextValues.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }

  private scheduleAutoRefresh(): void {
    clearInterval(this.autoRefreshTimer);
    this.autoRefreshTimer = undefined;
    const seconds = readSettings().autoRefreshSeconds;
    if (seconds <= 0 || !this.treeView.visible || !this.connectionReady) return;
    this.autoRefreshTimer = setInterval(() => {
      if (!this.list.isLoading && this.treeView.visible) void this.refresh(false);
    }, seconds * 1000);
  }

  dispose(): void {
    clearInterval(this.autoRefreshTimer);
    this.list.dispose();
    vscode.Disposable.from(...this.disposables).dispose();
  }
}

function isDeploymentElement(element: unknown): element is DeploymentElement {
  return typeof element === 'object' && element !== null && (element as DeploymentElement).kind === 'deployment';
}
