#!/usr/bin/env node
// Start-up as a user sees it, measured against a baseline (`npm run bench`'s `vscode` group runs this).
//
// One code-server with two extensions installed: ours (dist/deployments-explorer.vsix) and
// bench/baseline-extension (activated on onStartupFinished, a view container of the same shape,
// rows from memory). Fresh windows one after another (each its own extension host, so both activate
// afresh); in each, both figures are taken for both extensions in the same window:
//  - activation as VS Code reports it ("Developer: Show Running Extensions"). VS Code starts the clock of
//    every onStartupFinished extension at once and then requires them in order (user extensions by
//    folder name), so each figure includes the loading of those required before it: the baseline's
//    folder (bench.baseline-…) sorts before ours (deployments-explorer.…), so ours includes its
//    (tiny) loading, and both include the built-ins';
//  - opening the container → its first rows, timed in the page: from the `pointerdown` on the activity
//    bar icon to the first row with a status description in the container's second view (a
//    MutationObserver), not through the driver's round trips. The clicks wait until both extensions
//    logged their activation, and each for a quiet CPU; which container opens first alternates between windows.
// Also the extension's own log line "activate() took … ms". Prints each window's figures and, last,
// one line `BENCH-STARTUP {json}` with every window's figures for bench/bench.ts.
//
// Usage: node bench/startup.mjs [--skip-package] [--windows=N]   (after `npx tsc -p .`: it uses out/test/ui/workbench.js)
//   --skip-package  use the existing dist/deployments-explorer.vsix instead of packing it (`npm run package`)
//   --windows=N     fresh windows to measure (default 5)
//   --logs          print when each icon was clicked and each window's log of our extension (what it did meanwhile)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, VSIX } from '../scripts/lib/paths.mjs';
import { QUIET_SETTINGS, startCodeServer } from '../scripts/lib/codeServer.mjs';
import { launchBrowserServer } from '../scripts/lib/browser.mjs';
import { onCleanup, runCleanups } from '../scripts/lib/cleanup.mjs';
import { startStandIn } from '../scripts/lib/standIn.mjs';

const argv = process.argv.slice(2);
const skipPackage = argv.includes('--skip-package');
const showLogs = argv.includes('--logs');
const WINDOWS = Number(argv.find((a) => a.startsWith('--windows='))?.slice('--windows='.length) ?? 5);
const BASELINE_DIR = path.join(ROOT, 'bench', 'baseline-extension');
const log = (m) => console.log(`[startup] ${m}`);

/** The two extensions compared: display name (Running Extensions, the log file's name), container, and the view whose rows are timed. */
const OURS = { name: 'Deployments Explorer', title: 'Deployments', container: 'deploymentsExplorer', view: 'Deployments' };
const BASELINE = { name: 'Start-up Baseline', title: 'Baseline', container: 'benchBaseline', view: 'Items' };
/** A first row of either timed view: its description starts with a status (ours: a deployment's). */
const STATUS = '^(Ready|Unused|Awaiting database|Awaiting deletion|Unknown|Degraded)( · |$)';

function sh(cmd, args, cwd = ROOT) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
}

/** The baseline as a .vsix, installed the way ours is. */
function packBaseline(dir) {
  const vsix = path.join(dir, 'bench-baseline.vsix');
  sh(path.join(ROOT, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], BASELINE_DIR);
  return vsix;
}

/** Busy and total jiffies of all CPUs so far (/proc/stat's first line). */
function cpuTimes() {
  const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0);
  const total = fields.reduce((a, b) => a + b, 0);
  return { idle, total };
}

/**
 * Waits for a quiet CPU before a click: the machine at least half idle over 300 ms (one of two cores
 * free), at most `maxMs` (a shared machine may never be; the figure then says so), and then the page's
 * main thread idle (three idle callbacks in a row with 40 ms or more to spare). Answers whether the
 * machine was quiet.
 */
