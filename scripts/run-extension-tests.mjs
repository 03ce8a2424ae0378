#!/usr/bin/env node
// Runs the extension-host tests (out/test/integration/**/*.test.js, through
// out/test/integration/index.js) inside a real VS Code. The repository itself
// is the extension under development, so no packaging.
//  - By default in code-server from the provisioning cache (scripts/provision.mjs),
//    opened in headless chromium: needs only the npm registry.
//  - With --electron in desktop VS Code through @vscode/test-electron, which
//    downloads it into .vscode-test/: where the VS Code download service can
//    be reached (`npm run test:electron`).
//
// A test file with the line `// ext-runner: private-trust-store` runs in code-server launches of its own, one
// whose system CA bundle holds a test CA and a control one whose bundle does not: each code-server runs in a
// private mount namespace (unshare, as root) with a copy of the bundle bound over the system's, its trust
// environment variables unset but NODE_EXTRA_CA_CERTS naming another test CA; the machine is never changed.
// The test CAs are in the folder DE_TEST_PKI names (test/server/testCertificates.ts), DE_TRUST_STORE says
// which bundle the launch has (`with-test-ca` / `without-test-ca`). Not run with --electron; skipped,
// saying why, where unshare cannot be used.
//
// Usage: node scripts/run-extension-tests.mjs [--electron] [--skip-build] [--grep PATTERN]
// Env:   DE_EXT_TEST_TIMEOUT_MS  overall limit (default 8 minutes)
//        DE_VERBOSE=1            also print the workbench's own console noise (code-server)
//        VSCODE_TEST_VERSION     the VS Code version --electron downloads (default 1.100.3)
// Exit code: what the tests report (0 = all passed), 1 on a timeout or a
// harness error (for --electron: VS Code could not be downloaded).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
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

/** A test file that needs a code-server with its own system trust store says so with this line. */
const TRUST_STORE_MARKER = /^\/\/ ext-runner: private-trust-store$/m;
const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';

function findTests(dir) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(full));
    else if (entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

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
  const files = findTests(path.dirname(indexJs));
  const trustStoreFiles = files.filter((file) => TRUST_STORE_MARKER.test(fs.readFileSync(file, 'utf8')));
  const plainFiles = files.filter((file) => !trustStoreFiles.includes(file));
  let code;
  if (electron) {
    const names = trustStoreFiles.map((f) => path.basename(f)).join(', ');
    if (names) log(`not run in Electron (they need a private trust store): ${names}`);
    code = await runInElectron(indexJs, plainFiles);
  } else {
    // With --grep, a launch runs only for files whose text the pattern matches (the first one also when none does).
    const matching = (list) => list.filter((file) => !grep || new RegExp(grep).test(fs.readFileSync(file, 'utf8')));
    const wanted = matching(trustStoreFiles);
    const results = [];
    const skipped = [];
    if (!wanted.length || matching(plainFiles).length) results.push(await runInCodeServer(indexJs, { files: plainFiles }));
    if (wanted.length) {
      const unusable = trustStoreUnusable();
      if (unusable) {
        // Not silently gone: each test these files hold is counted as skipped, with why (scripts/test-all.mjs prints it).
        for (const file of wanted) {
          const tests = countTests(file);
          log(`SKIPPED ${tests} test(s) of ${path.basename(file)}: ${unusable}`);
          skipped.push({ file: path.basename(file), tests, reason: unusable });
        }
      } else {
        results.push(...(await runTrustStoreLaunches(indexJs, wanted)));
      }
    }
    code = results.some((result) => result.code !== 0) ? 1 : 0;
    if (results.length !== 1 || skipped.length) {
      // The one line scripts/test-all.mjs reads (it takes the last): the sum of the launches, and what was skipped.
      const total = { passed: 0, failed: 0, pending: 0, files: 0 };
      for (const { counts } of results) for (const key of Object.keys(total)) total[key] += counts?.[key] ?? 0;
      if (results.some((result) => result.code !== 0 && !result.counts?.failed)) total.failed += 1;
      console.log(`EXT-HOST-RESULT ${JSON.stringify({ ...total, skipped })}`);
    }
  }
  await runCleanups();
  log(`finished with exit code ${code} in ${Math.round((Date.now() - t0) / 1000)} s`);
  return code;
}

/**
 * The trust-store files, in two code-server launches, each in a private mount namespace with its own copy of the
 * system CA bundle over the system's: one that holds the test CA `system`, a control one that does not. The
 * trust environment variables are unset for them, except NODE_EXTRA_CA_CERTS, which names the test CA `extra`.
 */
/** Why the private-trust-store launches cannot run on this machine, or undefined when they can. */
function trustStoreUnusable() {
  const canUnshare = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('unshare', ['--mount', 'true']).status === 0;
  if (!canUnshare) return 'a private trust store needs root and unshare --mount on Linux';
  if (!fs.existsSync(SYSTEM_BUNDLE)) return `a private trust store needs the system bundle ${SYSTEM_BUNDLE}`;
  return undefined;
}

