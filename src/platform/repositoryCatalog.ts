import * as vscode from 'vscode';
import { RepositoryCatalog } from '../model/repositoryCatalog';
import { ConnectionManager } from './connection';
import { readSettings, SECTION } from './settings';

/** The catalog, fed by the connection and the integrations setting, and kept in step with both. */
export function createRepositoryCatalog(connection: ConnectionManager): RepositoryCatalog & vscode.Disposable {
  const catalog = new RepositoryCatalog({
    client: () => connection.getClient(),
    addedIntegrations: () => readSettings().integrations,
  });
  const subscriptions = [
    connection.onDidChange(() => catalog.invalidate()),
    // Another profile is another control plane: nothing discovered at the old one is shown.
    connection.onDidChangeProfile(() => {
      for (const integration of catalog.integrations()) if (integration.origin === 'discovered') catalog.forgetDiscovered(integration.id);
      catalog.addedIntegrationsChanged();
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
