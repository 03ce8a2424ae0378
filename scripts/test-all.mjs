#!/usr/bin/env node
// `npm test`: everything, in order, also in CI (CI=true, no stdin):
//   0. npm ci when node_modules is missing, then scripts/provision.mjs
//   0. build, once for every stage: tsc -p . (out/) and npm run package (esbuild --production into dist/, the .vsix)
//   0. lint                  node scripts/lint.mjs               (eslint + boundaries, unused exports, commands tested)
//   1. unit tests            node --test out/test/unit/*.test.js (node:test)
//   2. extension-host tests  node scripts/run-extension-tests.mjs --skip-build (mocha in code-server, the packaged bundle)
//   3. UI tests              node scripts/run-ui-tests.mjs --skip-build        (node:test + playwright, the .vsix)
// The start-up benchmark (test/ui/startup.test.ts) is not a stage: `npm run bench` runs it.
// Prints one summary line per stage ("unit: N passed, N failed, N skipped (why)") and, as the
// very last line, the totals ("N passed, N failed, N skipped"). Exits non-zero when a
// stage fails or runs no test.
//
// Usage: node scripts/test-all.mjs [--only lint,unit,ext-host,ui]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';
import { ensureNodeModules } from './lib/setup.mjs';

const argv = process.argv.slice(2);
const onlyIdx = argv.indexOf('--only');
const only = onlyIdx >= 0 ? new Set(argv[onlyIdx + 1].split(',')) : null;
const t0 = Date.now();
const secs = (ms) => `${Math.round(ms / 1000)} s`;
const banner = (m) => console.log(`\n=== ${m} ===`);

