#!/usr/bin/env node
// A check of `npm run lint`: every command package.json contributes is run by at least one test in a real VS Code
// (test/integration: the extension host; test/ui: the workbench). A test names a command by its ID
// ('deploymentsExplorer.x') or, driving the Command Palette, by its palette title ('Deployments: Title…').
// Fails naming the commands no such test names.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/paths.mjs';

const TEST_DIRS = ['test/integration', 'test/ui'];

function sources(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8'));
const localized = (value) => (typeof value === 'string' ? value.replace(/^%(.+)%$/, (whole, key) => nls[key] ?? whole) : '');
const text = TEST_DIRS.flatMap((dir) => sources(path.join(ROOT, dir)))
  .map((file) => fs.readFileSync(file, 'utf8'))
  .join('\n');

const untested = (manifest.contributes?.commands ?? []).filter(({ command, title, category }) => {
  const palette = `${localized(category)}: ${localized(title)}`;
  return !text.includes(`'${command}'`) && !text.includes(`"${command}"`) && !text.includes(`\`${command}\``) && !text.includes(palette);
});

if (untested.length) {
  console.error(`Commands in package.json that no test under ${TEST_DIRS.join(' or ')} runs (by ID or palette title):`);
  for (const { command, title, category } of untested) console.error(`  ${command}  (${localized(category)}: ${localized(title)})`);
  process.exit(1);
}
console.log(`every one of ${manifest.contributes.commands.length} contributed commands is named by a test under ${TEST_DIRS.join(' or ')}`);
