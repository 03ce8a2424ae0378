import vscode = require('vscode');
import { DeploymentIndexes } from '../model/deploymentIndex';
import { ConnectionManager } from './connection';

/**
 * The deployment index of each control plane (model/deploymentIndex.ts), for the window: This
 * Workspace builds it, every listing, Create and watch tick updates it, the Integrations tree reads
 * it. Kept in memory only, keyed like every per-control-plane state (ConnectionManager.controlPlane).
 */
export function createDeploymentIndex(connection: ConnectionManager, context: vscode.ExtensionContext): DeploymentIndexes {
  const indexes = new DeploymentIndexes(() => connection.controlPlane());
  context.subscriptions.push(indexes, connection.onDidChange(() => indexes.planeChanged()));
  return indexes;
}
