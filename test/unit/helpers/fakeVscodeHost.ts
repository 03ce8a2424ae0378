/**
 * A tiny stand-in for the `vscode` module, enough for activate() and the tree
 * providers to run in plain node: the window-start test and `npm run bench`.
 * (The richer window fake of the tree and create-flow tests is separate.) Only what the
 * extension touches at activation and in its tree views behaves; the rest are
 * no-ops. `installFakeVscode()` makes `require('vscode')` answer this module.
 * Tests read and set `fake` (settings, secrets, registered views, commands).
 */
import Module from 'node:module';

import { Emitter as EventEmitter } from '../../../src/model/events';

// vscode.EventEmitter's shape is the model's Emitter's.
export { EventEmitter };

export class Disposable {
  static from(...items: Array<{ dispose(): unknown } | undefined>): Disposable {
    return new Disposable(() => items.forEach((item) => item?.dispose()));
  }
  constructor(private readonly onDispose?: () => void) {}
  dispose(): void {
    this.onDispose?.();
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  iconPath?: unknown;
  contextValue?: string;
  command?: unknown;
  accessibilityInformation?: unknown;
  constructor(
    public label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class MarkdownString {
  constructor(
    public value = '',
    public supportThemeIcons = false,
  ) {}
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
  appendText(value: string): this {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
    return this;
  }
}

export class CancellationError extends Error {}
export class FileSystemError extends Error {}
export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}
export class Range {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
}

export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 };
export const ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 };
export const QuickPickItemKind = { Separator: -1, Default: 0 };
export const StatusBarAlignment = { Left: 1, Right: 2 };
export const InputBoxValidationSeverity = { Info: 1, Warning: 2, Error: 3 };
export const QuickInputButtons = { Back: {} };
export const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 };
export const version = '1.100.0';

class FakeUri {
  constructor(readonly value: string) {}
  get fsPath(): string {
    return this.value.replace(/^file:\/\//, '');
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return this.value;
  }
}
export const Uri = {
  parse: (value: string) => new FakeUri(value),
  file: (path: string) => new FakeUri(`file://${path}`),
  from: (parts: { scheme: string; path?: string }) => new FakeUri(`${parts.scheme}:${parts.path ?? ''}`),
  joinPath: (base: FakeUri, ...segments: string[]) => new FakeUri([base.value, ...segments].join('/')),
};

/** What a test sets and reads. */
export const fake = {
  /** `section.key` → value (e.g. `deploymentsExplorer.baseUrl`). */
  settings: new Map<string, unknown>(),
  secrets: new Map<string, string>(),
  /** View ID → what createTreeView was given. */
  treeViews: new Map<string, { treeDataProvider: { getChildren(element?: unknown): unknown; getTreeItem(element: unknown): unknown } }>(),
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  contexts: new Map<string, unknown>(),
  configurationChanged: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
  reset(): void {
    this.settings.clear();
    this.secrets.clear();
    this.treeViews.clear();
    this.commands.clear();
    this.contexts.clear();
  },
};

const noopLog = () => undefined;
const resolved = <T>(value?: T) => Promise.resolve(value);
const event = () => ({ dispose() {} });

export const window = {
  createOutputChannel: () => ({
    trace: noopLog,
    debug: noopLog,
    info: noopLog,
    warn: noopLog,
    error: noopLog,
    append: noopLog,
    appendLine: noopLog,
    show: noopLog,
    dispose: noopLog,
  }),
  createTreeView: (id: string, options: { treeDataProvider: never }) => {
    fake.treeViews.set(id, options);
    const visibility = new EventEmitter<unknown>();
    return {
      visible: true,
      selection: [],
      description: undefined as string | undefined,
      message: undefined as string | undefined,
      onDidChangeVisibility: visibility.event,
      onDidChangeSelection: event,
      onDidExpandElement: event,
      onDidCollapseElement: event,
      reveal: () => resolved(),
      dispose: noopLog,
    };
  },
  withProgress: <T>(_options: unknown, task: (progress: unknown, token: unknown) => Promise<T>) =>
    task({ report: noopLog }, { isCancellationRequested: false, onCancellationRequested: event }),
  showInformationMessage: () => resolved(),
  showWarningMessage: () => resolved(),
  showErrorMessage: () => resolved(),
  showInputBox: () => resolved(),
  showQuickPick: () => resolved(),
  showTextDocument: () => resolved(),
  setStatusBarMessage: () => ({ dispose: noopLog }),
  createStatusBarItem: () => ({ show: noopLog, hide: noopLog, dispose: noopLog }),
  registerTreeDataProvider: () => ({ dispose: noopLog }),
  activeTextEditor: undefined,
  state: { focused: true },
  onDidChangeWindowState: event,
};

export const workspace = {
  isTrusted: true,
  onDidGrantWorkspaceTrust: event,
  getConfiguration: (section?: string) => {
    const name = (key: string) => (section ? `${section}.${key}` : key);
    return {
      get: <T>(key: string, fallback?: T): T | undefined => (fake.settings.has(name(key)) ? (fake.settings.get(name(key)) as T) : fallback),
      has: (key: string) => fake.settings.has(name(key)),
      inspect: (key: string) => ({ key: name(key), globalValue: fake.settings.get(name(key)) }),
      update: async (key: string, value: unknown) => {
        fake.settings.set(name(key), value);
        fake.configurationChanged.fire({ affectsConfiguration: (changed: string) => name(key).startsWith(changed) || changed.startsWith(name(key)) });
      },
    };
  },
  onDidChangeConfiguration: fake.configurationChanged.event,
  onDidCloseTextDocument: event,
  onDidOpenTextDocument: event,
  onDidChangeTextDocument: event,
  onDidChangeWorkspaceFolders: event,
  registerTextDocumentContentProvider: () => ({ dispose: noopLog }),
  registerFileSystemProvider: () => ({ dispose: noopLog }),
  openTextDocument: () => resolved(),
  textDocuments: [] as unknown[],
  workspaceFolders: undefined,
  fs: {},
};

export const commands = {
  registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
    fake.commands.set(id, run);
    return { dispose: () => void fake.commands.delete(id) };
  },
  executeCommand: async (id: string, ...args: unknown[]) => {
    if (id === 'setContext') {
      fake.contexts.set(args[0] as string, args[1]);
      return undefined;
    }
    return fake.commands.get(id)?.(...args);
  },
};

