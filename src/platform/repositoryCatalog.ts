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
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.integrations`)) catalog.addedIntegrationsChanged();
    }),
  ];
  const dispose = catalog.dispose.bind(catalog);
  catalog.dispose = () => {
    for (const subscription of subscriptions) subscription.dispose();
    dispose();
  };
  return catalog;
}
