import * as vscode from 'vscode';
import { DiscoveredSnapshot, RepositoryCatalog } from '../model/repositoryCatalog';
import { ConnectionManager } from './connection';
import { SECTION } from './settings';

/** globalState, per control plane: its discovered integrations. */
const DISCOVERED_STATE = 'deploymentsExplorer.discoveredIntegrations';

/**
 * The catalog, fed by the connection and the integrations setting, and kept in step with both.
 * Discovered integrations are kept per connection in global state, with their age, so a window
 * start shows them without reading every deployment again.
 */
export function createRepositoryCatalog(connection: ConnectionManager, globalState: vscode.Memento): RepositoryCatalog & vscode.Disposable {
  const state = connection.scoped(globalState);
  const catalog = new RepositoryCatalog({
    client: () => connection.getClient(),
    addedIntegrations: () => connection.profiles.integrations(),
    discoveredStore: {
      scope: () => connection.controlPlane(),
      load: () => state.get<DiscoveredSnapshot>(DISCOVERED_STATE),
      save: (snapshot) => void state.update(DISCOVERED_STATE, snapshot),
    },
  });
  const subscriptions = [
    // Every reset, a profile switch included (the connection announces the switch just after this).
    connection.onDidChange(() => {
      catalog.connectionChanged();
      catalog.invalidate();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.integrations`) || event.affectsConfiguration(`${SECTION}.profiles`)) catalog.addedIntegrationsChanged();
    }),
  ];
  const dispose = catalog.dispose.bind(catalog);
  catalog.dispose = () => {
    for (const subscription of subscriptions) subscription.dispose();
    dispose();
  };
  return catalog;
}
