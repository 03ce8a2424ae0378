import vscode = require('vscode');
import { DeploymentIndexes } from './model/deploymentIndex';
import { DiscoveredSnapshot, RepositoryCatalog } from './model/repositoryCatalog';
import { CommandRunner } from './platform/commandRunner';
import { registerConnectionCommands } from './features/connection';
import { registerCreateDeployment } from './features/createDeployment';
import { ProfileStore } from './platform/profileStore';
import { registerProfiles } from './features/profiles';
import { ConnectionManager } from './platform/connection';
import { readSettings, SECTION } from './platform/settings';
import { Services } from './platform/services';
import { ViewMessages } from './platform/viewMessages';
import { registerDeployments } from './features/deployments';
import { registerIntegrations } from './features/integrations';
import { registerWatch } from './features/watch';
import { registerWorkspace } from './features/workspace';
import { registerAgentTools } from './features/agentTools';
import * as l10n from '@vscode/l10n';

/**
 * What activate() returns: used by the extension-host tests. `settled()` is its one documented member: it resolves
 * once the connection has taken in every settings, key and profile change made so far (the views reload from there).
 */
export type ExtensionApi = ReturnType<typeof activate>;

export function activate(context: vscode.ExtensionContext) {
  const started = performance.now();
  // api/ and model/ cannot import vscode: their messages go through @vscode/l10n, given VS Code's bundle here.
  if (vscode.l10n.bundle) l10n.config({ contents: vscode.l10n.bundle });
  const log = vscode.window.createOutputChannel('Deployments Explorer', { log: true });
  const profiles = new ProfileStore(context, log);
  const connection = new ConnectionManager(context, profiles, log);
  context.subscriptions.push(log, profiles, connection);
  const catalog = createRepositoryCatalog(connection, context);
  const commands = new CommandRunner(context, log);

  const deploymentIndex = new DeploymentIndexes(connection, () => readSettings().workspaceScanLimit, log);
  context.subscriptions.push(deploymentIndex);
  const services: Services = { context, log, connection, commands, catalog, deploymentIndex, messages: new ViewMessages() };
  registerConnectionCommands(services);
  const integrations = registerIntegrations(services);
  const deployments = registerDeployments(services, integrations);
  const watch = registerWatch(services, deployments);
  registerCreateDeployment(services, deployments, watch);
  const workspace = registerWorkspace(services, deployments);
  registerAgentTools({ services, deployments, watch, workspace });
  registerProfiles(services, [
    { view: integrations.view as vscode.TreeView<unknown>, title: vscode.l10n.t('Integrations') },
    { view: deployments.treeView as vscode.TreeView<unknown>, title: vscode.l10n.t('Deployments') },
    { view: workspace.provider.treeView as vscode.TreeView<unknown>, title: vscode.l10n.t('This Workspace') },
  ]);
  log.info(`Deployments Explorer ${context.extension.packageJSON.version} activated (activate() took ${(performance.now() - started).toFixed(1)} ms)`);
  return { settled: () => connection.settled(), services, integrations, deployments, watch, workspace };
}

/** globalState, per control plane: its discovered integrations. */
const DISCOVERED_STATE = 'deploymentsExplorer.discoveredIntegrations';

/**
 * The catalog, fed by and kept in step with the connection and the active profile's integrations. Discovered
 * integrations are kept per control plane, so a window start shows them without reading every deployment again.
 */
function createRepositoryCatalog(connection: ConnectionManager, context: vscode.ExtensionContext): RepositoryCatalog {
  const state = connection.scoped(context.globalState);
  const catalog = new RepositoryCatalog({
    client: () => connection.getClient(),
    addedIntegrations: () => connection.profiles.integrations(),
    discoveredStore: {
      load: () => state.get<DiscoveredSnapshot>(DISCOVERED_STATE),
      save: (snapshot) => void state.update(DISCOVERED_STATE, snapshot),
    },
  });
  context.subscriptions.push(
    catalog,
    // Every reset, a profile switch included (the connection announces the switch just after this).
    connection.onDidChange(() => catalog.invalidate()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.integrations`) || event.affectsConfiguration(`${SECTION}.profiles`)) catalog.addedIntegrationsChanged();
    }),
  );
  return catalog;
}

export function deactivate(): void {}
