import vscode = require('vscode');
import { Services } from '../../platform/services';
import { registerAddIntegration } from './addIntegration';
import { registerDiscoverIntegrations } from './discoverIntegrations';
import { registerFindRepository } from './findRepository';
import { registerIntegrationActions } from './integrationActions';
import { INTEGRATIONS_VIEW_ID, IntegrationsTreeProvider } from './integrationsTreeProvider';
import { integrationIdOf, MoreNode } from '../../model/integrationRows';
import { Commands } from '../../platform/commandIds';

/**
 * The Integrations view and its commands. No network here. Answers the IntegrationsFeature other
 * features use, and the tree and its data for tests (they read rows through getChildren/getTreeItem).
 */
export function registerIntegrations(services: Services) {
  const { catalog, commands, context } = services;
  const provider = new IntegrationsTreeProvider(services);
  const view = vscode.window.createTreeView(INTEGRATIONS_VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  // The welcome view "no integrations yet" keys on this.
  const updateHasIntegrations = () => void vscode.commands.executeCommand('setContext', 'deploymentsExplorer.hasIntegrations', catalog.integrations().length > 0);
  updateHasIntegrations();
  context.subscriptions.push(
    provider,
    view,
    catalog.onDidChange((integrationId) => {
      if (integrationId === undefined) updateHasIntegrations();
    }),
  );

  /**
   * Reveals the repository's row, or (none asked for, or not found) the integration's, which shows why
   * (e.g. its error row). False when the integration, or the repository asked for, is not there.
   */
  const reveal = async (integrationId: string, repositoryUrl?: string): Promise<boolean> => {
    const integration = provider.nodeFor(integrationId);
    if (!integration) return false;
    const repository = repositoryUrl === undefined ? undefined : await provider.findRepositoryNode(integrationId, repositoryUrl);
    if (repository) {
      await view.reveal(repository, { select: true, focus: true });
      return true;
    }
    try {
      await view.reveal(integration, { select: true, focus: false, expand: true });
    } catch (error) {
      services.log.warn(`Could not reveal integration ${integrationId}: ${String(error)}`);
    }
    return repositoryUrl === undefined;
  };

  // The "Show 1,000 more…" row (its click, and its inline and context-menu Show All): the next page,
  // or every row, of that integration, in place. The view is told before the command returns, so
  // that a reveal right after it finds the new rows.
  const showMore = (all: boolean) => async (argument?: unknown) => {
    const integrationId = integrationIdOf(argument);
    const listing = (argument as Partial<MoreNode> | undefined)?.listing;
    const shown = !!integrationId && provider.showMore(integrationId, { all, listing });
    return shown;
  };
  commands.register(Commands.showMoreRepositories, showMore(false));
  commands.register(Commands.showAllRepositories, showMore(true));

  registerAddIntegration(services, reveal);
  registerIntegrationActions(services, reveal);
  registerFindRepository(services, reveal);
  // No full scan runs on its own (it pages through every deployment of the tenant): the Deployments view
  // hands the integrations its loaded pages use to the catalog.
  registerDiscoverIntegrations(services);

  return { provider, view, revealRepository: reveal };
}
