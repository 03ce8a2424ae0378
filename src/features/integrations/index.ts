import * as vscode from 'vscode';
import { IntegrationsFeature, Services } from '../../platform/services';
import { registerAddIntegration } from './addIntegration';
import { DiscoverySummary, registerDiscoverIntegrations } from './discoverIntegrations';
import { registerFindRepository } from './findRepository';
import { registerIntegrationActions } from './manageIntegrations';
import { registerRepositoryActions } from './repositoryActions';
import { INTEGRATIONS_VIEW_ID, IntegrationsTreeProvider } from './integrationsTreeProvider';
import { IntegrationsTreeNode, integrationIdOf, isMoreNode } from '../../model/integrationNodes';
import { Commands } from '../../platform/commandIds';
import { certificatesMark } from '../../platform/connection';

export interface IntegrationsFeatureApi extends IntegrationsFeature {
  /** The tree's data (tests read rows through getChildren/getTreeItem). */
  provider: IntegrationsTreeProvider;
  view: vscode.TreeView<IntegrationsTreeNode>;
  /** Runs the full scan; `quiet`: progress in the view, errors only logged. Never run on its own. */
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
  // While certificates are not checked the view says so, as the Deployments view does.
  const markCertificates = () => {
    view.description = services.connection.certificatesUnchecked() ? certificatesMark() : undefined;
  };
  markCertificates();
  services.context.subscriptions.push(services.connection.onDidChange(markCertificates));

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

  // The "Show 1,000 more…" row (its click, and its inline and context-menu Show All): the next page,
  // or every row, of that integration, in place. The view is told before the command returns, so
  // that a reveal right after it finds the new rows.
  const showMore = (all: boolean) => async (argument?: unknown) => {
    const integrationId = typeof argument === 'string' ? argument : integrationIdOf(argument);
    if (!integrationId) return false;
    const shown = provider.showMore(integrationId, { all, listing: isMoreNode(argument) ? argument.listing : undefined });
    if (shown) await provider.settle();
    return shown;
  };
  services.commands.register(Commands.showMoreRepositories, showMore(false));
  services.commands.register(Commands.showAllRepositories, showMore(true));

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

  // No discovery runs on its own (a full scan pages through every deployment of the tenant): the
  // Deployments view hands the integrations its loaded pages use to the catalog, which keeps them per
  // connection; the full scan is the command "Discover Integrations from Deployments".

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
