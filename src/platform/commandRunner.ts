import * as vscode from 'vscode';
import { AuthError, CancelledError, InvalidInputError, isControlPlaneError, messageOf } from '../api/errors';
import { SECTION } from './settings';

/** The next steps offered with an error, by what would fix it. */
export function errorActions(error: unknown): string[] {
  if (!isControlPlaneError(error)) return ['Show Log'];
  switch (error.kind) {
    case 'auth':
      return error instanceof AuthError && error.needsTenant
        ? ['Set Tenant ID…', 'Set API Key…']
        : ['Set API Key…', 'Set Tenant ID…'];
    case 'invalidInput': {
      const parameter = (error as InvalidInputError).parameter;
      return ['base URL', 'CA file', 'proxy'].includes(parameter) ? ['Open Settings'] : [];
    }
    case 'network':
      return ['Retry', 'Open Settings', 'Show Log'];
    case 'timeout':
    case 'server':
    case 'rateLimited':
    case 'invalidResponse':
      return ['Retry', 'Show Log'];
    case 'schema':
      return ['Show Log'];
    default:
      return ['Show Log'];
  }
}

export function isCancellation(error: unknown): boolean {
  return error instanceof CancelledError || error instanceof vscode.CancellationError;
}

/**
 * Every command goes through this: it logs, turns failures into a message
 * with a next step, and treats cancellation as the user's choice, not an error.
 */
export class CommandRunner {
  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {}

  register(id: string, handler: (...args: any[]) => unknown): void {
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

  /** Shows `error` with its actions; `retry` runs again when the user asks. */
  async showError(error: unknown, retry?: () => unknown, source?: string): Promise<void> {
    if (isCancellation(error)) {
      this.log.info(`${source ?? 'Operation'} cancelled`);
      return;
    }
    const message = messageOf(error);
    this.log.error(`${source ? `${source}: ` : ''}${message}`);
    if (!isControlPlaneError(error)) this.log.error(error instanceof Error && error.stack ? error.stack : message);
    const actions = errorActions(error).filter((action) => action !== 'Retry' || retry);
    // Notifications are one line; the full text (e.g. every 422 reason) is in the modal detail and the log.
    const [first, ...rest] = message.split('\n');
    const text = rest.length > 0 ? `${first} ${rest.join('; ')}` : first;
    const choice = await vscode.window.showErrorMessage(text, ...actions);
    await this.runAction(choice, retry);
  }

  async runAction(choice: string | undefined, retry?: () => unknown): Promise<void> {
    switch (choice) {
      case 'Retry':
        await retry?.();
        break;
      case 'Set API Key…':
        await vscode.commands.executeCommand('deploymentsExplorer.setApiKey');
        break;
      case 'Set Tenant ID…':
        await vscode.commands.executeCommand('deploymentsExplorer.setTenantId');
        break;
      case 'Open Settings':
        await vscode.commands.executeCommand('workbench.action.openSettings', SECTION);
        break;
      case 'Show Log':
        this.log.show(true);
        break;
    }
  }

  /**
   * Runs network work with progress and cancellation: the token becomes the
   * AbortSignal the API client takes.
   */
  withProgress<T>(
    title: string,
    task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>,
    location: vscode.ProgressLocation | { viewId: string } = vscode.ProgressLocation.Notification,
  ): Promise<T> {
    return Promise.resolve(vscode.window.withProgress({ location, title, cancellable: location === vscode.ProgressLocation.Notification }, (progress, token) =>
      task(signalFor(token), progress),
    ));
  }
}

export function signalFor(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
