#!/usr/bin/env node
// Fails, naming the keys, when l10n/bundle.l10n.json is not what `npm run l10n` (@vscode/l10n-dev
// export) writes from src/ now. Part of `npm run lint`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-check-'));
try {
  const cli = path.join(ROOT, 'node_modules', '.bin', 'vscode-l10n-dev');
  const run = spawnSync(cli, ['export', '--outDir', out, 'src'], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`l10n-dev export failed:\n${run.stderr}`);
  const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});
  const fresh = read(path.join(out, 'bundle.l10n.json'));
  const committed = read(path.join(ROOT, 'l10n', 'bundle.l10n.json'));
  const missing = Object.keys(fresh).filter((key) => !(key in committed));
  const stale = Object.keys(committed).filter((key) => !(key in fresh));
  if (missing.length > 0 || stale.length > 0) {
    if (missing.length > 0) console.error(`l10n/bundle.l10n.json lacks ${missing.length} message(s) of src/:\n  ${missing.join('\n  ')}`);
    if (stale.length > 0) console.error(`l10n/bundle.l10n.json holds ${stale.length} message(s) no longer in src/:\n  ${stale.join('\n  ')}`);
    console.error('Run `npm run l10n` to rewrite it.');
    process.exit(1);
  }
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
