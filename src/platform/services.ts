import * as vscode from 'vscode';
import { CommandRunner } from './commandRunner';
import { ConnectionManager } from './connection';
import { RepositoryCatalog } from '../model/repositoryCatalog';

/** What every feature is built from; created once in activate(). */
export interface Services {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  connection: ConnectionManager;
  commands: CommandRunner;
  catalog: RepositoryCatalog;
}

/** What the integrations feature offers the others. */
export interface IntegrationsFeature {
  /** Reveals and selects a repository node; false when it is not in any known integration. */
  revealRepository(integrationId: string, repositoryUrl: string): Promise<boolean>;
}

/** What the deployments feature offers the others. */
export interface DeploymentsFeature {
  /** Reloads from the first page with the current filters. */
  refresh(): Promise<void>;
  /** Reveals and selects a deployment row if it is loaded; false otherwise. */
  reveal(deploymentId: string): Promise<boolean>;
}
