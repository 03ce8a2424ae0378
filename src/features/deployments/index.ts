import * as vscode from 'vscode';
import { DeploymentsFeature, IntegrationsFeature, Services } from '../../platform/services';
import { registerDeploymentCommands } from './deploymentCommands';
import { DEPLOYMENT_JSON_SCHEME, DeploymentJsonProvider } from './deploymentJson';
import { DeploymentsController } from './deploymentsController';

/** What the deployments feature exposes: the contract for other features, plus its parts for tests. */
export interface DeploymentsFeatureApi extends DeploymentsFeature {
  provider: DeploymentsController['provider'];
  treeView: DeploymentsController['treeView'];
  list: DeploymentsController['list'];
  filters: DeploymentsController['filters'];
}

export function registerDeployments(services: Services, integrations: IntegrationsFeature): DeploymentsFeatureApi {
  const controller = new DeploymentsController(services);
  const json = new DeploymentJsonProvider();
  services.context.subscriptions.push(
    controller,
    json,
    vscode.workspace.registerTextDocumentContentProvider(DEPLOYMENT_JSON_SCHEME, json),
  );
  registerDeploymentCommands(services, controller, integrations, json);
  return {
    refresh: () => controller.refresh(),
    reveal: (deploymentId: string) => controller.reveal(deploymentId),
    applyRecords: (deployments) => {
      for (const deployment of deployments) controller.list.update(deployment);
    },
    markWatched: (deploymentIds) => controller.provider.setWatched(deploymentIds),
    loadedRecords: () => controller.list.items.map((item) => item.deployment),
    provider: controller.provider,
    treeView: controller.treeView,
    list: controller.list,
    filters: controller.filters,
  };
}