export const env = {
  language: 'en',
  clipboard: { writeText: () => resolved(), readText: () => resolved('') },
  openExternal: () => resolved(true),
};

export const extensions = { getExtension: () => undefined };
export const languages = { setTextDocumentLanguage: () => resolved() };

/** A memento over a Map (globalState, workspaceState). */
export function memento(): { get<T>(key: string, fallback?: T): T | undefined; update(key: string, value: unknown): Promise<void>; keys(): readonly string[] } {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void values.set(key, value),
    keys: () => [...values.keys()],
  };
}

/** An ExtensionContext with in-memory state and secrets (fake.secrets). */
export function extensionContext(): { subscriptions: Array<{ dispose(): unknown }> } & Record<string, unknown> {
  const secretsChanged = new EventEmitter<{ key: string }>();
  return {
    subscriptions: [],
    globalState: { ...memento(), setKeysForSync: noopLog },
    workspaceState: memento(),
    secrets: {
      get: async (key: string) => fake.secrets.get(key),
      store: async (key: string, value: string) => {
        fake.secrets.set(key, value);
        secretsChanged.fire({ key });
      },
      delete: async (key: string) => {
        fake.secrets.delete(key);
        secretsChanged.fire({ key });
      },
      onDidChange: secretsChanged.event,
    },
    extension: { packageJSON: { version: '0.0.0-fake' } },
    extensionUri: Uri.file('/fake-extension'),
    extensionPath: '/fake-extension',
    storageUri: undefined,
    globalStorageUri: Uri.file('/fake-storage'),
    logUri: Uri.file('/fake-log'),
  };
}

let installed = false;

/** From now on `require('vscode')` (in this process) answers this module. */
export function installFakeVscode(): void {
  if (installed) return;
  installed = true;
  const self = __filename;
  const moduleWithResolve = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const original = moduleWithResolve._resolveFilename;
  moduleWithResolve._resolveFilename = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return self;
    return original.call(this, request, ...rest);
  };
}

/** vscode.l10n.t with no translations loaded: the English text with `{0}` filled in. */
export const l10n = {
  t: (message: string, ...args: unknown[]): string => message.replace(/\{(\d+)\}/g, (all, index: string) => (args[Number(index)] === undefined ? all : String(args[Number(index)]))),
};
