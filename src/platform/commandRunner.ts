import vscode = require('vscode');
import { isControlPlaneError, isErrorOf, messageOf } from '../api/errors';
import { FixAction, FixActionKind, fixActionsFor } from '../model/fixActions';
import { CommandId, Commands } from './commandIds';
import { SECTION } from './settings';

/** The one table of fix actions: the label notification buttons and tree rows show, and the command it runs (none for Retry: the caller's). */
export function fixAction(action: FixAction): { title: string; command?: vscode.Command } {
  const table: Record<FixActionKind, [title: string, command?: string]> = {
    retry: [vscode.l10n.t('Retry')],
    setApiKey: [vscode.l10n.t('Set API Key…'), Commands.setApiKey],
    setTenant: [vscode.l10n.t('Set Tenant ID…'), Commands.setTenantId],
    openSettings: [vscode.l10n.t('Open Settings'), 'workbench.action.openSettings'],
    showLog: [vscode.l10n.t('Show Log'), Commands.showLog],
    checkConnection: [vscode.l10n.t('Check Connection'), Commands.checkConnection],
    setBaseUrl: [vscode.l10n.t('Set Base URL…'), Commands.setBaseUrl],
  };
  const [title, command] = table[action.kind];
  const args = action.kind === 'openSettings' ? [action.setting ?? SECTION] : action.kind === 'setBaseUrl' ? [undefined, action.suggestion] : undefined;
  return { title, command: command === undefined ? undefined : { command, title, arguments: args } };
}

/** A warning whose button opens `setting` in the Settings editor. */
export function warnWithSettingsButton(message: string, setting: string): void {
  const open = vscode.l10n.t('Open Settings');
  void Promise.resolve(vscode.window.showWarningMessage(message, open)).then((choice) => {
    if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
  });
}

/** A command's text argument (scripts, tests), or what the user types; undefined when cancelled. */
export async function argumentOrInput(value: unknown, options: vscode.InputBoxOptions): Promise<string | undefined> {
  return typeof value === 'string' ? value : vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
}

export function isCancellation(error: unknown): boolean {
  return isErrorOf(error, 'cancelled') || error instanceof vscode.CancellationError;
}

/**
 * Every command goes through this: it logs, turns failures into a message with a next step, and treats
 * cancellation as the user's choice, not an error.
 */
export class CommandRunner {
  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {}

  register(id: CommandId, handler: (...args: any[]) => unknown): void {
    const run = async (...args: unknown[]): Promise<unknown> => {
      try {
        return await handler(...args);
      } catch (error) {
        await this.showError(error, () => run(...args), id);
        return undefined;
      }
    };
    this.context.subscriptions.push(vscode.commands.registerCommand(id, run));
  }

  /** Shows `error` with its fix actions; `retry` runs again when the user asks; `first` is an extra action put before the fixes. */
  async showError(error: unknown, retry?: () => unknown, source?: string, first?: { label: string; run: () => unknown }): Promise<void> {
    if (isCancellation(error)) {
      this.log.info(`${source ?? 'Operation'} cancelled`);
      return;
    }
    const message = messageOf(error);
    this.log.error(`${source ? `${source}: ` : ''}${message}`);
    if (!isControlPlaneError(error)) this.log.error(error instanceof Error && error.stack ? error.stack : message);
    const actions = fixActionsFor(error).filter((action) => action.kind !== 'retry' || retry);
    // Notifications are one line: the message's other lines (e.g. every 422 reason) follow the first; the log keeps them apart.
    const [line, ...rest] = message.split('\n');
    const text = rest.length > 0 ? `${line} ${rest.join('; ')}` : line;
    const choice = await this.ask(text, actions, ...(first ? [first.label] : []));
    if (first && choice === first.label) await first.run();
    else if (choice && typeof choice === 'object') await this.runAction(choice, retry);
  }

  /** Shows an error notification whose buttons are `actions`, plus `extra` plain choices; answers the one picked. */
  async ask<T extends string = never>(text: string, actions: readonly FixAction[], ...extra: T[]): Promise<FixAction | T | undefined> {
    const labels = actions.map((action) => fixAction(action).title);
    const choice = await vscode.window.showErrorMessage(text, ...extra, ...labels);
    if (choice === undefined) return undefined;
    const index = labels.indexOf(choice);
    return index >= 0 ? actions[index] : (choice as T);
  }

  async runAction(action: FixAction, retry?: () => unknown): Promise<void> {
    const { command } = fixAction(action);
    if (action.kind === 'retry') await retry?.();
    else if (action.kind === 'showLog') this.log.show(true);
    else if (command) await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
  }

  /** Runs network work with progress and cancellation: the token becomes the AbortSignal the API client takes. */
  withProgress<T>(title: string, task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>): Promise<T> {
    const options = { location: vscode.ProgressLocation.Notification, title, cancellable: true };
    return Promise.resolve(
      vscode.window.withProgress(options, (progress, token) => {
        const cancel = new AbortController();
        token.onCancellationRequested(() => cancel.abort());
        return task(cancel.signal, progress);
      }),
    );
  }
}
