import vscode = require('vscode');
import { invalidInput, messageOf } from '../../api/errors';
import type { IntegrationSetting } from '../../model/repositoryCatalog';
import { Services } from '../../platform/services';
import { isCancellation } from '../../platform/commandRunner';
import { fixActionsFor, isConnectionFix } from '../../model/fixActions';
import { integrationIdProblem, parseIntegrationId } from '../../model/integrationId';
import { Commands } from '../../platform/commandIds';

/**
 * "Add Integration…": an ID (validated as typed), an optional label, a check with the repository
 * listing, then settings. A failed check keeps what was typed: "Edit" goes back to the inputs, "Add
 * Anyway" saves it unverified. Tests pass the ID and label as arguments instead of typing them.
 */
export function registerAddIntegration(services: Services, reveal: (integrationId: string) => Promise<unknown>): void {
  services.commands.register(
    Commands.addIntegration,
    // Answers the integration, `verified` false when it was saved although the check failed ("Add Anyway").
    async (idArgument?: unknown, labelArgument?: unknown) => {
      const given = { id: typeof idArgument === 'string' ? idArgument : '', label: typeof labelArgument === 'string' ? labelArgument : '' };
      for (let draft = typeof idArgument === 'string' ? given : await askForIntegration(given); draft; draft = await askForIntegration(draft)) {
        const parsed = parseIntegrationId(draft.id);
        if ('problem' in parsed) throw invalidInput('integration ID', parsed.problem);
        const setting: IntegrationSetting = draft.label.trim() ? { id: parsed.id, label: draft.label.trim() } : { id: parsed.id };

        const existing = services.connection.profiles.integrations().find((entry) => entry.id.toLowerCase() === parsed.id);
        if (existing) {
          void vscode.window.showInformationMessage(vscode.l10n.t('Integration {0} is already in your integrations.', existing.label ?? existing.id));
          await reveal(parsed.id);
          return { ...setting, verified: services.catalog.state(parsed.id).status === 'loaded' };
        }

        const check = await checkIntegration(services, parsed.id);
        if (check === 'edit') continue;
        if (!check) return undefined;
        await services.connection.profiles.setIntegrations([...services.connection.profiles.integrations(), setting]);
        services.log.info(`Integration ${parsed.id} added${check === 'ok' ? '' : ' without a successful check'}`);
        await reveal(parsed.id);
        return { ...setting, verified: check === 'ok' };
      }
      return undefined;
    },
  );
}

async function askForIntegration(draft: { id: string; label: string }): Promise<{ id: string; label: string } | undefined> {
  const id = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Integration (1/2): Integration ID'),
    prompt: vscode.l10n.t('The UUID of the code-host integration, as the control plane shows it.'),
    placeHolder: '3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b',
    value: draft.id,
    ignoreFocusOut: true,
    validateInput: (text) => (text.trim() ? integrationIdProblem(text) : undefined),
  });
  if (id === undefined) return undefined;
  const problem = integrationIdProblem(id);
  if (problem) {
    // An empty entry (the only one validateInput lets through) comes back here.
    void vscode.window.showWarningMessage(problem);
    return askForIntegration({ ...draft, id });
  }
  const label = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Integration (2/2): Label (optional)'),
    prompt: vscode.l10n.t('A name to show instead of the ID. Leave empty to show the ID.'),
    value: draft.label,
    ignoreFocusOut: true,
  });
  return label === undefined ? undefined : { id, label };
}

/**
 * Lists the repositories once (the result lands in the shared cache the tree uses). A failure asks
 * what to do: Add Anyway, Edit, or a fix of the connection (then Edit). Undefined: cancelled.
 */
async function checkIntegration(services: Services, integrationId: string): Promise<'ok' | 'addAnyway' | 'edit' | undefined> {
  services.catalog.invalidate(integrationId);
  try {
    await services.commands.withProgress(vscode.l10n.t('Checking integration {0}…', integrationId), (signal) =>
      services.catalog.repositories(integrationId, signal),
    );
    return 'ok';
  } catch (error) {
    if (isCancellation(error)) return undefined;
    const message = messageOf(error);
    services.log.warn(`Integration ${integrationId} could not be checked: ${message}`);
    const addAnyway = vscode.l10n.t('Add Anyway');
    const edit = vscode.l10n.t('Edit');
    const text = vscode.l10n.t('Integration {0} could not be checked: {1}', integrationId, message.split('\n').join(' '));
    const choice = await services.commands.ask(text, fixActionsFor(error).filter(isConnectionFix), addAnyway, edit);
    if (typeof choice === 'object') await services.commands.runAction(choice);
    return typeof choice === 'object' || choice === edit ? 'edit' : choice === addAnyway ? 'addAnyway' : undefined;
  }
}
