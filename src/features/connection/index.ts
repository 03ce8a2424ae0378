import * as vscode from 'vscode';
import { SECTION } from '../../platform/settings';
import { Services } from '../../platform/services';

/** Base URL, API key and tenant: the commands the welcome views and error actions point at. */
export function registerConnectionCommands({ commands, connection, log }: Services): void {
  commands.register('deploymentsExplorer.setBaseUrl', async (value?: string) => {
    const url = await argumentOrInput(value, {
      title: 'Control-Plane Base URL',
      prompt: 'Address of the deployment control-plane API. A path prefix such as /api-host is kept.',
      placeHolder: 'https://api.example.com',
      value: currentSetting('baseUrl'),
      validateInput: validateBaseUrl,
    });
    if (url === undefined) return;
    const problem = validateBaseUrl(url);
    if (problem) throw new Error(problem);
    await updateUserSetting('baseUrl', url.trim());
  });

  commands.register('deploymentsExplorer.setApiKey', async (value?: string) => {
    const key = await argumentOrInput(value, {
      title: 'Control-Plane API Key',
      prompt: 'Stored in VS Code’s secret storage; never written to settings or logs.',
      password: true,
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
    const tenant = await argumentOrInput(value, {
      title: 'Tenant (Workspace) ID',
      prompt: 'Sent with every request for organisation-scoped API keys. Leave empty to send none.',
      value: currentSetting('tenantId'),
    });
    if (tenant === undefined) return;
    await updateUserSetting('tenantId', tenant.trim());
  });

  commands.register('deploymentsExplorer.openSettings', () =>
    vscode.commands.executeCommand('workbench.action.openSettings', '@ext:deployments-explorer.deployments-explorer'),
  );
  commands.register('deploymentsExplorer.showLog', () => log.show());
}

/** A command's text argument (scripts, tests), or what the user types; undefined when cancelled. */
async function argumentOrInput(value: unknown, options: vscode.InputBoxOptions): Promise<string | undefined> {
  if (typeof value === 'string') return value;
  return vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
}

const currentSetting = (name: string) => vscode.workspace.getConfiguration(SECTION).get<string>(name, '');
const updateUserSetting = (name: string, value: string) =>
  vscode.workspace.getConfiguration(SECTION).update(name, value, vscode.ConfigurationTarget.Global);

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
