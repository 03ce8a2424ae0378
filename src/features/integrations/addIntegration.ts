import vscode = require('vscode');
import { InvalidInputError, messageOf } from '../../api/errors';
import type { IntegrationSetting } from '../../model/repositoryCatalog';
import { Services } from '../../platform/services';
import { isCancellation } from '../../platform/commandRunner';
import { fixActionsFor, isConnectionFix } from '../../model/fixActions';
import { integrationIdProblem, parseIntegrationId } from '../../model/integrationId';
import { Commands } from '../../platform/commandIds';

interface AddIntegrationResult {
  id: string;
  label?: string;
  /** False when it was saved although the probe failed ("Add Anyway"). */
  verified: boolean;
}

/**
 * "Add Integration…": an ID (validated as typed), an optional label, a probe
 * with the repository listing, then settings. A failed probe keeps what was
 * typed: "Edit" goes back to the inputs, "Add Anyway" saves it unverified.
 * Tests pass the ID and label as arguments instead of typing them.
 */
export function registerAddIntegration(services: Services, reveal: (integrationId: string) => Promise<void>): void {
  services.commands.register(
    Commands.addIntegration,
    async (idArgument?: unknown, labelArgument?: unknown): Promise<AddIntegrationResult | undefined> => {
      let draft = { id: typeof idArgument === 'string' ? idArgument : '', label: typeof labelArgument === 'string' ? labelArgument : '' };
      let prompt = typeof idArgument !== 'string';
      for (;;) {
        if (prompt) {
          const typed = await askForIntegration(draft);
          if (!typed) return undefined;
          draft = typed;
        }
        const parsed = parseIntegrationId(draft.id);
        if ('problem' in parsed) throw new InvalidInputError('integration ID', parsed.problem);
        const setting: IntegrationSetting = draft.label.trim() ? { id: parsed.id, label: draft.label.trim() } : { id: parsed.id };

        const existing = services.connection.profiles.integrations().find((entry) => entry.id.toLowerCase() === parsed.id);
        if (existing) {
          void vscode.window.showInformationMessage(vscode.l10n.t('Integration {0} is already in your integrations.', existing.label ?? existing.id));
          await reveal(parsed.id);
          return { ...setting, verified: services.catalog.state(parsed.id).status === 'loaded' };
        }

        const probe = await probeIntegration(services, parsed.id);
        if (probe === 'cancelled') return undefined;
        if (probe !== 'ok') {
          const choice = await askAfterFailedProbe(services, parsed.id, probe.error);
          if (choice === 'Edit') {
            prompt = true;
            continue;
          }
          if (choice !== 'Add Anyway') return undefined;
        }
        await services.connection.profiles.setIntegrations([...services.connection.profiles.integrations(), setting]);
        services.log.info(`Integration ${parsed.id} added${probe === 'ok' ? '' : ' without a successful check'}`);
        await reveal(parsed.id);
        return { ...setting, verified: probe === 'ok' };
      }
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
  if (label === undefined) return undefined;
  return { id, label };
}

/** Lists the repositories once (the result lands in the shared cache the tree uses). */
async function probeIntegration(services: Services, integrationId: string): Promise<'ok' | 'cancelled' | { error: unknown }> {
  services.catalog.invalidate(integrationId);
  try {
    await services.commands.withProgress(vscode.l10n.t('Checking integration {0}…', integrationId), (signal) =>
      services.catalog.repositories(integrationId, signal),
    );
    return 'ok';
  } catch (error) {
    if (isCancellation(error)) return 'cancelled';
    return { error };
  }
}

async function askAfterFailedProbe(services: Services, integrationId: string, error: unknown): Promise<'Edit' | 'Add Anyway' | undefined> {
  const message = messageOf(error);
  services.log.warn(`Integration ${integrationId} could not be checked: ${message}`);
  const fixes = fixActionsFor(error).filter(isConnectionFix);
  const addAnyway = vscode.l10n.t('Add Anyway');
  const edit = vscode.l10n.t('Edit');
  const choice = await services.commands.ask(
    vscode.l10n.t('Integration {0} could not be checked: {1}', integrationId, message.split('\n').join(' ')),
    fixes,
    addAnyway,
    edit,
  );
  if (typeof choice === 'object') {
    await services.commands.runAction(choice);
    return 'Edit';
  }
  return choice === addAnyway ? 'Add Anyway' : choice === edit ? 'Edit' : undefined;
}
