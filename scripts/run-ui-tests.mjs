#!/usr/bin/env node
// UI tests: the packaged extension (.vsix) in a real VS Code (code-server),
// driven in headless chromium with playwright-core, against the control-plane
// stand-in. One code-server and one browser server are shared by all test
// files (out/test/ui/**/*.test.js, run by node's test runner one file at a
// time); each file opens its own browser context (test/ui/workbench.ts).
// That code-server runs with workspace trust off. When a file to run contains
// the line `// ui-runner: workspace-trust`, a second one, started the same way
// but with workspace trust on (folders open in Restricted Mode), runs beside it
// for such files (DE_TRUST_CODE_SERVER_URL).
//
// Usage: node scripts/run-ui-tests.mjs [--skip-build] [--keep] [--test-name-pattern=RE]… [files…]
//   --skip-build  use the existing out/ and dist/deployments-explorer.vsix
//   --keep        keep code-server's temp folders (logs) after the run
//   --test-name-pattern=RE  passed to node's test runner: run only the tests
//                 whose name matches (repeatable), e.g. one test alone to
//                 check that it does not depend on the ones before it
//   files         run only these compiled test files (default: all but the start-up benchmark,
//                 out/test/ui/startup.test.js, which `npm run bench` runs by naming it)
// Screenshots and code-server's log go to test-output/ui/.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, VSIX } from './lib/paths.mjs';
import { QUIET_SETTINGS, startCodeServer } from './lib/codeServer.mjs';
import { launchBrowserServer } from './lib/browser.mjs';
import { onCleanup, runCleanups } from './lib/cleanup.mjs';
import { startStandIn } from './lib/standIn.mjs';

const argv = process.argv.slice(2);
const skipBuild = argv.includes('--skip-build');
const keep = argv.includes('--keep');
const namePatterns = argv.filter((a) => a.startsWith('--test-name-pattern='));
const onlyFiles = argv.filter((a) => !a.startsWith('--'));
const OUTPUT_DIR = path.join(ROOT, 'test-output', 'ui');
/** A test file that needs a workbench with workspace trust on says so with this line. */
const TRUST_MARKER = /^\/\/ ui-runner: workspace-trust$/m;
/** Run only when named: the start-up benchmark (five fresh windows) belongs to `npm run bench`, not to `npm test`. */
const BENCH_ONLY = new Set(['startup.test.js']);
const log = (m) => console.log(`[ui-tests] ${m}`);

function sh(cmd, args) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