let current = null; // the running stage's child process
let stopping = false;
for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${sig}: stopping the running stage…`);
    if (current && current.exitCode === null) {
      // The stage scripts stop their own code-server/browser/stand-in on SIGTERM.
      try { current.kill('SIGTERM'); } catch { /* gone */ }
      const hard = setTimeout(() => { try { current.kill('SIGKILL'); } catch { /* gone */ } process.exit(code); }, 20_000);
      current.on('exit', () => { clearTimeout(hard); process.exit(code); });
    } else {
      process.exit(code);
    }
  });
}

/** Runs a command, streaming its output, and returns { code, output }. */
function runStage(cmd, args, { timeoutMs, env } = {}) {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    const onData = (stream) => (chunk) => {
      const s = chunk.toString();
      output += s;
      if (output.length > 4_000_000) output = output.slice(-2_000_000);
      stream.write(s);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    let timedOut = false;
    const timer = timeoutMs ? setTimeout(() => {
      timedOut = true;
      console.error(`\n[test-all] ${cmd} ${args.join(' ')} took longer than ${secs(timeoutMs)}: stopping it`);
      child.kill('SIGTERM');
      setTimeout(() => { if (child.exitCode === null) child.kill('SIGKILL'); }, 20_000).unref();
    }, timeoutMs) : null;
    child.on('error', (err) => { output += `\n${err.message}`; });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      current = null;
      resolve({ code: timedOut ? 1 : (code ?? (signal ? 1 : 0)), output, timedOut });
    });
  });
}

const lastNumber = (text, re) => {
  let m;
  let last = null;
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  while ((m = g.exec(text))) last = Number(m[1]);
  return last;
};

/** Test counts from node:test (spec or tap) or mocha output; null when none found. */
function parseCounts(output) {
  const res = output.match(/(?:EXT-HOST|STAGE)-RESULT (\{.*\})/g);
  if (res) {
    try {
      const j = JSON.parse(res[res.length - 1].replace(/^(?:EXT-HOST|STAGE)-RESULT /, ''));
      return { passed: j.passed | 0, failed: j.failed | 0, skipped: j.pending | 0, reasons: Array.isArray(j.skipped) ? j.skipped : [] };
    } catch { /* fall through */ }
  }
  const nodePass = lastNumber(output, /^(?:ℹ|#) pass (\d+)\s*$/m);
  const nodeFail = lastNumber(output, /^(?:ℹ|#) fail (\d+)\s*$/m);
  if (nodePass !== null || nodeFail !== null) {
    const cancelled = lastNumber(output, /^(?:ℹ|#) cancelled (\d+)\s*$/m) || 0;
    const skipped = (lastNumber(output, /^(?:ℹ|#) skipped (\d+)\s*$/m) || 0) + (lastNumber(output, /^(?:ℹ|#) todo (\d+)\s*$/m) || 0);
    return { passed: nodePass || 0, failed: (nodeFail || 0) + cancelled, skipped };
  }
  const mPass = lastNumber(output, /^\s*(\d+) passing\b/m);
  const mFail = lastNumber(output, /^\s*(\d+) failing\b/m);
  if (mPass !== null || mFail !== null) {
    return { passed: mPass || 0, failed: mFail || 0, skipped: lastNumber(output, /^\s*(\d+) pending\b/m) || 0 };
  }
  return null;
}

const results = [];
/** Steps that are not test stages (provisioning, the build) and their times, for the summary. */
const timings = [];
function record(name, { code, output, ms, note }) {
  const counts = parseCounts(output || '') || { passed: 0, failed: 0, skipped: 0 };
  // Tests a stage could not run here, each with why (EXT-HOST-RESULT's `skipped`: [{ tests, reason }]).
  const reasons = counts.reasons ?? [];
  const skipped = counts.skipped + reasons.reduce((sum, r) => sum + (r.tests | 0), 0);
  const problems = [];
  if (note) problems.push(note);
  if (code !== 0) problems.push(`exit ${code}`);
  if (counts.passed + counts.failed === 0) problems.push('no test ran');
  // A stage that failed without reporting a failing test still counts as one failure.
  const failed = counts.failed || (problems.length ? 1 : 0);
  results.push({ name, passed: counts.passed, failed, skipped, reasons, ok: problems.length === 0, problems, ms });
}

async function main() {
  // ---------------------------------------------------------------- 0. setup
  if (!ensureNodeModules((m) => banner(m))) {
    console.error('npm ci failed');
    console.log('0 passed, 1 failed');
    process.exit(1);
  }

  const want = (s) => !only || only.has(s);
  let provisioned = true;
  if (want('ext-host') || want('ui')) {
    banner('provision (code-server, chromium)');
    const t = Date.now();
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'provision.mjs')], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    provisioned = r.status === 0;
    console.log(`[test-all] provision ${provisioned ? 'ok' : 'FAILED'} (${secs(Date.now() - t)})`);
    timings.push(['provision', Date.now() - t]);
  }

  // ---------------------------------------------------------------- build (once)
  // One type-check (tsc writes out/: the tests, the stand-in) and one bundle (the .vsix's production build, whose
  // dist/extension.js the extension-host stage loads too): the stages below get --skip-build.
  let built = true;
  if (['unit', 'ext-host', 'ui'].some(want)) {
    banner('build (tsc -p ., npm run package)');
    const t = Date.now();
    // tsc never deletes: a test whose source is gone would still run from an old out/.
    fs.rmSync(path.join(ROOT, 'out'), { recursive: true, force: true });
    for (const [cmd, args] of [['npx', ['tsc', '-p', '.']], ['npm', ['run', '-s', 'package']]]) {
      if (!built || stopping) break;
      const r = await runStage(cmd, args, { timeoutMs: 5 * 60_000 });
      built = r.code === 0;
    }
    console.log(`[test-all] build ${built ? 'ok' : 'FAILED'} (${secs(Date.now() - t)})`);
    timings.push(['build', Date.now() - t]);
  }

  // ---------------------------------------------------------------- stages
  const unitFiles = () => {
    const dir = path.join(ROOT, 'out', 'test', 'unit');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort().map((f) => path.join('out', 'test', 'unit', f)) : [];
  };
  const stages = [
    { name: 'lint', title: 'stage 0: lint (eslint + import boundaries, unused exports, every command tested)', cmd: process.execPath, args: () => ['scripts/lint.mjs'], timeoutMs: 5 * 60_000, needsBuild: false },
    { name: 'unit', title: 'stage 1: unit tests', cmd: process.execPath, args: () => ['--test', '--test-reporter=spec', ...unitFiles()], timeoutMs: 10 * 60_000, needsBuild: true },
    { name: 'ext-host', title: 'stage 2: extension-host tests (code-server)', cmd: process.execPath, args: () => ['scripts/run-extension-tests.mjs', '--skip-build'], timeoutMs: 9 * 60_000, needsProvision: true, needsBuild: true },
    { name: 'ui', title: 'stage 3: UI tests (code-server + chromium)', cmd: process.execPath, args: () => ['scripts/run-ui-tests.mjs', '--skip-build'], timeoutMs: 10 * 60_000, needsProvision: true, needsBuild: true },
  ];
  for (const s of stages) {
    if (!want(s.name) || stopping) continue;
    banner(s.title);
    if (s.needsBuild && !built) {
      console.error(`[test-all] skipping ${s.name}: the build failed`);
      record(s.name, { code: 1, output: '', ms: 0, note: 'build failed' });
      continue;
    }
    if (s.needsProvision && !provisioned) {
      console.error(`[test-all] skipping ${s.name}: provisioning failed`);
      record(s.name, { code: 1, output: '', ms: 0, note: 'provisioning failed' });
      continue;
    }
    const t = Date.now();
    const r = await runStage(s.cmd, s.args(), { timeoutMs: s.timeoutMs });
    record(s.name, { code: r.code, output: r.output, ms: Date.now() - t, note: r.timedOut ? 'timed out' : undefined });
  }

  // ---------------------------------------------------------------- summary
  banner(`summary (${secs(Date.now() - t0)})`);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const [name, ms] of timings) console.log(`${name}: ${secs(ms)}`);
  for (const r of results) {
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
    const extra = [secs(r.ms), ...r.problems].filter(Boolean).join('; ');
    console.log(`${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped${extra ? ` (${extra})` : ''}`);
    for (const { tests, file, reason } of r.reasons) console.log(`  skipped ${tests} in ${file}: ${reason}`);
  }
  const ok = results.length > 0 && results.every((r) => r.ok);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err && err.stack || err);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
