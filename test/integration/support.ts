// What every extension-host suite needs: one shared before()/after() fixture
// (useSuiteFixture: the activated extension, a stand-in, notifications recorded
// instead of waiting for a click, and settings and the stored key put back as
// they were, since all suites share one VS Code), and polling.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension';
import { StandIn, type StandInOptions } from '../server/standIn';

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
 * Waits until the connection has taken in every settings, key and profile change made so far (the extension's
 * `settled()`), each of which resets the views' loaded data. A round trip to the workbench first: the change events
 * it sent before answering have then reached the extension host. `_quietMs` is no longer used (it was a quiet
 * period, which a loaded machine outlasts).
 */
export async function connectionSettled(api: ExtensionApi, _quietMs?: number): Promise<void> {
  await vscode.commands.executeCommand('setContext', 'deploymentsExplorer.test.roundTrip', true);
  await api.settled();
}

/**
 * Counts the connection's resets (each reloads the views) from now until `stop()`: a test that checks something
 * caused no reload waits for connectionSettled, then checks the count is 0.
 */
export function countConnectionResets(api: ExtensionApi): { readonly count: number; stop(): void } {
  let count = 0;
  const subscription = api.services.connection.onDidChange(() => count++);
  return {
    get count() {
      return count;
    },
    stop: () => subscription.dispose(),
  };
}

/** What a suite's tests use from the shared fixture; `api` and `standIn` exist once its `before()` has run. */
export interface SuiteFixture {
  readonly api: ExtensionApi;
  readonly standIn: StandIn;
  /** The notifications recorded instead of shown (cleared by the suite, usually in `beforeEach`). */
  readonly messages: MessageCapture;
  /** Adds an undo step to the shared `after()`: the last added runs first, all before the settings and key are put back. */
  onRestore(undo: () => unknown): void;
}

export interface SuiteFixtureOptions {
  /** The API key the suite's stand-in accepts; the extension is given it through the Set API Key command. */
  key: string;
  /** How the suite's stand-in listens (another loopback address, TLS), asked for in `before()`; default plain HTTP on 127.0.0.1. */
  standIn?: () => Omit<StandInOptions, 'apiKey'>;
  /** The notification levels recorded instead of shown (default: all); one shown would wait for a click that never comes. */
  capture?: readonly MessageLevel[];
  /**
   * The suite's own global settings, applied in this order after `discoverIntegrations: false` (background
   * discovery would send requests behind the tests' backs) and before `baseUrl` points at the stand-in.
   * Every one of them is snapshotted first and put back afterwards.
   */
  settings?: (standIn: StandIn) => Record<string, unknown>;
  /** Runs after activation and the stand-in's start, before any setting changes: intercepts go here, with their undo through `onRestore`. */
  prepare?: (fixture: SuiteFixture) => unknown;
}

/**
 * The one `before()`/`after()` pair every extension-host suite shares; call it
 * at the top of a `describe()`. Before: activates the extension, starts a
 * stand-in, records notifications, snapshots then applies the settings, stores
 * the key and waits until the connection is quiet. After: the undo steps, the
 * settings and key as they were, the repository cache emptied, the stand-in
 * closed. A suite's own hooks, declared after this call, run after these.
 */
export function useSuiteFixture(options: SuiteFixtureOptions): SuiteFixture {
  let api: ExtensionApi | undefined;
  let standIn: StandIn | undefined;
  const restores: (() => unknown)[] = [];
  const fixture: SuiteFixture = {
    get api() {
      if (!api) throw new Error('the suite fixture is used before its before() ran');
      return api;
    },
    get standIn() {
      if (!standIn) throw new Error('the suite fixture is used before its before() ran');
      return standIn;
    },
    messages: new MessageCapture(options.capture),
    onRestore: (undo) => void restores.push(undo),
  };

  before(async () => {
    api = await activateExtension();
    standIn = await StandIn.start({ ...options.standIn?.(), apiKey: options.key });
    fixture.messages.start();
    restores.push(() => fixture.messages.stop());
    const settings: Record<string, unknown> = { discoverIntegrations: false, ...options.settings?.(standIn), baseUrl: standIn.url };
    restores.push(await snapshotSettings(api, Object.keys(settings)));
    await options.prepare?.(fixture);
    for (const [name, value] of Object.entries(settings)) {
      await config().update(name, value, vscode.ConfigurationTarget.Global);
    }
    await useApiKey(api, options.key);
    // Let the connection's change events (which reset the views' data) land before the tests start.
    await connectionSettled(api);
  });

  after(async () => {
    for (const restore of restores.splice(0).reverse()) await restore();
    api?.services.catalog.invalidate();
    await standIn?.close();
  });

  return fixture;
}

/** Adds every line written to the extension's log, whatever the log level, to `logged` until the suite's restore. */
export function captureLog(api: ExtensionApi, logged: string[], onRestore: SuiteFixture['onRestore']): void {
  const log = api.services.log as unknown as Record<string, (...args: unknown[]) => void>;
  for (const name of ['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']) {
    const original = log[name];
    log[name] = function (this: unknown, ...args: unknown[]) {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(' '));
      return original.apply(this, args);
    };
    onRestore(() => (log[name] = original));
  }
}

/** Runs Check Connection and reads the report it opens (then closes it): what the command answered, and the text. */
export async function checkConnectionReport(): Promise<{ ok: unknown; text: string }> {
  const ok = await vscode.commands.executeCommand('deploymentsExplorer.checkConnection');
  const text = await waitFor('the report', () => {
    const document = vscode.window.activeTextEditor?.document;
    return document?.isUntitled && document.languageId === 'markdown' && document.getText().startsWith('# Deployments Explorer: connection check')
      ? document.getText()
      : undefined;
  });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  return { ok, text };
}

/** A row as a test compares it: its label, its command and the command's arguments. */
type ErrorRow = [label: string, command: string | undefined, args: unknown[]];

/** The error row of a view and the rows after it: label, command and its arguments; the error's message from the tooltip, as text. */
export function errorRows(items: vscode.TreeItem[]): { message: string; rows: ErrorRow[] } {
  const index = items.findIndex((item) => item.iconPath instanceof vscode.ThemeIcon && item.iconPath.id === 'error');
  if (index < 0) throw new Error(`no error row among ${items.map((item) => item.label).join(' | ')}`);
  const message = (items[index].tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
  const rows = items.slice(index).map((item) => [String(item.label), item.command?.command, item.command?.arguments ?? []] as ErrorRow);
  return { message, rows };
}

/** What a tool answered: its text parts joined, and the JSON block in them. */
export async function invokeTool(name: string, input: object, token?: vscode.CancellationToken): Promise<{ text: string; json: any }> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);
  const text = result.content
    .map((part) => {
      assert.ok(part instanceof vscode.LanguageModelTextPart, 'text parts only');
      return part.value;
    })
    .join('\n');
  const block = /```json\n([\s\S]*?)\n```/.exec(text);
  return { text, json: block ? JSON.parse(block[1]) : undefined };
}