function findTests(dir) {
  if (!fs.existsSync(dir)) return [];
  const found = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) found.push(...findTests(full));
    else if (e.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

async function main() {
  const t0 = Date.now();
  if (!skipBuild) {
    sh('npx', ['tsc', '-p', '.']);
    sh('npm', ['run', '-s', 'package']);
  }
  if (!fs.existsSync(VSIX)) throw new Error(`${path.relative(ROOT, VSIX)} is missing (npm run package)`);
  const files = onlyFiles.length
    ? onlyFiles.map((f) => path.resolve(f))
    : findTests(path.join(ROOT, 'out', 'test', 'ui')).filter((f) => !BENCH_ONLY.has(path.basename(f)));
  if (!files.length) throw new Error('no UI test files (out/test/ui/**/*.test.js)');

  // Not emptied first: another run (another file subset) may be writing there too.
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });

  const standIn = await startStandIn();
  const integrations = (standIn.integrations || []).slice(0, 2).map((i) => ({ id: i.id, label: i.label }));
  log(`stand-in ${standIn.url} (${(standIn.integrations || []).length} integrations)`);

  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'de-ui-ws-'));
  fs.writeFileSync(path.join(workspace, 'README.md'), '# UI test workspace\n');
  onCleanup(() => fs.rmSync(workspace, { recursive: true, force: true }));

  const settings = {
    ...QUIET_SETTINGS,
    'deploymentsExplorer.baseUrl': standIn.url,
    'deploymentsExplorer.integrations': integrations,
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
  };
  const options = { workspace, settings, env: { DEPLOYMENTS_EXPLORER_API_KEY: standIn.apiKey ?? '' }, vsix: [VSIX], keepDirs: keep };
  const cs = await startCodeServer({ ...options, label: 'ui-tests' });
  log(`code-server ${cs.url} (pid/pgid ${cs.pid}) with ${path.relative(ROOT, VSIX)} installed, ready in ${cs.startupMs} ms`);

  // Only when a file asks for it: a second code-server costs a core for seconds on this machine.
  const trustFiles = files.filter((f) => TRUST_MARKER.test(fs.readFileSync(f, 'utf8')));
  const trusting = trustFiles.length === 0 ? undefined : await startCodeServer({ ...options, label: 'ui-tests-trust', workspaceTrust: true });
  if (trusting) log(`code-server ${trusting.url} (pid/pgid ${trusting.pid}) with workspace trust on, for ${trustFiles.map((f) => path.basename(f)).join(', ')}, ready in ${trusting.startupMs} ms`);

  const browserServer = await launchBrowserServer();

  const env = {
    ...process.env,
    DE_UI_URL: cs.workbenchUrl(),
    DE_CODE_SERVER_URL: cs.url,
    DE_WORKSPACE: workspace,
    DE_STANDIN_URL: standIn.url,
    DE_STANDIN_API_KEY: standIn.apiKey ?? '',
    DE_INTEGRATIONS: JSON.stringify(integrations),
    DE_ALL_INTEGRATIONS: JSON.stringify((standIn.integrations || []).map((i) => ({ id: i.id, label: i.label }))),
    DE_BROWSER_WS: browserServer.wsEndpoint(),
    DE_OUTPUT_DIR: OUTPUT_DIR,
    DE_USER_SETTINGS: path.join(cs.dirs.userData, 'User', 'settings.json'),
    ...(trusting ? {
      DE_TRUST_CODE_SERVER_URL: trusting.url,
      DE_TRUST_USER_SETTINGS: path.join(trusting.dirs.userData, 'User', 'settings.json'),
    } : {}),
  };
  const args = ['--test', '--test-reporter=spec', '--test-concurrency=1', ...namePatterns, ...files];
  log(`$ node ${args.map((a) => path.isAbsolute(a) ? path.relative(ROOT, a) : a).join(' ')}`);
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const unregister = onCleanup(() => { try { child.kill('SIGTERM'); } catch { /* gone */ } });
  const code = await new Promise((resolve) => child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));
  unregister();

  fs.copyFileSync(cs.dirs.log, path.join(OUTPUT_DIR, 'code-server.log'));
  if (trusting) fs.copyFileSync(trusting.dirs.log, path.join(OUTPUT_DIR, 'code-server-trust.log'));
  await runCleanups();
  const pngs = fs.readdirSync(OUTPUT_DIR).filter((f) => f.endsWith('.png') && fs.statSync(path.join(OUTPUT_DIR, f)).mtimeMs >= t0);
  log(`screenshots in ${path.relative(ROOT, OUTPUT_DIR)}/: ${pngs.join(', ') || 'none'}`);
  // Timings the tests recorded in this run (test/ui/startup.test.ts: activation as VS Code reports it,
  // opening the container to the first deployment rows).
  try {
    const timings = JSON.parse(fs.readFileSync(path.join(OUTPUT_DIR, 'timings.json'), 'utf8')).filter((t) => Date.parse(t.at) >= t0);
    for (const t of timings) {
      const verdict = t.target === undefined ? '' : `   target ≤ ${t.target} ms ${t.ms <= t.target ? 'OK' : 'OVER'}`;
      log(`timing: ${t.name}: ${t.ms} ms${verdict}`);
    }
  } catch {
    /* no timings recorded in this run */
  }
  log(`finished with exit code ${code} in ${Math.round((Date.now() - t0) / 1000)} s`);
  return code;
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    console.error(`[ui-tests] ERROR: ${err && err.stack || err}`);
    await runCleanups();
    process.exit(1);
  },
);
