import * as vscode from 'vscode';
import { CommandRunner } from './commands/commandRunner';
import { registerConnectionCommands } from './commands/connectionCommands';
import { registerCreateDeployment } from './commands/createDeployment/registerCreateDeployment';
import { ApiKeyStore } from './config';
import { ConnectionManager } from './connection';
import { RepositoryCatalog } from './model/repositoryCatalog';
import { Services } from './services';
import { registerDeployments } from './views/deployments/registerDeployments';
import { registerIntegrations } from './views/integrations/registerIntegrations';

/** What activate() returns: used by the extension-host tests. */
export type ExtensionApi = {
  services: Services;
  integrations: ReturnType<typeof registerIntegrations>;
  deployments: ReturnType<typeof registerDeployments>;
};

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const log = vscode.window.createOutputChannel('Deployments Explorer', { log: true });
  const apiKeys = new ApiKeyStore(context.secrets);
  const connection = new ConnectionManager(context, apiKeys, log);
  const catalog = new RepositoryCatalog(connection);
  const commands = new CommandRunner(context, log);
  context.subscriptions.push(log, apiKeys, connection, catalog);

  const services: Services = { context, log, connection, commands, catalog };
  registerConnectionCommands(services);
  const integrations = registerIntegrations(services);
  const deployments = registerDeployments(services, integrations);
  registerCreateDeployment(services, integrations, deployments);
  log.info(`Deployments Explorer ${context.extension.packageJSON.version} activated`);
  return { services, integrations, deployments };
}

export function deactivate(): void {}
