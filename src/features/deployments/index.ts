import vscode = require('vscode');
import { IntegrationsFeature, Services } from '../../platform/services';
import { registerDeploymentCommands } from './deploymentCommands';
import { DEPLOYMENT_JSON_SCHEME, DeploymentJsonProvider } from './deploymentJson';
import { DeploymentsController } from './deploymentsController';

/** The controller is what the feature exposes: the contract for other features (DeploymentsFeature), and its parts for tests. */
export function registerDeployments(services: Services, integrations: IntegrationsFeature): DeploymentsController {
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
  return controller;
}

function showsDeploymentJson(input: unknown): boolean {
  if (input instanceof vscode.TabInputText) return input.uri.scheme === DEPLOYMENT_JSON_SCHEME;
  if (input instanceof vscode.TabInputTextDiff) return input.original.scheme === DEPLOYMENT_JSON_SCHEME || input.modified.scheme === DEPLOYMENT_JSON_SCHEME;
  return false;
}
