// The one fake of the `vscode` module, for the unit tests and `npm run bench`:
// importing this file makes `require('vscode')` (in this process) answer it, so
// import it before the code under test. Tree providers, the multi-step input,
// the create flow and activate() itself then run under `node --test`.
//
// Fakes, not mocks (the AWS Toolkit's test guidance): the pieces behave like
// VS Code's (a quick pick filters, has an active item, accepts it on Enter, hides
// the previous one when shown; settings are read back as written), tests drive
// them as a person would (type, pick, press Back or Escape, answer a message)
// and assert on what a person would see. Nothing here checks call counts.
// `resetFake()` gives every test a fresh window, settings and command table.
// What the extension never calls is left out, so a test that reaches it fails
// loudly instead of getting a made-up answer.
import Module from 'node:module';
import * as posix from 'node:path/posix';
import { Emitter } from '../../../src/model/events';

/* ---------------------------------------------------------------- basics */

export class Disposable {
  static from(...items: ReadonlyArray<{ dispose(): unknown } | undefined>): Disposable {
    return new Disposable(() => {
      for (const item of items) item?.dispose();
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

export type Event<T> = (listener: (value: T) => unknown, thisArgs?: unknown, disposables?: Array<{ dispose(): unknown }>) => { dispose(): void };

/** The model's Emitter, with the `thisArgs` and `disposables` that vscode's `event` also takes. */
export class EventEmitter<T> {
  private readonly emitter = new Emitter<T>();
  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const subscription = this.emitter.event(thisArgs ? listener.bind(thisArgs) : listener);
    disposables?.push(subscription);
    return subscription;
  };
  fire(value: T): void {
    this.emitter.fire(value);
  }
  dispose(): void {
    this.emitter.dispose();
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

interface UriParts {
  scheme: string;
  authority?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

/** `scheme://authority/path?query#fragment`, as VS Code's Uri splits it (without its percent-encoding). */
export class Uri {
  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;
  private constructor(parts: UriParts) {
    this.scheme = parts.scheme;
    this.authority = parts.authority ?? '';
    this.path = parts.path ?? '';
    this.query = parts.query ?? '';
    this.fragment = parts.fragment ?? '';
  }
  static parse(value: string): Uri {
    const [, scheme = 'file', authority, path, query, fragment] = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value)!;
    return new Uri({ scheme, authority, path, query, fragment });
  }
  static file(path: string): Uri {
    return new Uri({ scheme: 'file', path });
  }
  static from(parts: UriParts): Uri {
    return new Uri(parts);
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: posix.join(base.path, ...segments) });
  }
  with(change: Partial<UriParts>): Uri {
    return new Uri({ ...this, ...change });
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    const authority = this.authority || this.scheme === 'file' ? `//${this.authority}` : '';
    return `${this.scheme}:${authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
}

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

export interface TreeDataProvider<T> {
  getChildren(element?: T): T[] | undefined | null | Thenable<T[] | undefined | null>;
  getTreeItem(element: T): TreeItem | Thenable<TreeItem>;
  getParent?(element: T): T | undefined | null | Thenable<T | undefined | null>;
  onDidChangeTreeData?: Event<T | T[] | undefined | null | void>;
}

/** What createTreeView returns, holding its provider so a test can ask for rows as the workbench does. */
export class FakeTreeView<T> {
  visible = true;
  selection: readonly T[] = [];
  title: string | undefined;
  description: string | undefined;
  message: string | MarkdownString | undefined;
  private readonly visibility = new EventEmitter<{ visible: boolean }>();
  readonly onDidChangeVisibility = this.visibility.event;
  readonly onDidChangeSelection = new EventEmitter<{ selection: readonly T[] }>().event;
  readonly onDidExpandElement = new EventEmitter<{ element: T }>().event;
  readonly onDidCollapseElement = new EventEmitter<{ element: T }>().event;

  constructor(
    readonly id: string,
    readonly treeDataProvider: TreeDataProvider<T>,
  ) {}

  /** What reveal was asked to show, in order. */
  readonly revealed: Array<{ element: T; options?: { select?: boolean; focus?: boolean; expand?: boolean | number } }> = [];
  /** The rows reveal expanded to show an element: its ancestors. */
  readonly expanded = new Set<T>();

  /**
   * As VS Code's: refused unless the provider implements getParent, which it calls up to the root; each ancestor must
   * be among its parent's children (asked for, as the workbench asks for them) and is expanded; then the element must
   * be among its parent's children. `select` sets the selection.
   */
  async reveal(element: T, options?: { select?: boolean; focus?: boolean; expand?: boolean | number }): Promise<void> {
    const provider = this.treeDataProvider;
    if (!provider.getParent) throw new Error("Required registered TreeDataProvider to implement 'getParent' method to access 'reveal' method");
    const chain: T[] = [element];
    for (let parent = await provider.getParent(element); parent !== undefined && parent !== null; parent = await provider.getParent(parent)) {
      if (chain.includes(parent)) throw new Error('getParent goes round in a circle');
      chain.unshift(parent);
    }
    let parent: T | undefined;
    for (const node of chain) {
      const children = (await provider.getChildren(parent)) ?? [];
      // VS Code finds a row by its handle: the item's ID when it has one, else the element's place.
      const id = (await provider.getTreeItem(node)).id;
      const found = children.includes(node) || (id !== undefined && (await Promise.all(children.map((child) => provider.getTreeItem(child)))).some((item) => item.id === id));
      if (!found) throw new Error(`Cannot resolve tree item for element: not among the children of its parent (getParent)`);
      if (node !== element) this.expanded.add(node);
      parent = node;
    }
    this.revealed.push({ element, options });
    if (options?.select !== false) this.selection = [element];
  }

  dispose(): void {
    this.visibility.dispose();
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

  /** Enter: accepts the active row, or with check boxes (canSelectMany) the checked ones. */
  override accept(): void {
    this.assertUsable();
    if (!this.canSelectMany) this.selectedItems = this._active.slice(0, 1);
    this.accepted.fire();
  }

  /** Clicks the check box of the first visible row whose label matches; checked rows stay in list order, as in VS Code. */
  toggle(label: string | RegExp): void {
    this.assertUsable();
    if (!this.canSelectMany) throw new Error(`“${this.titleText}” has no check boxes`);
    const item = this.find(label);
    if (!item) throw new Error(`No row “${label}” in “${this.titleText}”: ${JSON.stringify(this.labels)}`);
    const checked = new Set(this.selectedItems);
    if (!checked.delete(item)) checked.add(item);
    this.selectedItems = this._items.filter((candidate) => checked.has(candidate));
  }

  /** Labels of the checked rows. */
  get checkedLabels(): string[] {
    return this.selectedItems.map((item) => plainLabel(item.label));
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

const ignore = () => undefined;

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export class FakeWindow {
  /** Every quick input shown, in order. */
  readonly inputs: Array<FakeInputBox | FakeQuickPick<QuickPickItem>> = [];
  current: FakeInputBox | FakeQuickPick<QuickPickItem> | undefined;
  readonly messages: ShownMessage[] = [];
  readonly progress: ShownProgress[] = [];
  readonly statusBar: string[] = [];
  readonly shownDocuments: unknown[] = [];
  /** The views createTreeView made, by view ID. */
  readonly treeViews = new Map<string, FakeTreeView<unknown>>();
  /** How a person answers a notification: the action clicked, or undefined (closed). */
  answer: (message: ShownMessage) => string | undefined | Promise<string | undefined> = () => undefined;
  readonly state = { focused: true, active: true };
  readonly onDidChangeWindowState = new EventEmitter<{ focused: boolean; active: boolean }>().event;
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

  createStatusBarItem(id: string, alignment: StatusBarAlignment, priority?: number) {
    return { id, alignment, priority, text: '', tooltip: undefined as unknown, command: undefined as unknown, name: undefined as string | undefined, show: ignore, hide: ignore, dispose: ignore };
  }

  createTreeView<T>(viewId: string, options: { treeDataProvider: TreeDataProvider<T> }): FakeTreeView<T> {
    const view = new FakeTreeView(viewId, options.treeDataProvider);
    this.treeViews.set(viewId, view as FakeTreeView<unknown>);
    return view;
  }

  /** A log channel that drops what it is given: tests read what a person sees, not the log. */
  createOutputChannel(name: string) {
    return { name, trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore, append: ignore, appendLine: ignore, show: ignore, dispose: ignore };
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

  /**
   * Runs a registered command, or one of VS Code's own that the extension calls (recorded in `executed`, answering
   * undefined). Any other command is rejected as VS Code rejects it, so a test whose feature calls another feature's
   * command registers a stand-in for it, as the real extension has it registered.
   */
  async executeCommand<T>(command: string, ...args: unknown[]): Promise<T> {
    if (command === 'setContext') {
      this.context.set(String(args[0]), args[1]);
      return undefined as T;
    }
    const handler = this.handlers.get(command);
    if (!handler && !BUILT_IN_COMMANDS.has(command)) throw new Error(`command '${command}' not found`);
    this.executed.push({ command, args });
    return (handler ? await handler(...args) : undefined) as T;
  }
}

/**
 * The commands of VS Code (and of its built-in git extension) the extension executes: they exist in every window.
 * A view's `<id>.focus` is VS Code's too, made for each view the extension contributes.
 */
const BUILT_IN_COMMANDS = new Set([
  'workbench.action.openSettings',
  'vscode.diff',
  'vscode.open',
  'git.viewCommit',
  'workbench.view.extension.deploymentsExplorer',
  ...['integrations', 'deployments', 'workspace'].map((view) => `deploymentsExplorer.${view}.focus`),
]);

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
  readonly isTrusted = true;
  readonly onDidGrantWorkspaceTrust = new EventEmitter<void>().event;
  readonly workspaceFolders = undefined;
  readonly onDidChangeWorkspaceFolders = new EventEmitter<unknown>().event;
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
      inspect: (key: string) => ({ key: full(key), globalValue: this.settings.has(full(key)) ? this.settings.get(full(key)) : this.section(full(key)) }),
      update: async (key: string, value: unknown) => this.set(full(key), value),
    };
  }

  /** The settings under `prefix`, nested as VS Code's `inspect` of a section answers them; undefined when none is set. */
  private section(prefix: string): Record<string, unknown> | undefined {
    let result: Record<string, unknown> | undefined;
    for (const [key, value] of this.settings) {
      if (!key.startsWith(`${prefix}.`)) continue;
      const path = key.slice(prefix.length + 1).split('.');
      let node = (result ??= {});
      for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
      node[path[path.length - 1]] = value;
    }
    return result;
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

  /** Closes a document as VS Code does once nothing shows it: gone from textDocuments, then onDidCloseTextDocument. */
  closeTextDocument(document: FakeTextDocument): void {
    this.textDocuments.splice(this.textDocuments.indexOf(document), 1);
    this.documentClosed.fire(document);
  }

  async applyEdit(edit: WorkspaceEdit): Promise<boolean> {
    for (const { uri, text } of edit.inserts) {
      const document = this.textDocuments.find((candidate) => candidate.uri.toString() === uri.toString());
      if (!document) return false;
      document.content = text + document.content;
    }
    return true;
  }

  registerTextDocumentContentProvider(): Disposable {
    return new Disposable(() => undefined);
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
  openExternal: async () => true,
};
export const extensions = { getExtension: () => undefined };
export const version = '1.100.0';

/** vscode.l10n.t with no translations loaded: the English text with `{0}`, `{name}` filled in. */
export const l10n = {
  t(message: string | { message: string; args?: unknown[] | Record<string, unknown> }, ...args: unknown[]): string {
    const [text, values] =
      typeof message === 'string'
        ? [message, typeof args[0] === 'object' && args[0] !== null ? args[0] : args]
        : [message.message, message.args ?? []];
    return text.replace(/\{([^}]+)\}/g, (all, key: string) => String((values as Record<string, unknown>)[key] ?? all));
  },
};

/** A fresh window, command table, settings and clipboard: call it in `beforeEach`. */
export function resetFake(): void {
  window = new FakeWindow();
  commands = new FakeCommands();
  workspace = new FakeWorkspace();
  env.clipboard.text = '';
}

/** A memento over a Map (globalState, workspaceState); updating a key to undefined removes it. */
function memento() {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void (value === undefined ? values.delete(key) : values.set(key, value)),
    keys: () => [...values.keys()],
  };
}

/** An ExtensionContext as a fresh install has it: empty state and secrets, kept in memory. */
export function extensionContext() {
  const secrets = new Map<string, string>();
  const secretsChanged = new EventEmitter<{ key: string }>();
  return {
    subscriptions: [] as Array<{ dispose(): unknown }>,
    globalState: { ...memento(), setKeysForSync: ignore },
    workspaceState: memento(),
    secrets: {
      get: async (key: string) => secrets.get(key),
      store: async (key: string, value: string) => {
        secrets.set(key, value);
        secretsChanged.fire({ key });
      },
      delete: async (key: string) => {
        secrets.delete(key);
        secretsChanged.fire({ key });
      },
      onDidChange: secretsChanged.event,
    },
    extension: { packageJSON: { version: '0.0.0-fake' } },
  };
}

/** Waits (a macrotask at a time, at most ~2 s) until `condition` holds. */
export async function until(condition: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

let installed = false;

/** From now on `require('vscode')` (in this process) answers this module. Importing it already does. */
export function installFakeVscode(): void {
  if (installed) return;
  installed = true;
  // Node has no 'vscode' module outside the extension host: redirect that one name, nothing else.
  const internals = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const resolve = internals._resolveFilename;
  internals._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    return request === 'vscode' ? __filename : resolve.call(this, request, ...rest);
  };
}

installFakeVscode();

/* ------------------------------------------ checked against @types/vscode */

// What the fake implements has VS Code's types: a fake that drifts from the API (a renamed member, another
// signature) fails to compile here instead of passing tests the real VS Code would fail. Only these parts: the rest
// of the fake is as small as the extension's use of it.
type VSCode = typeof import('vscode');
export const typeChecked = {
  commands: (fake: FakeCommands): Pick<VSCode['commands'], 'registerCommand' | 'executeCommand'> => fake,
  env: (fake: typeof env): Pick<VSCode['env'], 'language' | 'clipboard' | 'openExternal'> => fake,
  window: (fake: FakeWindow): Pick<VSCode['window'], 'setStatusBarMessage' | 'state' | 'onDidChangeWindowState' | 'showInformationMessage' | 'showWarningMessage' | 'showErrorMessage'> => fake,
  treeView: <T>(fake: FakeTreeView<T>): Pick<import('vscode').TreeView<T>, 'reveal' | 'visible' | 'selection' | 'title' | 'description' | 'onDidChangeVisibility' | 'dispose'> => fake,
  treeItemCollapsibleState: TreeItemCollapsibleState satisfies Record<keyof typeof import('vscode').TreeItemCollapsibleState, number>,
  progressLocation: ProgressLocation satisfies Record<keyof typeof import('vscode').ProgressLocation, number>,
  configurationTarget: ConfigurationTarget satisfies Record<keyof typeof import('vscode').ConfigurationTarget, number>,
  statusBarAlignment: StatusBarAlignment satisfies Record<keyof typeof import('vscode').StatusBarAlignment, number>,
  l10n: l10n satisfies Pick<VSCode['l10n'], 't'>,
  version: version satisfies VSCode['version'],
};
