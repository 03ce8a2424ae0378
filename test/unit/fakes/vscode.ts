// A small working fake of the parts of the `vscode` API the tree providers,
// the multi-step input and the create flow use, so their logic runs under
// `node --test` without the extension host. Load it with `import './fakes/register'`
// before the code under test: `require('vscode')` then answers this module.
//
// Fakes, not mocks (the AWS Toolkit's test guidance): the pieces behave like
// VS Code's (a quick pick filters, has an active item, accepts it on Enter, hides
// the previous one when shown; settings are read back as written), tests drive
// them as a person would (type, pick, press Back or Escape, answer a message)
// and assert on what a person would see. Nothing here checks call counts.
// `resetFake()` gives every test a fresh window, settings and command table.

/* ---------------------------------------------------------------- basics */

export class Disposable {
  static from(...items: ReadonlyArray<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => {
      for (const item of items) item.dispose();
    });
  }
  private disposed = false;
  constructor(private readonly onDispose: () => unknown) {}
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.onDispose();
  }
}

export type Event<T> = (listener: (value: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class EventEmitter<T> {
  private readonly listeners = new Set<(value: T) => unknown>();
  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs ? listener.bind(thisArgs) : listener;
    this.listeners.add(bound);
    const subscription = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(subscription);
    return subscription;
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

export class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

export interface CancellationToken {
  isCancellationRequested: boolean;
  onCancellationRequested: Event<void>;
}

export class CancellationTokenSource {
  private readonly cancelled = new EventEmitter<void>();
  readonly token: CancellationToken = { isCancellationRequested: false, onCancellationRequested: this.cancelled.event };
  cancel(): void {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    this.cancelled.fire();
  }
  dispose(): void {
    this.cancelled.dispose();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static from(components: { scheme: string; path?: string }): Uri {
    return new Uri(components.scheme, components.path ?? '');
  }
  static parse(value: string): Uri {
    const colon = value.indexOf(':');
    return colon > 0 ? new Uri(value.slice(0, colon), value.slice(colon + 1).replace(/^\/\//, '')) : new Uri('file', value);
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return this.scheme === 'file' ? `file://${this.path}` : `${this.scheme}:${this.path}`;
  }
}

/* ----------------------------------------------------------- tree pieces */

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString {
  constructor(
    public value = '',
    public supportThemeIcons = false,
  ) {}
  /** Plain text: markdown syntax escaped, as VS Code does, so it shows literally. */
  appendText(text: string): MarkdownString {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&').replace(/\n/g, '\n\n');
    return this;
  }
  appendMarkdown(markdown: string): MarkdownString {
    this.value += markdown;
    return this;
  }
}

export interface Command {
  command: string;
  title: string;
  arguments?: unknown[];
}

export class TreeItem {
  label?: string;
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  iconPath?: ThemeIcon;
  contextValue?: string;
  command?: Command;
  accessibilityInformation?: { label: string; role?: string };
  constructor(
    label: string,
    public collapsibleState: TreeItemCollapsibleState = TreeItemCollapsibleState.None,
  ) {
    this.label = label;
  }
}

/* ----------------------------------------------------------- quick input */

export interface QuickInputButton {
  iconPath: ThemeIcon;
  tooltip?: string;
}

export const QuickInputButtons = { Back: { iconPath: new ThemeIcon('arrow-left'), tooltip: 'Back' } as QuickInputButton };

export enum QuickPickItemKind {
  Separator = -1,
  Default = 0,
}

export enum InputBoxValidationSeverity {
  Info = 1,
  Warning = 2,
  Error = 3,
}

export interface QuickPickItem {
  label: string;
  kind?: QuickPickItemKind;
  description?: string;
  detail?: string;
}

/** What the quick input shows and what a person can do with it. */
abstract class FakeQuickInput {
  title: string | undefined;
  step: number | undefined;
  totalSteps: number | undefined;
  enabled = true;
  busy = false;
  ignoreFocusOut = false;
  placeholder: string | undefined;
  buttons: readonly QuickInputButton[] = [];
  visible = false;
  disposed = false;
  protected _value = '';

  private readonly hidden = new EventEmitter<void>();
  readonly onDidHide = this.hidden.event;
  protected readonly accepted = new EventEmitter<void>();
  readonly onDidAccept = this.accepted.event;
  private readonly triggered = new EventEmitter<QuickInputButton>();
  readonly onDidTriggerButton = this.triggered.event;
  private readonly valueChanged = new EventEmitter<string>();
  readonly onDidChangeValue = this.valueChanged.event;

  constructor(private readonly host: FakeWindow) {}

  get value(): string {
    return this._value;
  }
  set value(value: string) {
    this._value = value;
  }

  show(): void {
    if (this.disposed || this.visible) return;
    this.host.showing(this as unknown as FakeInputBox | FakeQuickPick<QuickPickItem>);
    this.visible = true;
  }

  hide(): void {
    if (!this.visible) return;
    this.visible = false;
    this.host.hiding(this);
    this.hidden.fire();
  }

  dispose(): void {
    if (this.disposed) return;
    this.hide();
    this.disposed = true;
    for (const emitter of [this.hidden, this.accepted, this.triggered, this.valueChanged]) emitter.dispose();
  }

  /** The title bar as shown, e.g. "Create Deployment (2/6)". */
  get titleText(): string {
    return this.totalSteps && this.totalSteps > 1 ? `${this.title} (${this.step}/${this.totalSteps})` : (this.title ?? '');
  }

  get hasBackButton(): boolean {
    return this.buttons.includes(QuickInputButtons.Back);
  }

  /* What a person does. */

  /** Replaces the text in the box, as typing does. */
  type(value: string): void {
    this.assertUsable();
    this._value = value;
    this.valueChanged.fire(value);
  }

  /** Enter. */
  accept(): void {
    this.assertUsable();
    this.accepted.fire();
  }

  pressBack(): void {
    this.assertUsable();
    if (!this.hasBackButton) throw new Error(`“${this.titleText}” shows no Back button`);
    this.triggered.fire(QuickInputButtons.Back);
  }

  /** Escape (or a click elsewhere without ignoreFocusOut). */
  escape(): void {
    this.hide();
  }

  protected assertUsable(): void {
    if (!this.visible) throw new Error(`“${this.titleText}” is not showing`);
  }
}

export class FakeInputBox extends FakeQuickInput {
  readonly kind = 'inputBox';
  prompt: string | undefined;
  password = false;
  validationMessage: string | { message: string; severity: InputBoxValidationSeverity } | undefined;

  /** The validation message as shown under the box. */
  get validationText(): string | undefined {
    const message = this.validationMessage;
    return typeof message === 'string' ? message : message?.message;
  }
}

export class FakeQuickPick<T extends QuickPickItem> extends FakeQuickInput {
  readonly kind = 'quickPick';
  matchOnDescription = false;
  matchOnDetail = false;
  canSelectMany = false;
  private _items: readonly T[] = [];
  private _active: readonly T[] = [];
  selectedItems: readonly T[] = [];

  get items(): readonly T[] {
    return this._items;
  }
  set items(items: readonly T[]) {
    this._items = items;
    // As in VS Code: new items make the first visible one active.
    this._active = this.visibleItems.filter((item) => item.kind !== QuickPickItemKind.Separator).slice(0, 1);
  }

  get activeItems(): readonly T[] {
    return this._active;
  }
  set activeItems(items: readonly T[]) {
    this._active = items;
  }

  /** The rows a person sees for the text in the filter box (separators only when nothing is typed). */
  get visibleItems(): readonly T[] {
    const filter = this._value.trim().toLowerCase();
    if (!filter) return this._items;
    const matches = (text: string | undefined) => !!text && text.replace(/\$\([\w~-]+\)\s*/g, '').toLowerCase().includes(filter);
    return this._items.filter(
      (item) =>
        item.kind !== QuickPickItemKind.Separator &&
        (matches(item.label) || (this.matchOnDescription && matches(item.description)) || (this.matchOnDetail && matches(item.detail))),
    );
  }

  /** Labels of the visible rows, icons (`$(repo) `) left out. */
  get labels(): string[] {
    return this.visibleItems.map((item) => plainLabel(item.label));
  }

  /** The row a person would see highlighted. */
  get activeLabel(): string | undefined {
    const [active] = this._active;
    return active ? plainLabel(active.label) : undefined;
  }

  override type(value: string): void {
    super.type(value);
    this._active = this.visibleItems.filter((item) => item.kind !== QuickPickItemKind.Separator).slice(0, 1);
  }

  /** Enter: accepts the active row. */
  override accept(): void {
    this.assertUsable();
    this.selectedItems = this._active.slice(0, 1);
    this.accepted.fire();
  }

  /** Clicks the first visible row whose label (icons left out) matches. */
  pick(label: string | RegExp): void {
    this.assertUsable();
    const item = this.find(label);
    if (!item) throw new Error(`No row “${label}” in “${this.titleText}”: ${JSON.stringify(this.labels)}`);
    this._active = [item];
    this.accept();
  }

  find(label: string | RegExp): T | undefined {
    return this.visibleItems.find((item) => {
      if (item.kind === QuickPickItemKind.Separator) return false;
      const text = plainLabel(item.label);
      return typeof label === 'string' ? text === label : label.test(text);
    });
  }

  /** Waits until a loading pick shows its rows. */
  async loaded(): Promise<this> {
    await until(() => !this.busy, `“${this.titleText}” to finish loading`);
    return this;
  }
}

function plainLabel(label: string): string {
  return label.replace(/^\$\([\w~-]+\)\s*/, '');
}

/* ------------------------------------------------------------ the window */

export interface ShownMessage {
  level: 'info' | 'warning' | 'error';
  message: string;
  actions: string[];
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export interface ProgressOptions {
  location: ProgressLocation | { viewId: string };
  title?: string;
  cancellable?: boolean;
}

export interface ShownProgress {
  options: ProgressOptions;
  /** The Cancel button of a cancellable notification. */
  cancel(): void;
  done: boolean;
}

export class FakeWindow {
  /** Every quick input shown, in order. */
  readonly inputs: Array<FakeInputBox | FakeQuickPick<QuickPickItem>> = [];
  current: FakeInputBox | FakeQuickPick<QuickPickItem> | undefined;
  readonly messages: ShownMessage[] = [];
  readonly progress: ShownProgress[] = [];
  readonly statusBar: string[] = [];
  readonly shownDocuments: unknown[] = [];
  /** How a person answers a notification: the action clicked, or undefined (closed). */
  answer: (message: ShownMessage) => string | undefined | Promise<string | undefined> = () => undefined;
  private readCursor = 0;

  createQuickPick<T extends QuickPickItem>(): FakeQuickPick<T> {
    return new FakeQuickPick<T>(this);
  }

  createInputBox(): FakeInputBox {
    return new FakeInputBox(this);
  }

  /** One quick input at a time: showing another hides the current one. */
  showing(input: FakeInputBox | FakeQuickPick<QuickPickItem>): void {
    const previous = this.current;
    this.current = input;
    this.inputs.push(input);
    previous?.hide();
  }

  hiding(input: FakeQuickInput): void {
    if (this.current === input) this.current = undefined;
  }

  /** The next quick input shown after the last one a test took (waits for it). */
  async nextInput(): Promise<FakeInputBox | FakeQuickPick<QuickPickItem>> {
    await until(() => this.inputs.length > this.readCursor, 'the next quick input');
    return this.inputs[this.readCursor++];
  }

  async nextQuickPick(): Promise<FakeQuickPick<QuickPickItem & Record<string, unknown>>> {
    const input = await this.nextInput();
    if (input.kind !== 'quickPick') throw new Error(`Expected a quick pick, got an input box: “${input.prompt}”`);
    return input as FakeQuickPick<QuickPickItem & Record<string, unknown>>;
  }

  async nextInputBox(): Promise<FakeInputBox> {
    const input = await this.nextInput();
    if (input.kind !== 'inputBox') throw new Error(`Expected an input box, got a quick pick: “${input.placeholder}”`);
    return input;
  }

  showInformationMessage(message: string, ...rest: unknown[]): Promise<unknown> {
    return this.notify('info', message, rest);
  }
  showWarningMessage(message: string, ...rest: unknown[]): Promise<unknown> {
    return this.notify('warning', message, rest);
  }
  showErrorMessage(message: string, ...rest: unknown[]): Promise<unknown> {
    return this.notify('error', message, rest);
  }

  private notify(level: ShownMessage['level'], message: string, rest: unknown[]): Promise<unknown> {
    // (message, options?, ...items): items are strings or { title }.
    const items = rest.length > 0 && typeof rest[0] === 'object' && rest[0] !== null && !('title' in rest[0]) ? rest.slice(1) : rest;
    const titleOf = (item: unknown) => (typeof item === 'string' ? item : (item as { title: string }).title);
    const shown: ShownMessage = { level, message, actions: items.map(titleOf) };
    this.messages.push(shown);
    return Promise.resolve(this.answer(shown)).then((choice) => items.find((item) => titleOf(item) === choice));
  }

  withProgress<R>(options: ProgressOptions, task: (progress: { report(value: unknown): void }, token: CancellationToken) => Thenable<R>): Promise<R> {
    const source = new CancellationTokenSource();
    const shown: ShownProgress = { options, cancel: () => source.cancel(), done: false };
    this.progress.push(shown);
    return Promise.resolve(task({ report: () => undefined }, source.token)).finally(() => {
      shown.done = true;
      source.dispose();
    });
  }

  setStatusBarMessage(text: string): Disposable {
    this.statusBar.push(text);
    return new Disposable(() => undefined);
  }

  showTextDocument(document: unknown): Promise<unknown> {
    this.shownDocuments.push(document);
    return Promise.resolve({ document, revealRange: () => undefined });
  }

  get activeTextEditor(): undefined {
    return undefined;
  }
}

/* ------------------------------------------------- commands and settings */

export class FakeCommands {
  readonly executed: Array<{ command: string; args: unknown[] }> = [];
  /** The values `setContext` was given, by key. */
  readonly context = new Map<string, unknown>();
  private readonly handlers = new Map<string, (...args: any[]) => unknown>();

  registerCommand(command: string, handler: (...args: any[]) => unknown): Disposable {
    if (this.handlers.has(command)) throw new Error(`command '${command}' already exists`);
    this.handlers.set(command, handler);
    return new Disposable(() => this.handlers.delete(command));
  }

  async executeCommand<T>(command: string, ...args: unknown[]): Promise<T> {
    if (command === 'setContext') {
      this.context.set(String(args[0]), args[1]);
      return undefined as T;
    }
    this.executed.push({ command, args });
    const handler = this.handlers.get(command);
    return (handler ? await handler(...args) : undefined) as T;
  }
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export class FakeTextDocument {
  constructor(
    readonly uri: Uri,
    public languageId: string,
    public content: string,
  ) {}
  getText(): string {
    return this.content;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

/** Only inserts at the start of a document, which is all the extension does to a fresh untitled one. */
export class WorkspaceEdit {
  readonly inserts: Array<{ uri: Uri; text: string }> = [];
  insert(uri: Uri, _position: Position, text: string): void {
    this.inserts.push({ uri, text });
  }
}

export const languages = {
  async setTextDocumentLanguage(document: FakeTextDocument, languageId: string) {
    document.languageId = languageId;
    return document;
  },
};

export class FakeWorkspace {
  /** Setting values by full key, e.g. `deploymentsExplorer.baseUrl`. */
  readonly settings = new Map<string, unknown>();
  readonly textDocuments: FakeTextDocument[] = [];
  private readonly configurationChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  readonly onDidChangeConfiguration = this.configurationChanged.event;
  private readonly documentClosed = new EventEmitter<unknown>();
  readonly onDidCloseTextDocument = this.documentClosed.event;
  private untitled = 0;

  getConfiguration(section?: string) {
    const full = (key: string) => (section ? `${section}.${key}` : key);
    return {
      get: <T>(key: string, fallback?: T): T | undefined => (this.settings.has(full(key)) ? (this.settings.get(full(key)) as T) : fallback),
      has: (key: string) => this.settings.has(full(key)),
      inspect: (key: string) => ({ key: full(key), globalValue: this.settings.get(full(key)) }),
      update: async (key: string, value: unknown) => this.set(full(key), value),
    };
  }

  /** Writes a setting as the Settings editor would, and tells the listeners. */
  set(key: string, value: unknown): void {
    if (value === undefined) this.settings.delete(key);
    else this.settings.set(key, value);
    this.configurationChanged.fire({ affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) });
  }

  /** An untitled document: `{ language, content }`, or an `untitled:` URI (its language from the name, as VS Code does). */
  async openTextDocument(options: { language?: string; content?: string } | Uri) {
    if (options instanceof Uri) {
      const document = new FakeTextDocument(options, options.path.endsWith('.json') ? 'json' : 'plaintext', '');
      this.textDocuments.push(document);
      return document;
    }
    const document = new FakeTextDocument(Uri.parse(`untitled:Untitled-${++this.untitled}`), options.language ?? 'plaintext', options.content ?? '');
    this.textDocuments.push(document);
    return document;
  }

  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    for (const { uri, text } of edit.inserts) {
      const document = this.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
      if (!document) return false;
      document.content = text + document.content;
    }
    return true;
  }
}

/* ------------------------------------------------------ module surface */

export let window = new FakeWindow();
export let commands = new FakeCommands();
export let workspace = new FakeWorkspace();
export const env = {
  language: 'en',
  clipboard: {
    text: '',
    async writeText(value: string) {
      env.clipboard.text = value;
    },
    async readText() {
      return env.clipboard.text;
    },
  },
};
export const version = '1.100.0-fake';

/** vscode.l10n.t with no translations loaded: the English text with `{0}`, `{name}` filled in. */
export const l10n = {
  t(message: string | { message: string }, ...args: unknown[]): string {
    const text = typeof message === 'string' ? message : message.message;
    const named = args.length === 1 && args[0] && typeof args[0] === 'object' ? (args[0] as Record<string, unknown>) : undefined;
    return text.replace(/\{([^}]+)\}/g, (all, key: string) => {
      const value = named ? named[key] : args[Number(key)];
      return value === undefined ? all : String(value);
    });
  },
};

/** A fresh window, command table, settings and clipboard: call it in `beforeEach`. */
export function resetFake(): void {
  window = new FakeWindow();
  commands = new FakeCommands();
  workspace = new FakeWorkspace();
  env.clipboard.text = '';
}

/** Waits (a macrotask at a time, at most ~2 s) until `condition` holds. */
export async function until(condition: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
