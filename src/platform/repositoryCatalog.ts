import vscode = require('vscode');
import { DiscoveredSnapshot, RepositoryCatalog } from '../model/repositoryCatalog';
import { ConnectionManager } from './connection';
import { SECTION } from './settings';

/** globalState, per control plane: its discovered integrations. */
const DISCOVERED_STATE = 'deploymentsExplorer.discoveredIntegrations';

/**
 * The catalog, fed by and kept in step with the connection and the active profile's integrations. Discovered
 * integrations are kept per control plane, so a window start shows them without reading every deployment again.
 */
export function createRepositoryCatalog(connection: ConnectionManager, context: vscode.ExtensionContext): RepositoryCatalog {
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
