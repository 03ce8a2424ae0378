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
  // Discovered integrations belong to the control plane they were discovered at: kept per profile
  // for this session, hidden while another profile is active, back when it is again.
  const discoveredByProfile = new Map<string, Array<{ id: string; host?: string }>>();
  let current = connection.profile().id;
  let switching = false;
  const discovered = () => catalog.integrations().filter((integration) => integration.origin === 'discovered');
  const subscriptions = [
    catalog.onDidChange((integrationId) => {
      // Not while switching, nor between the switch and its event (the settings already answer for the new profile).
      if (integrationId !== undefined || switching || connection.profile().id !== current) return;
      discoveredByProfile.set(current, discovered().map(({ id }) => ({ id, host: catalog.codeHost(id) })));
    }),
    connection.onDidChange(() => catalog.invalidate()),
    connection.onDidChangeProfile((profile) => {
      switching = true;
      try {
        for (const { id } of discoveredByProfile.get(current) ?? []) catalog.forgetDiscovered(id);
        for (const { id } of discovered()) catalog.forgetDiscovered(id);
        current = profile.id;
        const restored = discoveredByProfile.get(current) ?? [];
        const hosts = Object.fromEntries(restored.flatMap(({ id, host }) => (host ? [[id, host]] : [])));
        catalog.addDiscovered(
          restored.map(({ id }) => id),
          hosts,
        );
      } finally {
        switching = false;
      }
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