/** The mocha tests a compiled file declares (its `it(` calls), for the skipped count when it cannot run. */
function countTests(file) {
  return (fs.readFileSync(file, 'utf8').match(/^\s*(?:\(0, mocha_1\.)?it\)?\(/gm) ?? []).length || 1;
}

async function runTrustStoreLaunches(indexJs, files) {
  const names = files.map((f) => path.basename(f)).join(', ');
  const { makeAuthorities } = createRequire(import.meta.url)(path.join(ROOT, 'out', 'test', 'server', 'testCertificates.js'));
  const pki = fs.mkdtempSync(path.join(os.tmpdir(), 'de-ext-pki-'));
  const authorities = makeAuthorities(pki, ['system', 'extra', 'file', 'stranger']);
  const systemBundle = fs.readFileSync(SYSTEM_BUNDLE, 'utf8');
  const results = [];
  try {
    for (const store of ['with-test-ca', 'without-test-ca']) {
      const bundle = path.join(pki, `bundle-${store}.crt`);
      fs.writeFileSync(bundle, store === 'with-test-ca' ? `${systemBundle.trimEnd()}\n${authorities.system.cert}` : systemBundle);
      log(`${names}: code-server with ${store === 'with-test-ca' ? 'the test CA in' : 'the control bundle (no test CA) as'} its system bundle`);
      results.push(
        await runInCodeServer(indexJs, {
          files,
          label: `ext-tests-${store}`,
          prefix: ['unshare', '--mount', '--propagation', 'private', '--', 'sh', '-c', `mount --bind "$0" ${SYSTEM_BUNDLE} && exec "$@"`, bundle],
          env: {
            NODE_EXTRA_CA_CERTS: authorities.extra.certFile,
            SSL_CERT_FILE: undefined,
            SSL_CERT_DIR: undefined,
            CURL_CA_BUNDLE: undefined,
            NIX_SSL_CERT_FILE: undefined,
            DE_TEST_PKI: pki,
            DE_TRUST_STORE: store,
          },
          // What code-server's processes see at the bundle's path: the copy, not the machine's file.
          check: (pid) => {
            const seen = fs.readFileSync(`/proc/${pid}/root${SYSTEM_BUNDLE}`, 'utf8');
            if (seen.includes(authorities.system.cert.trim()) !== (store === 'with-test-ca')) {
              throw new HarnessError(`code-server's view of ${SYSTEM_BUNDLE} is not the ${store} bundle`);
            }
            if (fs.readFileSync(SYSTEM_BUNDLE, 'utf8') !== systemBundle) throw new HarnessError(`the machine's ${SYSTEM_BUNDLE} changed`);
          },
        }),
      );
    }
  } finally {
    fs.rmSync(pki, { recursive: true, force: true });
  }
  return results;
}

/** The same index in desktop VS Code, downloaded by @vscode/test-electron; a failed download says what to run instead. */
async function runInElectron(indexJs, files) {
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
    extensionTestsEnv: { DE_REPO_ROOT: ROOT, DE_EXT_TEST_FILES: JSON.stringify(files), ...(grep ? { DE_EXT_TEST_GREP: grep } : {}) },
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

/**
 * `files` in code-server in headless chromium: the test output comes through the browser console. `prefix`, `env`
 * and `check` (given code-server's pid before the workbench opens) are a launch's own. Answers the exit code and
 * the test counts the extension host reported.
 */
async function runInCodeServer(indexJs, { files, label = 'ext-tests', prefix, env = {}, check }) {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'de-ext-ws-'));
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Extension-host test workspace\n');

  const cs = await startCodeServer({
    label,
    workspace,
    settings: { ...QUIET_SETTINGS },
    // Open Repository and the like hand a page to VS Code's opener without a question a test cannot answer; the
    // browser's context (newOfflineContext) lets the page go nowhere but loopback.
    trustedDomains: ['*'],
    prefix,
    env: {
      DE_EXT_HOST_ENV_PROBE: 'inherited',
      DE_EXT_TEST_MARK: MARK,
      DE_REPO_ROOT: ROOT,
      DE_EXT_TEST_FILES: JSON.stringify(files),
      ...(grep ? { DE_EXT_TEST_GREP: grep } : {}),
      ...env,
    },
  });
  log(`code-server ${cs.url} (pid/pgid ${cs.pid}) ready in ${cs.startupMs} ms`);
  check?.(cs.pid);

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
  let counts;
  page.on('console', (msg) => {
    const text = messageText(msg);
    if (text.startsWith(MARK)) {
      const result = /EXT-HOST-RESULT (\{.*\})/.exec(text);
      if (result) counts = JSON.parse(result[1]);
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
  // Generous: on a loaded 2-core machine the first page of a fresh code-server can take longer than playwright's 30 s.
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });

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
  if (code !== 0 && !counts) {
    // No test result: the harness, the extension or index.js went wrong; show why.
    if (errors.length) console.error(`[ext-tests] last errors in the workbench console:\n${errors.join('\n')}`);
    const csLog = cs.log().split('\n').slice(-40).join('\n');
    console.error(`[ext-tests] last lines of code-server's log:\n${csLog}`);
  }
  await browser.close();
  await cs.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
  return { code, counts };
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
