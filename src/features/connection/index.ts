import * as vscode from 'vscode';
import { baseUrlProblem, originOf } from '../../model/profiles';
import { Services } from '../../platform/services';

/** Base URL, API key and tenant: the commands the welcome views and error actions point at. */
export function registerConnectionCommands({ commands, connection, log }: Services): void {
  commands.register('deploymentsExplorer.setBaseUrl', async (value?: string) => {
    const url = await argumentOrInput(value, {
      title: 'Control-Plane Base URL',
      prompt: 'Address of the deployment control-plane API. A path prefix such as /api-host is kept.',
      placeHolder: 'https://api.example.com',
      value: connection.profile().baseUrl,
      validateInput: validateBaseUrl,
    });
    if (url === undefined) return;
    const problem = validateBaseUrl(url);
    if (problem) throw new Error(problem);
    // Typed in by the user for this profile: its key may go there without asking again.
    const profile = connection.profile();
    const origin = originOf(url);
    if (origin && (await connection.profiles.storedKey(profile.id))) await connection.profiles.answer(profile.id, origin, true);
    await connection.profiles.updateActive('baseUrl', url.trim());
  });

  commands.register('deploymentsExplorer.setApiKey', async (value?: string) => {
    // The key is for the profile active when the command started, whatever happens while it is typed.
    const profile = connection.profile();
    const several = connection.profiles.list().length > 1;
    const key = await argumentOrInput(value, {
      title: several ? vscode.l10n.t('API Key of Profile “{0}”', profile.name) : 'Control-Plane API Key',
      prompt: 'Stored in VS Code’s secret storage; never written to settings or logs.',
      password: true,
      validateInput: (text) => (text.trim() ? undefined : 'Enter the API key, or press Escape to cancel.'),
    });
    if (key === undefined || !key.trim()) return;
    await connection.apiKeys.set(key, profile.id);
    log.info(`API key of profile ${profile.name} stored in secret storage`);
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
      value: connection.profile().tenantId,
    });
    if (tenant === undefined) return;
    await connection.profiles.updateActive('tenantId', tenant.trim() || undefined);
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

export const validateBaseUrl = baseUrlProblem;