async function quietCpu(page, maxMs = 15_000) {
  const until = Date.now() + maxMs;
  let quiet = false;
  while (Date.now() < until) {
    const before = cpuTimes();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = cpuTimes();
    if ((after.idle - before.idle) / Math.max(1, after.total - before.total) >= 0.5) {
      quiet = true;
      break;
    }
  }
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        let inARow = 0;
        const started = performance.now();
        const check = (deadline) => {
          inARow = deadline.timeRemaining() >= 40 ? inARow + 1 : 0;
          if (inARow >= 3 || performance.now() - started > 5_000) resolve(undefined);
          else requestIdleCallback(check, { timeout: 1_000 });
        };
        requestIdleCallback(check, { timeout: 1_000 });
      }),
  );
  return quiet;
}

/**
 * Clicks `extension`'s activity bar icon and answers the time, in the page, from the icon's
 * `pointerdown` to the first row with a status description in the extension's timed view.
 */
async function containerToRows(wb, extension) {
  const icon = wb.activityBarItem(extension.title);
  await icon.waitFor({ state: 'visible', timeout: 60_000 });
  await wb.page.evaluate(
    ({ title, container, view, status }) => {
      const icon = document.querySelector(`.activitybar .action-item a.action-label[aria-label="${title}"]`);
      const re = new RegExp(status);
      const rendered = () => {
        const root = document.getElementById(`workbench.view.extension.${container}`);
        const pane = [...(root?.querySelectorAll('.split-view-view .pane') ?? [])].find((p) => p.querySelector('.pane-header h3.title')?.textContent?.trim() === view);
        return [...(pane?.querySelectorAll('.monaco-list-row[role="treeitem"] .label-description') ?? [])].some((d) => re.test(d.textContent?.trim() ?? ''));
      };
      window.__benchRows = new Promise((resolve, reject) => {
        const timeout = setTimeout(() => reject(new Error(`no row in ${view} within 60 s of the click`)), 60_000);
        icon.addEventListener(
          'pointerdown',
          () => {
            const down = performance.now();
            const observer = new MutationObserver(() => {
              if (!rendered()) return;
              observer.disconnect();
              clearTimeout(timeout);
              resolve(performance.now() - down);
            });
            observer.observe(document.body, { childList: true, subtree: true, characterData: true });
          },
          { once: true, capture: true },
        );
      });
    },
    { title: extension.title, container: extension.container, view: extension.view, status: STATUS },
  );
  const clickedAt = new Date().toISOString();
  await icon.click();
  const ms = await wb.page.evaluate(() => window.__benchRows);
  if (showLogs) log(`clicked ${extension.title} at ${clickedAt}`);
  await wb.page.mouse.move(900, 450);
  return Math.round(ms);
}

/**
 * The figure of the log line "activate() took … ms" of `name`'s log (its LogOutputChannel's file) in
 * the newest log created since `since`.
 */
async function ownActivationMs(userData, name, since, attempts = 20) {
  const files = [];
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      // Created since: an earlier window's extension host lives on (code-server keeps it for a reconnection) and still writes to its log.
      else if (entry.name === `${name}.log` && fs.statSync(full).birthtimeMs >= since) files.push(full);
    }
  };
  for (let attempt = 0; attempt < attempts; attempt++) {
    files.length = 0;
    visit(path.join(userData, 'logs'));
    files.sort((a, b) => fs.statSync(b).birthtimeMs - fs.statSync(a).birthtimeMs);
    const match = files.map((file) => /activate\(\) took ([\d.]+) ms/.exec(fs.readFileSync(file, 'utf8'))).find(Boolean);
    if (match) return { ms: Number(match[1]), file: files[0] };
    if (attempt + 1 < attempts) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no "activate() took" line in ${name}'s log`);
}

/**
 * Waits until `name`'s log says its activate() returned, in a log created since `since` (this window's
 * extension host): "Activating Extensions…" in the status bar can be gone before onStartupFinished fires.
 */
