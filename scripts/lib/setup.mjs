// The first step of `npm test` and `npm run demo` on a fresh clone: install
// the npm dependencies when they are missing. Provisioning of code-server and
// chromium follows in scripts/provision.mjs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

/** Runs `npm ci` when node_modules is missing; answers false when that failed. */
export function ensureNodeModules(log = console.log) {
  const installed =
    fs.existsSync(path.join(ROOT, 'node_modules', '.package-lock.json')) ||
    fs.existsSync(path.join(ROOT, 'node_modules', 'typescript'));
  if (installed) return true;
  log('npm ci (node_modules is missing)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  return result.status === 0;
}
