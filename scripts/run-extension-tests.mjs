#!/usr/bin/env node
// Runs the extension-host tests (out/test/integration/**/*.test.js, through
// out/test/integration/index.js) inside a real VS Code. The repository itself
// is the extension under development, so no packaging.
//  - By default in code-server from .vscode-test/ (scripts/provision.mjs),
//    opened in headless chromium: needs only the npm registry.
//  - With --electron in desktop VS Code through @vscode/test-electron, which
//    downloads it into .vscode-test/: where the VS Code download service can
//    be reached (`npm run test:electron`).
//
// Usage: node scripts/run-extension-tests.mjs [--electron] [--skip-build] [--grep PATTERN]
// Env:   DE_EXT_TEST_TIMEOUT_MS  overall limit (default 8 minutes)
//        DE_VERBOSE=1            also print the workbench's own console noise (code-server)
//        VSCODE_TEST_VERSION     the VS Code version --electron downloads (default 1.100.3)
// Exit code: what the tests report (0 = all passed), 1 on a timeout or a
// harness error (for --electron: VS Code could not be downloaded).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';
import { QUIET_SETTINGS, startCodeServer } from './lib/codeServer.mjs';
import { launchBrowser, newOfflineContext } from './lib/browser.mjs';
import { runCleanups } from './lib/cleanup.mjs';

const argv = process.argv.slice(2);
const skipBuild = argv.includes('--skip-build');
const electron = argv.includes('--electron');
const grepIdx = argv.indexOf('--grep');
const grep = grepIdx >= 0 ? argv[grepIdx + 1] : undefined;
const timeoutMs = Number(process.env.DE_EXT_TEST_TIMEOUT_MS || 8 * 60_000);
const verbose = process.env.DE_VERBOSE === '1';
const log = (m) => console.log(`[ext-tests] ${m}`);

/** A failure whose message says all there is to say: printed without a stack. */
class HarnessError extends Error {}

function sh(cmd, args) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

// The extension-host tests prefix their output with this mark (index.ts), so it
// can be told apart from the workbench's own logging in the browser console.
const MARK = '\u2063ext-test\u2063 ';

/** Text of a console message without the workbench's `%c LEVEL` + style prefix. */
function messageText(msg) {
  return msg.text().replace(/^%c\s*\w+\s+(?:color|background)[^ ]*: ?[^ ]+\s?/, '');
}

async function main() {
  const t0 = Date.now();
  if (!skipBuild) {
    sh('npx', ['tsc', '-p', '.']);
    sh('node', ['esbuild.js']);
  }
  const indexJs = path.join(ROOT, 'out', 'test', 'integration', 'index.js');
  if (!fs.existsSync(indexJs)) throw new Error(`${path.relative(ROOT, indexJs)} is missing (compile first)`);
  if (!fs.existsSync(path.join(ROOT, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing (node esbuild.js)');
  const code = await (electron ? runInElectron(indexJs) : runInCodeServer(indexJs));
  log(`finished with exit code ${code} in ${Math.round((Date.now() - t0) / 1000)} s`);
  return code;
}

/** The same index in desktop VS Code, downloaded by @vscode/test-electron; a failed download says what to run instead. */
async function runInElectron(indexJs) {
  const { downloadAndUnzipVSCode, runTests, TestRunFailedError } = await import('@vscode/test-electron');
  const version = process.env.VSCODE_TEST_VERSION || '1.100.3';
  let vscodeExecutablePath;
  try {
    vscodeExecutablePath = await downloadAndUnzipVSCode({ version });
  } catch (err) {
    throw new HarnessError(
      `could not download VS Code ${version} for @vscode/test-electron (${err && err.message || err}). ` +
        'Where the VS Code download service cannot be reached, run the same tests in code-server: node scripts/run-extension-tests.mjs',
    );
  }
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'de-electron-ws-'));
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => {
      console.error(`[ext-tests] TIMEOUT: VS Code did not finish the tests in ${Math.round(timeoutMs / 1000)} s`);
      resolve(1);
    }, timeoutMs);
  });
  const run = runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: indexJs,
    extensionTestsEnv: { DE_REPO_ROOT: ROOT, ...(grep ? { DE_EXT_TEST_GREP: grep } : {}) },
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  }).then(
    () => 0,
    (err) => {
      if (!(err instanceof TestRunFailedError)) throw err;
      return 1; // mocha's report, printed by the extension host, says which tests failed
    },
  );
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

