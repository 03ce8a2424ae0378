#!/usr/bin/env node
// `npm run lint`: ESLint (typescript-eslint + the direction of imports between the rooms of src/,
// see eslint.config.mjs) and knip (unused files, exports and dependencies). Each tool is one check;
// prints "lint: N passed, N failed" and exits non-zero when a check fails.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';

const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const checks = [
  { name: 'eslint (rules and import boundaries)', cmd: bin('eslint'), args: ['--max-warnings', '0', '.'] },
  { name: 'knip (unused files, exports, dependencies)', cmd: bin('knip'), args: ['--no-progress'] },
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