async function activated(userData, name, since) {
  const until = Date.now() + 120_000;
  for (;;) {
    const found = await ownActivationMs(userData, name, since, 1).catch(() => undefined);
    if (found) return found;
    if (Date.now() > until) throw new Error(`${name} did not log its activation within 120 s of the window's start`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main() {
  const workbenchModule = path.join(ROOT, 'out', 'test', 'ui', 'workbench.js');
  if (!fs.existsSync(workbenchModule)) throw new Error(`${path.relative(ROOT, workbenchModule)} is missing (compile with \`npx tsc -p .\`)`);
  if (!skipPackage) sh('npm', ['run', '-s', 'package']);
  if (!fs.existsSync(VSIX)) throw new Error(`${path.relative(ROOT, VSIX)} is missing (npm run package)`);
  const { Workbench } = createRequire(import.meta.url)(workbenchModule);

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'de-bench-startup-'));
  onCleanup(() => fs.rmSync(scratch, { recursive: true, force: true }));
  const baselineVsix = packBaseline(scratch);
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# start-up bench workspace\n');

  const standIn = await startStandIn();
  const integrations = (standIn.integrations || []).slice(0, 2).map((i) => ({ id: i.id, label: i.label }));
  const settings = { ...QUIET_SETTINGS, 'deploymentsExplorer.baseUrl': standIn.url, 'deploymentsExplorer.integrations': integrations };
  const cs = await startCodeServer({
    workspace,
    settings,
    env: { DEPLOYMENTS_EXPLORER_API_KEY: standIn.apiKey ?? '' },
    vsix: [baselineVsix, VSIX],
    label: 'bench-startup',
  });
  const installed = fs.readdirSync(cs.dirs.extensions).filter((name) => !name.startsWith('.') && !name.endsWith('.json')).sort();
  log(`code-server ${cs.url} with ${installed.join(', ')} (required in this order), ready in ${cs.startupMs} ms`);
  const browserServer = await launchBrowserServer();
  process.env.DE_UI_URL = cs.workbenchUrl();
  process.env.DE_BROWSER_WS = browserServer.wsEndpoint();
  process.env.DE_OUTPUT_DIR = path.join(ROOT, 'test-output', 'bench');

  const windows = [];
  for (let i = 0; i < WINDOWS; i++) {
    const opened = Date.now();
    // A loaded machine can take more than playwright's default 30 s to load the page.
    const wb = await Workbench.open('bench-startup', { loadTimeoutMs: 120_000 });
    try {
      await wb.activityBarItem(BASELINE.title).waitFor({ state: 'visible', timeout: 60_000 });
      await wb.waitForExtensionsActivated();
      await activated(cs.dirs.userData, BASELINE.name, opened);
      await activated(cs.dirs.userData, OURS.name, opened);
      // Alternate which container opens first: the first click of a window may find more still settling.
      const order = i % 2 === 0 ? [OURS, BASELINE] : [BASELINE, OURS];
      const toRows = {};
      const quiet = {};
      for (const extension of order) {
        quiet[extension.name] = await quietCpu(wb.page);
        toRows[extension.name] = await containerToRows(wb, extension);
      }
      const reported = await wb.reportedActivationsMs([OURS.name, BASELINE.name]);
      const own = await activated(cs.dirs.userData, OURS.name, opened);
      const baselineOwn = await activated(cs.dirs.userData, BASELINE.name, opened);
      const figures = {
        activation: reported.get(OURS.name),
        baselineActivation: reported.get(BASELINE.name),
        toRows: toRows[OURS.name],
        baselineToRows: toRows[BASELINE.name],
        activate: own.ms,
        baselineActivate: baselineOwn.ms,
        quietBeforeClicks: Object.values(quiet).every(Boolean),
        first: order[0].title,
      };
      if (figures.activation === undefined || figures.baselineActivation === undefined) throw new Error('Running Extensions shows no activation time for both extensions');
      windows.push(figures);
      log(
        `window ${i + 1}: activation ${figures.activation} / ${figures.baselineActivation} ms, container → rows ${figures.toRows} / ${figures.baselineToRows} ms ` +
          `(ours / baseline; ${figures.first} opened first${figures.quietBeforeClicks ? '' : '; the machine was not quiet before a click'}), activate() ${figures.activate} / ${figures.baselineActivate} ms by the logs`,
      );
      if (showLogs) log(`our log:\n${fs.readFileSync(own.file, 'utf8').trim()}`);
    } finally {
      await wb.close();
    }
  }
  console.log(`BENCH-STARTUP ${JSON.stringify({ windows, loadavg: os.loadavg() })}`);
}

main().then(
  async () => {
    await runCleanups();
    process.exit(0);
  },
  async (error) => {
    console.error(`[startup] ERROR: ${(error && error.stack) || error}`);
    await runCleanups();
    process.exit(1);
  },
);
