import * as vscode from 'vscode';
import { readSettings, SECTION } from '../../platform/settings';
import { IntegrationsFeature, Services } from '../../platform/services';
import { registerAddIntegration } from './addIntegration';
import { DiscoverySummary, registerDiscoverIntegrations } from './discoverIntegrations';
import { registerFindRepository } from './findRepository';
import { registerIntegrationActions } from './manageIntegrations';
import { registerRepositoryActions } from './repositoryActions';
import { INTEGRATIONS_VIEW_ID, IntegrationsTreeProvider } from './integrationsTreeProvider';
import { IntegrationsTreeNode } from '../../model/integrationNodes';

export interface IntegrationsFeatureApi extends IntegrationsFeature {
  /** The tree's data (tests read rows through getChildren/getTreeItem). */
  provider: IntegrationsTreeProvider;
  view: vscode.TreeView<IntegrationsTreeNode>;
  /** Runs discovery; `quiet` is the automatic run (progress in the view, errors only logged). */
  discover(quiet: boolean): Promise<DiscoverySummary | undefined>;
}

/** The Integrations view, its commands and what other features use of it. No network here. */
export function registerIntegrations(services: Services): IntegrationsFeatureApi {
  const provider = new IntegrationsTreeProvider(services);
  const view = vscode.window.createTreeView(INTEGRATIONS_VIEW_ID, {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  services.context.subscriptions.push(provider, view);

  const revealIntegration = async (integrationId: string): Promise<void> => {
    const node = provider.nodeFor(integrationId);
    if (!node) return;
    try {
      await provider.settle();
      await view.reveal(node, { select: true, focus: false, expand: true });
    } catch (error) {
      services.log.warn(`Could not reveal integration ${integrationId}: ${String(error)}`);
    }
  };

  const revealRepository = async (integrationId: string, repositoryUrl?: string): Promise<boolean> => {
    if (!provider.nodeFor(integrationId)) return false;
    if (repositoryUrl === undefined) {
      await revealIntegration(integrationId);
      return true;
    }
    const node = await provider.findRepositoryNode(integrationId, repositoryUrl);
    if (!node) {
      // Show why (e.g. the error row) rather than nothing.
      await revealIntegration(integrationId);
      return false;
    }
    await provider.settle();
    await view.reveal(node, { select: true, focus: true });
    return true;
  };

  registerAddIntegration(services, revealIntegration);
  registerIntegrationActions(services, revealIntegration);
  registerRepositoryActions(services);
  registerFindRepository(services, revealRepository);
  const discover = registerDiscoverIntegrations(services, INTEGRATIONS_VIEW_ID);

  // The welcome view "no integrations yet" keys on this.
  const updateHasIntegrations = () =>
    void vscode.commands.executeCommand('setContext', 'deploymentsExplorer.hasIntegrations', services.catalog.integrations().length > 0);
  updateHasIntegrations();
  services.context.subscriptions.push(
    services.catalog.onDidChange((integrationId) => {
      if (integrationId === undefined) updateHasIntegrations();
    }),
  );

  // Discovery runs once on its own, when the view is first shown with a working connection; never in activate().
  // Once per profile: each control plane has its own deployments to discover from.
  const autoDiscovered = new Set<string>();
  const maybeDiscover = async () => {
    const scope = services.connection.scopeKey('');
    if (autoDiscovered.has(scope) || !view.visible) return;
    const settings = readSettings();
    if (!settings.discoverIntegrations || !(await services.connection.isConfigured())) return;
    if (autoDiscovered.has(scope) || scope !== services.connection.scopeKey('')) return;
    autoDiscovered.add(scope);
    await discover(true);
  };
  services.context.subscriptions.push(
    view.onDidChangeVisibility(() => void maybeDiscover()),
    provider.onDidRequestRoot(() => setTimeout(() => void maybeDiscover(), 0)),
    services.connection.onDidChange(() => void maybeDiscover()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.discoverIntegrations`)) void maybeDiscover();
    }),
  );

  // A rejected key affects every integration: say so once, with the fix, rather than per row.
  let authNoticeShowing = false;
  services.context.subscriptions.push(
    provider.onDidFailToLoad(({ error }) => {
      const isAuth = (error as { kind?: string } | undefined)?.kind === 'auth';
      if (!isAuth || authNoticeShowing) return;
      authNoticeShowing = true;
      void services.commands.showError(error, undefined, 'Loading repositories').finally(() => {
        authNoticeShowing = false;
      });
    }),
  );

  return {
    provider,
    view,
    discover,
    revealRepository: (integrationId, repositoryUrl) => revealRepository(integrationId, repositoryUrl),
  };
}
