// Page helpers for UI tests that drive the real VS Code workbench (code-server)
// in headless chromium with playwright-core. The runner, scripts/run-ui-tests.mjs,
// starts one code-server (with the packaged .vsix installed and user settings
// pointing at the control-plane stand-in) and one browser server; each test
// file opens its own fresh browser context through `Workbench.open()`.
//
// Environment set by the runner:
//   DE_UI_URL          workbench URL (opens the test workspace folder)
//   DE_BROWSER_WS      playwright browser-server endpoint (the runner's headless chromium)
//   DE_STANDIN_URL     base URL of the control-plane stand-in
//   DE_STANDIN_API_KEY the stand-in's API key (also in code-server's env as DEPLOYMENTS_EXPLORER_API_KEY)
//   DE_INTEGRATIONS    JSON [{id,label}] configured in deploymentsExplorer.integrations
//   DE_OUTPUT_DIR      where screenshots go (default test-output/ui)
//   DE_USER_SETTINGS   the user settings.json code-server reads (a test may rewrite it, and must restore it)
//   DE_TRUST_CODE_SERVER_URL, DE_TRUST_USER_SETTINGS  the same for a second code-server with workspace
//                      trust on (folders open in Restricted Mode); only set when a file to run contains
//                      the line `// ui-runner: workspace-trust`
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

/** Title of the view container in the activity bar (package.json viewsContainers). */
export const CONTAINER_TITLE = 'Deployments';
export const CONTAINER_ID = 'deploymentsExplorer';
export const VIEW_NAMES = { integrations: 'Integrations', deployments: 'Deployments', workspace: 'This Workspace' } as const;

export interface UiEnv {
  workbenchUrl: string;
  browserWs: string;
  standInUrl?: string;
  standInApiKey?: string;
  integrations: Array<{ id: string; label?: string }>;
  outputDir: string;
}

export function uiEnv(): UiEnv {
  const workbenchUrl = process.env.DE_UI_URL;
  if (!workbenchUrl) {
    throw new Error('DE_UI_URL is not set: run the UI tests through `node scripts/run-ui-tests.mjs`, which starts code-server and the stand-in');
  }
  const browserWs = process.env.DE_BROWSER_WS;
  if (!browserWs) throw new Error('DE_BROWSER_WS is not set: run the UI tests through `node scripts/run-ui-tests.mjs`, which starts the browser');
  let integrations: UiEnv['integrations'] = [];
  try {
    integrations = JSON.parse(process.env.DE_INTEGRATIONS || '[]');
  } catch {
    /* keep [] */
  }
  return {
    workbenchUrl,
    browserWs,
    standInUrl: process.env.DE_STANDIN_URL || undefined,
    standInApiKey: process.env.DE_STANDIN_API_KEY || undefined,
    integrations,
    outputDir: path.resolve(process.env.DE_OUTPUT_DIR || path.join('test-output', 'ui')),
  };
}

function isLoopback(url: URL): boolean {
  if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
  const h = url.hostname.replace(/^\[|\]$/g, '');
  return h === '127.0.0.1' || h === 'localhost' || h === '::1' || h.endsWith('.localhost');
}

/** Escapes a string for use inside a RegExp. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function exactText(text: string | RegExp): RegExp {
  return typeof text === 'string' ? new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) : text;
}

/**
 * The UI tests' one poll: calls `probe` every `intervalMs` until it answers
 * something truthy (a thrown error counts as "not yet"), at most `timeoutMs`;
 * when it gives up, the last error is named (a probe can throw to say what it
 * saw instead).
 */
