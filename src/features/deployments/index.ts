import vscode = require('vscode');
import { DeploymentsFeature, IntegrationsFeature, Services } from '../../platform/services';
import { registerDeploymentCommands } from './deploymentCommands';
import { DEPLOYMENT_JSON_SCHEME, DeploymentJsonProvider } from './deploymentJson';
import { DeploymentsController } from './deploymentsController';

/** What the deployments feature exposes: the contract for other features, plus its parts for tests. */
export type DeploymentsFeatureApi = DeploymentsFeature & Pick<DeploymentsController, 'provider' | 'treeView' | 'list' | 'filters'>;

export function registerDeployments(services: Services, integrations: IntegrationsFeature): DeploymentsFeatureApi {
  const controller = new DeploymentsController(services);
  const json = new DeploymentJsonProvider();
  services.context.subscriptions.push(controller, json, vscode.workspace.registerTextDocumentContentProvider(DEPLOYMENT_JSON_SCHEME, json));
  registerDeploymentCommands(services, controller, integrations, json);
  // Another profile is another control plane: the old one's deployment documents and comparisons close with it.
  services.context.subscriptions.push(
    services.connection.onDidChangeProfile(() => {
      const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => showsDeploymentJson(tab.input));
      if (tabs.length > 0) void vscode.window.tabGroups.close(tabs);
    }),
  );
  const { provider, treeView, list, filters } = controller;
  return {
    refresh: () => controller.refresh(),
    reveal: (deploymentId: string) => controller.reveal(deploymentId),
    applyRecords: (deployments) => {
      for (const deployment of deployments) list.update(deployment);
    },
    markWatched: (deploymentIds) => provider.setWatched(deploymentIds),
    loadedRecords: () => list.items.map((item) => item.deployment),
    provider,
    treeView,
    list,
    filters,
  };
}

function showsDeploymentJson(input: unknown): boolean {
  if (input instanceof vscode.TabInputText) return input.uri.scheme === DEPLOYMENT_JSON_SCHEME;
  if (input instanceof vscode.TabInputTextDiff) return input.original.scheme === DEPLOYMENT_JSON_SCHEME || input.modified.scheme === DEPLOYMENT_JSON_SCHEME;
  return false;
}
