import vscode = require('vscode');
import { isErrorOf, messageOf } from '../../api/errors';
import { loadConnectionCheck } from '../../api/lazy';
import { connectionRedactor } from '../../api/text';
import { connectionReport, findingOf } from '../../model/connectionReport';
import { baseUrlProblem } from '../../api/baseUrl';
import { apiKeyInputProblem, originOf, tenantInputProblem } from '../../model/profileRules';
import { argumentOrInput, fixAction } from '../../platform/commandRunner';
import { Services } from '../../platform/services';
import { Commands } from '../../platform/commandIds';

/** Base URL, API key and tenant, and Check Connection: the commands the welcome views and error actions point at. */
export function registerConnectionCommands(services: Services): void {
  const { commands, connection, log } = services;
  registerCheckConnection(services);
  // `suggestion` pre-fills the input (an error's fix: the base URL with the API's path prefix).
  commands.register(Commands.setBaseUrl, async (value?: string, suggestion?: string) => {
    const url = await argumentOrInput(value, {
      title: vscode.l10n.t('Control-Plane Base URL'),
      prompt: vscode.l10n.t('Address of the deployment control-plane API. A path prefix such as /api-host is kept.'),
      placeHolder: 'https://api.example.com',
      value: typeof suggestion === 'string' ? suggestion : connection.profile().baseUrl,
      validateInput: baseUrlProblem,
    });
    if (url === undefined) return;
    const problem = baseUrlProblem(url);
    if (problem) throw new Error(problem);
    // Typed in by the user for this profile: its key may go there without asking again.
    const profile = connection.profile();
    const origin = originOf(url);
    if (origin && (await connection.profiles.storedKey(profile.id))) await connection.profiles.answer(profile.id, origin, true);
    await connection.profiles.updateActive('baseUrl', url.trim());
  });

  commands.register(Commands.setApiKey, async (value?: string) => {
    // The key is for the profile active when the command started, whatever happens while it is typed.
    const profile = connection.profile();
    const several = connection.profiles.list().length > 1;
    const key = await argumentOrInput(value, {
      title: several ? vscode.l10n.t('API Key of Profile “{0}”', profile.name) : vscode.l10n.t('Control-Plane API Key'),
      prompt: vscode.l10n.t('Stored in VS Code’s secret storage; never written to settings or logs.'),
      password: true,
      validateInput: apiKeyInputProblem,
    });
    if (key === undefined || !key.trim()) return;
    // A key given as the command's argument was not checked as typed.
    const problem = apiKeyInputProblem(key);
    if (problem) throw new Error(problem);
    // Bound to where the profile's requests go now.
    const current = connection.profiles.list().find((candidate) => candidate.id === profile.id);
    if (!current) throw new Error(vscode.l10n.t('The profile this key was typed for no longer exists; nothing was stored.'));
    const origin = originOf(connection.profiles.effective(current).baseUrl);
    await connection.profiles.storeKey(current.id, key, origin);
    log.info(`API key of profile ${profile.name} stored in secret storage`);
    if (!origin) {
      // Nothing to check it against yet (first run: the key before the base URL).
      void vscode.window.showInformationMessage(vscode.l10n.t('API key saved. Set the base URL to use it.'));
      return 'saved';
    }
    // One cheap request says whether the key works, rather than "saved" beside a 401.
    try {
      await commands.withProgress(vscode.l10n.t('Checking the API key…'), (signal) => connection.checkKey(profile, key.trim(), signal));
      void vscode.window.showInformationMessage(vscode.l10n.t('API key saved and accepted.'));
      return 'accepted';
    } catch (error) {
      const refused = isErrorOf(error, 'auth');
      log.warn(`The API key of profile ${profile.name} was stored, but the check failed: ${messageOf(error)}`);
      if (refused && error.needsTenant) {
        // Not the key's fault: another key would be refused the same way.
        const tenant = connection.profiles.effective(current).tenantId.trim();
        const { title, command } = fixAction({ kind: 'setTenant' });
        const message = tenant
          ? vscode.l10n.t('API key saved, but the control plane refused it with the tenant {0}: {1}', tenant, error.detail ?? '')
          : vscode.l10n.t('API key saved. The control plane wants a tenant (workspace) ID with it: {0}', error.detail ?? '');
        void Promise.resolve(vscode.window.showWarningMessage(message, title)).then((choice) => {
          if (choice === title && command) void vscode.commands.executeCommand(command.command);
        });
        return 'refused';
      }
      void vscode.window.showWarningMessage(
        refused
          ? vscode.l10n.t('API key saved, but the control plane refused it: {0}', messageOf(error))
          : vscode.l10n.t('API key saved, but it could not be checked: {0}', messageOf(error)),
      );
      return refused ? 'refused' : 'unchecked';
    }
  });

  commands.register(Commands.clearApiKey, async () => {
    await connection.profiles.clearKey(connection.profile().id);
    log.info('API key removed from secret storage');
    const stillSet = await connection.apiKeys.get();
    void vscode.window.showInformationMessage(
      stillSet
        ? vscode.l10n.t('API key removed from secret storage. The DEPLOYMENTS_EXPLORER_API_KEY environment variable still provides one.')
        : vscode.l10n.t('API key removed.'),
    );
  });

  commands.register(Commands.setTenantId, async (value?: string) => {
    const tenant = await argumentOrInput(value, {
      title: vscode.l10n.t('Tenant (Workspace) ID'),
      prompt: vscode.l10n.t('Sent with every request for organisation-scoped API keys. Leave empty to send none.'),
      value: connection.profile().tenantId,
      validateInput: tenantInputProblem,
    });
    if (tenant === undefined) return;
    await connection.profiles.updateActive('tenantId', tenant.trim() || undefined);
  });

  commands.register(Commands.openSettings, () =>
    vscode.commands.executeCommand('workbench.action.openSettings', '@ext:deployments-explorer.deployments-explorer'),
  );
  commands.register(Commands.showLog, () => log.show());
}

/**
 * Check Connection: tries the active profile's control plane step by step (api/connectionCheck) and opens the
 * report (model/connectionReport) as an untitled Markdown document a user can paste into a support ticket.
 * Answers whether the control plane answered.
 */
function registerCheckConnection({ commands, connection, log }: Services): void {
  commands.register(Commands.checkConnection, async () => {
    const { options, settings, ...facts } = await connection.checkTarget();
    const steps = {
      dns: vscode.l10n.t('Looking up the host name…'),
      probe: vscode.l10n.t('Connecting…'),
      listing: vscode.l10n.t('Listing call…'),
    };
    const check = await commands.withProgress(vscode.l10n.t('Checking the connection…'), (signal, progress) =>
      loadConnectionCheck().checkConnection(options, settings, (step) => progress.report({ message: steps[step] }), signal),
    );
    const context = { ...facts, userAgent: options.userAgent ?? '', time: new Date() };
    // The report holds no secret by construction; the redactor is the second net, as for every message.
    const redactor = connectionRedactor(options);
    const finding = findingOf(check, context);
    log.info(`Check Connection: ${redactor.text(finding.ok ? 'the control plane answered' : finding.cause)}`);
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: redactor.text(connectionReport(check, context)) });
    await vscode.window.showTextDocument(document, { preview: false });
    return finding.ok;
  });
}
