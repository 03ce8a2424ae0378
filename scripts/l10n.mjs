#!/usr/bin/env node
// `npm run l10n`: writes l10n/bundle.l10n.json, the English bundle translators start from, with
// @vscode/l10n-dev's exporter (every `vscode.l10n.t` / `l10n.t` message in src/).
// `--check` (part of `npm run lint`) writes nothing and fails, naming the keys, when the committed
// bundle is not what the exporter collects now.
// The exporter recognises `import * as vscode from 'vscode'` but not TypeScript's
// `import vscode = require('vscode')`, which src/ uses (eslint.config.mjs says why): it reads that line
// in the first form.
import fs from 'node:fs';
import path from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';
import { ROOT } from './lib/paths.mjs';

const BUNDLE = path.join(ROOT, 'l10n', 'bundle.l10n.json');
const sources = fs
  .readdirSync(path.join(ROOT, 'src'), { recursive: true })
  .filter((file) => file.endsWith('.ts'))
  .sort()
  .map((file) => ({
    extension: '.ts',
    contents: fs.readFileSync(path.join(ROOT, 'src', file), 'utf8').replace(/^import vscode = require\('vscode'\);$/m, "import * as vscode from 'vscode';"),
  }));
const fresh = await getL10nJson(sources);

if (!process.argv.includes('--check')) {
  fs.writeFileSync(BUNDLE, `${JSON.stringify(fresh, null, 2)}\n`);
  console.log(`${path.relative(ROOT, BUNDLE)}: ${Object.keys(fresh).length} messages`);
} else {
  const committed = JSON.parse(fs.readFileSync(BUNDLE, 'utf8'));
  const missing = Object.keys(fresh).filter((key) => !(key in committed));
  const stale = Object.keys(committed).filter((key) => !(key in fresh));
  if (missing.length > 0) console.error(`l10n/bundle.l10n.json lacks ${missing.length} message(s) of src/:\n  ${missing.join('\n  ')}`);
  if (stale.length > 0) console.error(`l10n/bundle.l10n.json holds ${stale.length} message(s) no longer in src/:\n  ${stale.join('\n  ')}`);
  if (missing.length > 0 || stale.length > 0) {
    console.error('Run `npm run l10n` to rewrite it.');
    process.exit(1);
  }
}