/** code-server in headless chromium: the test output comes through the browser console. */
async function runInCodeServer(indexJs) {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'de-ext-ws-'));
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Extension-host test workspace\n');

  const cs = await startCodeServer({
    label: 'ext-tests',
    workspace,
    settings: { ...QUIET_SETTINGS },
    env: {
      DE_EXT_HOST_ENV_PROBE: 'inherited',
      DE_EXT_TEST_MARK: MARK,
      DE_REPO_ROOT: ROOT,
      ...(grep ? { DE_EXT_TEST_GREP: grep } : {}),
    },
  });
  log(`code-server ${cs.url} (pid/pgid ${cs.pid}) ready in ${cs.startupMs} ms`);

  const browser = await launchBrowser();
  const context = await newOfflineContext(browser);
  const page = await context.newPage();

  let resolveExit;
  const exitCode = new Promise((r) => { resolveExit = r; });
  await page.exposeFunction('codeAutomationExit', (code) => {
    log(`workbench reported exit code ${code}`);
    resolveExit(typeof code === 'number' ? code : 1);
  });
  const errors = []; // the workbench's error lines, shown when the run fails without a test result
  const boring = /Failed to load resource|gallery-disabled|ECONNREFUSED 127\.0\.0\.1:9\b/;
  let sawResult = false;
  page.on('console', (msg) => {
    const text = messageText(msg);
    if (text.startsWith(MARK)) {
      if (text.includes('EXT-HOST-RESULT')) sawResult = true;
      process.stdout.write(`${text.slice(MARK.length)}\n`);
    } else if (verbose) {
      process.stdout.write(`[workbench ${msg.type()}] ${text}\n`);
    } else if ((msg.type() === 'error' || /^%c\s*ERR/.test(msg.text())) && !boring.test(text)) {
      errors.push(text.split('\n').filter((l) => !/^\s+at .*\/static\/out\//.test(l)).join('\n'));
      if (errors.length > 30) errors.shift();
    }
  });
  page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
  page.on('crash', () => { console.error('[ext-tests] the page crashed'); resolveExit(1); });

  const payload = [
    ['extensionDevelopmentPath', cs.remoteUri(ROOT)],
    ['extensionTestsPath', cs.remoteUri(indexJs)],
  ];
  const url = cs.workbenchUrl({ folder: workspace, payload });
  log(`opening ${url}`);
  await page.goto(url, { waitUntil: 'domcontentloaded' });

  let timer;
  const timeout = new Promise((r) => {
    timer = setTimeout(() => {
      console.error(`[ext-tests] TIMEOUT: no result from the workbench after ${Math.round(timeoutMs / 1000)} s`);
      console.log(`EXT-HOST-RESULT ${JSON.stringify({ passed: 0, failed: 1, pending: 0, error: 'timeout' })}`);
      r(1);
    }, timeoutMs);
  });
  let finished = false;
  const code = await Promise.race([exitCode, timeout, cs.exited.then((e) => {
    if (!finished) console.error(`[ext-tests] code-server exited unexpectedly ${JSON.stringify(e)}`);
    return 1;
  })]);
  finished = true;
  clearTimeout(timer);
  // Let the last console lines arrive.
  await new Promise((r) => setTimeout(r, 300));
  if (code !== 0 && !sawResult) {
    // No test result: the harness, the extension or index.js went wrong; show why.
    if (errors.length) console.error(`[ext-tests] last errors in the workbench console:\n${errors.join('\n')}`);
    const csLog = cs.log().split('\n').slice(-40).join('\n');
    console.error(`[ext-tests] last lines of code-server's log:\n${csLog}`);
  }
  await runCleanups();
  fs.rmSync(workspace, { recursive: true, force: true });
  return code;
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    console.error(`[ext-tests] ERROR: ${err instanceof HarnessError ? err.message : err && err.stack || err}`);
    console.log(`EXT-HOST-RESULT ${JSON.stringify({ passed: 0, failed: 1, pending: 0, error: String(err && err.message || err) })}`);
    await runCleanups();
    process.exit(1);
  },
);
