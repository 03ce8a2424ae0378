#!/usr/bin/env node
// `npm run lint`: ESLint (typescript-eslint + the direction of imports between the rooms of src/,
// see eslint.config.mjs), ts-unused-exports (exported values nothing imports; unused locals and
// parameters are tsc's and ESLint's) and the l10n bundle (l10n/bundle.l10n.json holds exactly the
// messages @vscode/l10n-dev's exporter collects from src/; `npm run l10n` rewrites it) and that every contributed
// command is run by a test in a real VS Code (scripts/check-commands-tested.mjs). Each tool is one check;
// prints "lint: N passed, N failed" and exits non-zero when a check fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const checks = [
  { name: 'eslint (rules and import boundaries)', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  {
    name: 'ts-unused-exports (exported values nothing imports)',
    cmd: bin('ts-unused-exports'),
    // The entry point is used by VS Code; the api barrel re-exports for callers outside src/ (tests,
    // bench), who import it whole.
    args: ['tsconfig.json', '--allowUnusedTypes', '--excludePathsFromReport=test/;bench/;scripts/;src/extension.ts;src/api/index.ts'],
  },
  {
    name: 'commands tested (every contributed command is run by a test in a real VS Code)',
    cmd: process.execPath,
    args: [path.join(ROOT, 'scripts', 'check-commands-tested.mjs')],
  },
  {
    name: 'l10n bundle (l10n/bundle.l10n.json up to date; `npm run l10n` rewrites it)',
    cmd: process.execPath,
    args: [path.join(ROOT, 'scripts', 'l10n.mjs'), '--check'],
  },
];
const results = checks.map((check) => {
  const t = Date.now();
  const r = spawnSync(check.cmd, check.args, { cwd: ROOT, stdio: 'inherit' });
  const ok = r.status === 0;
  console.log(`[lint] ${check.name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${Date.now() - t} ms`);
  return ok;
});
const passed = results.filter(Boolean).length;
const failed = results.length - passed;
console.log(`STAGE-RESULT ${JSON.stringify({ passed, failed })}`);
console.log(`lint: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
