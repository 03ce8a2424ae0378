// What every extension-host suite needs: the activated extension, polling,
// notifications recorded instead of waiting for a click, and settings and the
// stored key put back as they were, since all suites share one VS Code.
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';

export const EXTENSION_ID = 'deployments-explorer.deployments-explorer';
export const SECTION = 'deploymentsExplorer';
const API_KEY_SECRET = 'deploymentsExplorer.apiKey';

export const config = () => vscode.workspace.getConfiguration(SECTION);

export async function activateExtension(): Promise<ExtensionApi> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  return (await extension.activate()) as ExtensionApi;
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export type MessageLevel = 'error' | 'warning' | 'info';
export type Shown = { level: MessageLevel; message: string; actions: string[] };

const MESSAGE_FUNCTIONS = [
  ['showErrorMessage', 'error'],
  ['showWarningMessage', 'warning'],
  ['showInformationMessage', 'info'],
] as const;

/**
 * Records the notifications of the given levels instead of showing them, from
 * `start()` to `stop()`, and answers each with the next queued answer of its
 * level (none = dismissed).
 */
export class MessageCapture {
  readonly shown: Shown[] = [];
  readonly answers: Record<MessageLevel, (string | undefined)[]> = { error: [], warning: [], info: [] };
  private originals: Array<[string, unknown]> = [];

  constructor(private readonly levels: readonly MessageLevel[] = ['error', 'warning', 'info']) {}

  start(): void {
    const window = vscode.window as unknown as Record<string, unknown>;
    for (const [name, level] of MESSAGE_FUNCTIONS) {
      if (!this.levels.includes(level)) continue;
      this.originals.push([name, window[name]]);
      window[name] = async (message: string, ...rest: unknown[]) => {
        this.shown.push({ level, message, actions: rest.filter((r): r is string => typeof r === 'string') });
        return this.answers[level].shift();
      };
    }
  }

  stop(): void {
    const window = vscode.window as unknown as Record<string, unknown>;
    for (const [name, original] of this.originals) window[name] = original;
    this.originals = [];
  }

  clear(): void {
    this.shown.length = 0;
    this.answers.error.length = this.answers.warning.length = this.answers.info.length = 0;
  }
}

/** Remembers the global values of `settings` and the stored API key; the answer puts them back. */
export async function snapshotSettings(api: ExtensionApi, settings: readonly string[]): Promise<() => Promise<void>> {
  const values = settings.map((name) => [name, config().inspect(name)?.globalValue] as const);
  const key = await api.services.context.secrets.get(API_KEY_SECRET);
  return async () => {
    for (const [name, value] of [...values].reverse()) {
      await config().update(name, value, vscode.ConfigurationTarget.Global);
    }
    if (key) await api.services.context.secrets.store(API_KEY_SECRET, key);
    else await api.services.context.secrets.delete(API_KEY_SECRET);
  };
}

/**
 * Stores `key` through the command and waits until the connection uses it. Always stored, even
 * when unchanged: storing binds the key to where requests go now (each suite's stand-in has its
 * own port, and a key goes only to the origin it was stored for).
 */
export async function useApiKey(api: ExtensionApi, key: string): Promise<void> {
  const reset = new Promise<void>((resolve) => {
    const subscription = api.services.connection.onDidChange(() => {
      subscription.dispose();
      resolve();
    });
  });
  await vscode.commands.executeCommand('deploymentsExplorer.setApiKey', key);
  await Promise.race([
    reset,
    new Promise((_, reject) => setTimeout(() => reject(new Error('the connection did not pick up the key')), 10000)),
  ]);
}

/**
 * Waits until the connection has been quiet for a moment: settings and key
 * changes reach it as events, each of which resets the views' loaded data.
 */
export async function connectionSettled(api: ExtensionApi, quietMs = 400): Promise<void> {
  let lastChange = Date.now();
  const subscription = api.services.connection.onDidChange(() => (lastChange = Date.now()));
  try {
    await waitFor('the connection to settle', () => Date.now() - lastChange > quietMs);
  } finally {
    subscription.dispose();
  }
}
