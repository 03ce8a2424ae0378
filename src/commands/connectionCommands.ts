import * as vscode from 'vscode';
import { SECTION } from '../config';
import { Services } from '../services';

/** Base URL, API key and tenant: the commands the welcome views and error actions point at. */
export function registerConnectionCommands({ commands, connection, log }: Services): void {
  commands.register('deploymentsExplorer.setBaseUrl', async (value?: string) => {
    const current = vscode.workspace.getConfiguration(SECTION).get<string>('baseUrl', '');
    const url =
      typeof value === 'string'
        ? value
        : await vscode.window.showInputBox({
            title: 'Control-Plane Base URL',
            prompt: 'Address of the deployment control-plane API. A path prefix such as /api-host is kept.',
            placeHolder: 'https://api.example.com',
            value: current,
            ignoreFocusOut: true,
            validateInput: validateBaseUrl,
          });
    if (url === undefined) return;
    const problem = validateBaseUrl(url);
    if (problem) throw new Error(problem);
    await vscode.workspace.getConfiguration(SECTION).update('baseUrl', url.trim(), vscode.ConfigurationTarget.Global);
  });

  commands.register('deploymentsExplorer.setApiKey', async (value?: string) => {
    const key =
      typeof value === 'string'
        ? value
        : await vscode.window.showInputBox({
            title: 'Control-Plane API Key',
            prompt: 'Stored in VS Code’s secret storage; never written to settings or logs.',
            password: true,
            ignoreFocusOut: true,
            validateInput: (text) => (text.trim() ? undefined : 'Enter the API key, or press Escape to cancel.'),
          });
    if (key === undefined || !key.trim()) return;
    await connection.apiKeys.set(key);
    log.info('API key stored in secret storage');
    void vscode.window.showInformationMessage('API key saved.');
  });

  commands.register('deploymentsExplorer.clearApiKey', async () => {
    await connection.apiKeys.clear();
    log.info('API key removed from secret storage');
    const stillSet = await connection.apiKeys.get();
    void vscode.window.showInformationMessage(
      stillSet
        ? 'API key removed from secret storage. The DEPLOYMENTS_EXPLORER_API_KEY environment variable still provides one.'
        : 'API key removed.',
    );
  });

  commands.register('deploymentsExplorer.setTenantId', async (value?: string) => {
    const current = vscode.workspace.getConfiguration(SECTION).get<string>('tenantId', '');
    const tenant =
      typeof value === 'string'
        ? value
        : await vscode.window.showInputBox({
            title: 'Tenant (Workspace) ID',
            prompt: 'Sent with every request for organisation-scoped API keys. Leave empty to send none.',
            value: current,
            ignoreFocusOut: true,
          });
    if (tenant === undefined) return;
    await vscode.workspace.getConfiguration(SECTION).update('tenantId', tenant.trim(), vscode.ConfigurationTarget.Global);
  });

  commands.register('deploymentsExplorer.openSettings', () =>
    vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${'deployments-explorer.deployments-explorer'}`),
  );
  commands.register('deploymentsExplorer.showLog', () => log.show());
}

export function validateBaseUrl(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return 'Enter the base URL, e.g. https://api.example.com';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return `“${trimmed}” is not a URL. Include the scheme, e.g. https://api.example.com`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The base URL must start with http:// or https://';
  if (url.username || url.password) return 'Leave credentials out of the URL; set the API key instead.';
  return undefined;
}