export async function poll<T>(
  what: string,
  probe: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last instanceof Error ? last.message : String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * For a test that starts from other user settings: answers the settings file
 * the runner wrote (`file`: another code-server's, e.g. `trustingCodeServer().userSettings`),
 * and a function that puts its original text back.
 */
export function snapshotUserSettings(options: { without?: readonly string[]; file?: string } = {}): { file: string; restore(): void } {
  const file = options.file ?? process.env.DE_USER_SETTINGS;
  if (!file || !fs.existsSync(file)) throw new Error('DE_USER_SETTINGS does not name the user settings file');
  const original = fs.readFileSync(file, 'utf8');
  if (options.without?.length) {
    // Settings a test starts without (e.g. no base URL: the first run).
    const values = JSON.parse(original) as Record<string, unknown>;
    for (const key of options.without) delete values[key];
    fs.writeFileSync(file, JSON.stringify(values, null, 2));
  }
  return { file, restore: () => fs.writeFileSync(file, original) };
}

/**
 * The runner's second code-server, with workspace trust on: a folder opened
 * there is in Restricted Mode until it is trusted. Same user settings and
 * extension as the first. Only there for files with the line
 * `// ui-runner: workspace-trust`.
 */
export function trustingCodeServer(): { url: string; userSettings: string; workbenchUrl(folder: string): string } {
  const url = process.env.DE_TRUST_CODE_SERVER_URL;
  const userSettings = process.env.DE_TRUST_USER_SETTINGS;
  if (!url || !userSettings) {
    throw new Error('DE_TRUST_CODE_SERVER_URL is not set: the test file needs the line `// ui-runner: workspace-trust`, and must run through `node scripts/run-ui-tests.mjs`');
  }
  return { url, userSettings, workbenchUrl: (folder) => `${url}/?folder=${encodeURIComponent(folder)}` };
}

export class Workbench {
  private constructor(
    readonly page: Page,
    readonly context: BrowserContext,
    readonly browser: Browser,
    readonly env: UiEnv,
    readonly name: string,
  ) {}

  /**
   * Opens the workbench in a fresh browser context (own cookies and storage)
   * and waits until it is ready. `name` prefixes screenshot files; `loadTimeoutMs` bounds the page's load
   * (playwright's default, 30 s, when not given).
   */
  static async open(name: string, options: { url?: string; viewport?: { width: number; height: number }; loadTimeoutMs?: number } = {}): Promise<Workbench> {
    const env = uiEnv();
    const browser = await chromium.connect(env.browserWs);
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 } });
    // Nothing but loopback: the stand-in and code-server.
    await context.route((url) => !isLoopback(url), (route) => route.abort('blockedbyclient'));
    const page = await context.newPage();
    page.on('pageerror', (err) => {
      if (process.env.DE_VERBOSE === '1') console.error(`[page error] ${err.message}`);
    });
    const wb = new Workbench(page, context, browser, env, name);
    try {
      // Generous: on a loaded 2-core machine the workbench's first page can take longer than playwright's 30 s.
      await page.goto(options.url ?? env.workbenchUrl, { waitUntil: 'domcontentloaded', timeout: options.loadTimeoutMs ?? 120_000 });
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
      // The activity bar is filled once the extension contributions are known.
      await wb.activityBarItem(CONTAINER_TITLE).waitFor({ state: 'visible', timeout: 60_000 });
    } catch (error) {
      // The caller never gets the workbench to close: an open connection to the browser would keep the test file's
      // process alive after its tests failed, and the whole stage waiting.
      await wb.close();
      throw error;
    }
    return wb;
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    // Only disconnects from the runner's browser server.
    await this.browser.close().catch(() => undefined);
  }

  // ------------------------------------------------------------------ containers and views

  activityBarItem(title: string): Locator {
    return this.page.locator(`.activitybar .action-item a.action-label[aria-label="${title}"]`).first();
  }

  /** The Deployments view container (sidebar part). */
  container(): Locator {
    return this.page.locator(`[id="workbench.view.extension.${CONTAINER_ID}"]`);
  }

  /**
   * Opens the Deployments container through its activity-bar icon (no-op when already open).
   * Clicks only while the icon is not active: after a reload the workbench restores the
   * container a moment late, and clicking an active icon would close it again.
   */
  async openDeploymentsContainer(): Promise<Locator> {
    const container = this.container();
    const item = this.activityBarItem(CONTAINER_TITLE);
    await item.waitFor({ state: 'visible', timeout: 60_000 });
    await poll(
      'the Deployments container to open',
      async () => {
        if (await container.isVisible()) return true;
        const active = (await item.getAttribute('aria-pressed')) === 'true' || (await item.getAttribute('aria-checked')) === 'true';
        if (!active) {
          await item.click();
          // Move the pointer off the icon so its hover does not cover screenshots.
          await this.page.mouse.move(900, 450);
        }
        await container.waitFor({ state: 'visible', timeout: 2_000 }).catch(() => undefined);
        return container.isVisible();
      },
      30_000,
    );
    return container;
  }

  /** One pane (view) of the Deployments container, found by its header title. */
  view(name: string): Locator {
    return this.container()
      .locator('.split-view-view .pane')
      .filter({ has: this.page.locator('.pane-header h3.title', { hasText: exactText(name) }) })
      .first();
  }

  /** Titles of the views shown in the Deployments container, top to bottom. */
  async viewTitles(): Promise<string[]> {
    const titles = await this.container().locator('.pane-header h3.title').allTextContents();
    return titles.map((t) => t.trim()).filter(Boolean);
  }

  /** Expands a collapsed view (pane) and returns it. */
  async expandView(name: string): Promise<Locator> {
    const pane = this.view(name);
    const header = pane.locator('.pane-header').first();
    await header.waitFor({ state: 'visible' });
    if ((await header.getAttribute('aria-expanded')) === 'false') {
      await header.click();
      await poll(`the ${name} view to expand`, async () => (await header.getAttribute('aria-expanded')) === 'true', 15_000);
    }
    return pane;
  }

  /** The view's description shown beside its title (TreeView.description), '' when none. */
  async viewDescription(name: string): Promise<string> {
    const d = this.view(name).locator('.pane-header .description').first();
    if ((await d.count()) === 0) return '';
    return ((await d.textContent()) ?? '').trim();
  }

  /** The view's message (the text above its rows, which wraps); '' when none is shown. */
  async viewMessage(name: string): Promise<string> {
    const m = this.view(name).locator('.tree-explorer-viewlet-tree-view > .message').first();
    if ((await m.count()) === 0 || !(await m.isVisible())) return '';
    return ((await m.textContent()) ?? '').trim();
  }

  /** Waits until the view's message matches. */
  async waitForViewMessage(name: string, expected: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const re = typeof expected === 'string' ? exactText(expected) : expected;
    await poll(`the ${name} view's message to match ${String(re)}`, async () => re.test(await this.viewMessage(name)), timeoutMs);
    return this.viewMessage(name);
  }

  /** Waits until the view's description matches. */
  async waitForViewDescription(name: string, expected: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const re = typeof expected === 'string' ? exactText(expected) : expected;
    await this.view(name).locator('.pane-header .description').filter({ hasText: re }).first().waitFor({ state: 'attached', timeout: timeoutMs });
    return this.viewDescription(name);
  }

  /**
   * Waits until the status bar no longer shows "Activating Extensions…" (the
   * extension opened with its view is then active), at most `timeoutMs`.
   */
  async waitForExtensionsActivated(timeoutMs = 30_000): Promise<void> {
    const busy = this.page.locator('.statusbar-item', { hasText: /Activating Extensions/ });
    await busy.first().waitFor({ state: 'detached', timeout: timeoutMs }).catch(() => undefined);
  }

  // ------------------------------------------------------------------ timings

  /**
   * The activation times VS Code reports ("Developer: Show Running Extensions": code loading +
   * activate() call), in ms, of the extensions named, once this extension's row shows one; an
   * extension not listed, or still activating, is missing from the map. Closes the editor again.
   */
  async reportedActivationsMs(displayNames: string[], timeoutMs = 20_000): Promise<Map<string, number>> {
    await this.runCommand('Developer: Show Running Extensions');
    const rows = this.page.locator('.runtime-extensions-editor .monaco-list-row');
    const timeOf = async (displayName: string) => {
      const text = await rows.filter({ hasText: displayName }).first().locator('.activation-time').first().textContent({ timeout: 2_000 }).catch(() => null);
      const match = /(\d+)\s*ms/.exec(text ?? '');
      return match ? Number(match[1]) : undefined;
    };
    await poll('the activation time in Running Extensions', () => timeOf('Deployments Explorer'), timeoutMs);
    const times = new Map<string, number>();
    for (const name of displayNames) {
      const ms = await timeOf(name);
      if (ms !== undefined) times.set(name, ms);
    }
    await this.page.keyboard.press('Control+W').catch(() => undefined);
    return times;
  }

  /** Prints a timing and adds it to timings.json in the output folder (the runner lists them at the end). */
  recordTiming(name: string, ms: number, target?: number): void {
    const verdict = target === undefined ? '' : ms <= target ? ` (target ≤ ${target} ms: OK)` : ` (target ≤ ${target} ms: OVER)`;
    console.log(`[timing] ${name}: ${ms} ms${verdict}`);
    const file = path.join(this.env.outputDir, 'timings.json');
    let all: Array<{ name: string; ms: number; target?: number; at: string }> = [];
    try {
      all = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      /* first one */
    }
    all.push({ name, ms, target, at: new Date().toISOString() });
    fs.mkdirSync(this.env.outputDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(all, null, 2));
  }

  // ------------------------------------------------------------------ tree rows

  /** All rendered tree rows of a view. */
  rows(viewName: string): Locator {
    return this.view(viewName).locator('.monaco-list-row[role="treeitem"]');
  }

  /** Row labels of a view as shown (text of `.label-name`). */
  async rowLabels(viewName: string): Promise<string[]> {
    const labels = await this.rows(viewName).locator('.label-name').allTextContents();
    return labels.map((l) => l.trim());
  }

  /** A tree row whose label text equals `text` (or matches a RegExp). Waits for it to render. */
  async findRow(viewName: string, text: string | RegExp, timeoutMs = 15_000): Promise<Locator> {
    const row = this.rows(viewName).filter({ has: this.page.locator('.label-name', { hasText: exactText(text) }) }).first();
    await row.waitFor({ state: 'visible', timeout: timeoutMs });
    return row;
  }

  /**
   * Expands a collapsed row (no-op if expanded or a leaf) and waits for it.
   * Clicks the twistie again if the row is still collapsed a moment later and
   * not loading: a tree refresh racing the first click can swallow it.
   */
  async expandRow(row: Locator, timeoutMs = 15_000): Promise<void> {
    let lastClick = 0;
    await poll(
      'the row to expand',
      async () => {
        const state = await row.getAttribute('aria-expanded', { timeout: timeoutMs });
        if (state === 'true' || state === null) return true;
        const loading = (await row.locator('.monaco-tl-twistie.codicon-tree-item-loading').count()) > 0;
        if (!loading && Date.now() - lastClick > 2_000) {
          await row.locator('.monaco-tl-twistie').first().click();
          lastClick = Date.now();
        }
        return false;
      },
      timeoutMs,
    );
  }

  /** Drags the sidebar's edge so the sidebar is `width` pixels wide (for screenshots without cut-off descriptions). */
  async widenSidebar(width: number): Promise<void> {
    const box = await this.page.locator('.part.sidebar').first().boundingBox();
    if (!box) throw new Error('no sidebar to widen');
    const edge = box.x + box.width;
    await this.page.mouse.move(edge - 1, box.y + box.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 5 });
    await this.page.mouse.up();
  }

  /** The items of the open context menu, by their exact text. */
  menuItem(text: string): Locator {
    return this.page.locator('.context-view .monaco-menu .action-item .action-label').filter({ hasText: new RegExp(`^${escapeRegExp(text)}$`) });
  }

  /** Right-clicks `row` and runs `text` from its context menu (clicked again if the menu ignored a click as it opened). */
  async chooseFromContextMenu(row: Locator, text: string): Promise<void> {
    await row.click({ button: 'right' });
    await this.menuItem(text).first().waitFor({ state: 'visible', timeout: 10_000 });
    for (let attempt = 0; attempt < 4; attempt++) {
      await this.menuItem(text).first().click().catch(() => undefined);
      if (await this.page.locator('.context-view .monaco-menu').first().waitFor({ state: 'hidden', timeout: 2000 }).then(() => true, () => false)) return;
    }
    throw new Error(`the menu item ${text} did not run`);
  }

  /**
   * Clicks the inline action `title` of `row` (a `view/item/context` entry of group `inline`), shown as an icon when
   * the row is hovered. `title` is the command's title, its tooltip (matched at its start: a key binding may follow).
   */
  async clickRowAction(row: Locator, title: string): Promise<void> {
    await row.hover();
    const action = row.locator(`.actions .action-label[aria-label^="${title}"]`).first();
    await action.waitFor({ state: 'visible', timeout: 10_000 });
    await action.click();
  }

  /** Clicks the title-bar button `title` of the view `name` (a `view/title` entry of group `navigation`). */
  async clickViewTitleAction(name: string, title: string): Promise<void> {
    const header = this.view(name).locator('.pane-header').first();
    await header.hover();
    const action = header.locator(`.actions .action-label[aria-label^="${title}"]`).first();
    await action.waitFor({ state: 'visible', timeout: 10_000 });
    await action.click();
  }

  /** Description text of a row (TreeItem.description), '' when none. */
  async rowDescription(row: Locator): Promise<string> {
    const d = row.locator('.label-description').first();
    if ((await d.count()) === 0) return '';
    return ((await d.textContent()) ?? '').trim();
  }

  // ------------------------------------------------------------------ commands, quick input, notifications

  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Waits until a quick input's box shows `expected`, naming what it shows instead when it does not. */
  async waitForInputValue(input: Locator, expected: string, timeoutMs = 15_000): Promise<void> {
    await poll(
      `the input to show “${expected}”`,
      async () => {
        const value = await input.inputValue({ timeout: 1_000 });
        if (value !== expected) throw new Error(`the input shows “${value}”`);
        return true;
      },
      timeoutMs,
    );
  }

  /**
   * From the palette to the create flow's name step of acme-github's `repository` (owner/name);
   * `search` narrows the repository list first. Answers the input box.
   */
  async openCreateNameStep(repository: string, search?: string): Promise<Locator> {
    await this.runCommand('Deployments: Create Deployment…');
    const input = this.quickInput().locator('.quick-input-box input');
    await this.pickQuickItem(/acme-github/);
    await this.quickInput().locator('.quick-input-list .monaco-list-row').filter({ hasText: repository }).first().waitFor({ state: 'visible', timeout: 15_000 });
    if (search !== undefined) await input.fill(search);
    await this.pickQuickItem(new RegExp(`${escapeRegExp(repository)}$`));
    await this.waitForNameStep(repository);
    return input;
  }

  /**
   * Waits for the create flow's name step of `repository` (owner/name). Its input box is the same
   * one the repository search typed into, so checking only the box's value could pass on that text.
   */
  async waitForNameStep(repository: string): Promise<void> {
    const prompt = this.quickInput().locator('.quick-input-message').filter({ hasText: `Name of the new deployment of ${repository}:` });
    await prompt.waitFor({ state: 'visible', timeout: 15_000 });
  }

  /**
   * Runs a command from the command palette (F1) by its shown title, e.g. "Deployments: Refresh".
   * Opens the palette again whenever its input is not visible: focus can still be moving (after a
   * reload, a notification, an editor closing, a view still loading) and close it, before the
   * title is typed or before its row is clicked. A row that could not be clicked ran nothing, so
   * trying again cannot run the command twice.
   */
  async runCommand(title: string): Promise<void> {
    const input = this.quickInput().locator('.quick-input-box input');
    const row = this.quickItem(title);
    let opened = false;
    await poll(
      `the command palette to run “${title}”`,
      async () => {
        if (!opened || !(await input.isVisible())) {
          await this.page.keyboard.press('F1');
          await input.waitFor({ state: 'visible', timeout: 3_000 });
          opened = true;
        }
        await input.fill(`>${title}`, { timeout: 2_000 });
        await row.click({ timeout: 5_000 });
        return true;
      },
      30_000,
    );
  }

  /** Answers an open quick input / input box: types `text` and presses Enter. */
  async answerQuickInput(text: string): Promise<void> {
    const input = this.quickInput().locator('.quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill(text);
    await input.press('Enter');
  }

  /** The quick input's row whose label is `label` (the whole label, or a RegExp). */
  quickItem(label: string | RegExp): Locator {
    return this.quickInput()
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: exactText(label) }) })
      .first();
  }

  /** Picks a quick-pick entry by its label (the whole label, or a RegExp). */
  async pickQuickItem(label: string | RegExp): Promise<void> {
    const row = this.quickItem(label);
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
  }

  /** Messages of the notification toasts currently shown. */
  async notifications(): Promise<string[]> {
    const msgs = await this.page.locator('.notifications-toasts .notification-toast .notification-list-item-message').allTextContents();
    return msgs.map((m) => m.trim());
  }

  /** Waits for a notification toast whose message matches, and returns its text. */
  async waitForNotification(match: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const re = typeof match === 'string' ? new RegExp(escapeRegExp(match)) : match;
    const toast = this.page
      .locator('.notifications-toasts .notification-toast .notification-list-item-message')
      .filter({ hasText: re })
      .first();
    await toast.waitFor({ state: 'visible', timeout: timeoutMs });
    return ((await toast.textContent()) ?? '').trim();
  }

  /** Closes all notification toasts. */
  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications').catch(() => undefined);
    await this.page.keyboard.press('Escape').catch(() => undefined);
  }

  // ------------------------------------------------------------------ screenshots

  /**
   * Saves a PNG of the page as `<DE_OUTPUT_DIR>/<name>-<scenario>.png` and returns its path. Each
   * element of `shows` must first be visible inside the page's viewport, so the picture shows it:
   * the test asserts on the DOM, the file is for people (the README uses them).
   */
  async screenshot(scenario: string, options: { shows?: Locator[] } = {}): Promise<string> {
    for (const element of options.shows ?? []) await this.assertInViewport(element);
    fs.mkdirSync(this.env.outputDir, { recursive: true });
    const safe = `${this.name}-${scenario}`.replace(/[^A-Za-z0-9._-]+/g, '-');
    const file = path.join(this.env.outputDir, `${safe}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** Fails unless the element is visible and at least partly inside the page's viewport. */
  async assertInViewport(element: Locator, timeoutMs = 5_000): Promise<void> {
    await element.waitFor({ state: 'visible', timeout: timeoutMs });
    const box = await element.boundingBox();
    const viewport = this.page.viewportSize();
    const inside =
      !!box && !!viewport && box.width > 0 && box.height > 0 &&
      box.x < viewport.width && box.y < viewport.height && box.x + box.width > 0 && box.y + box.height > 0;
    if (!inside) throw new Error(`${element} is outside the page's viewport (${JSON.stringify(box)} in ${JSON.stringify(viewport)})`);
  }
}
