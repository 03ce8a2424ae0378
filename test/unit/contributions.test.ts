// package.json and the code agree: every contributed command is in Commands (and so can be
// registered), every ID in Commands is contributed, and menus, keybindings and the welcome views'
// links name only contributed commands. That each one is really registered at activation is
// checked inside VS Code (test/integration/activation.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Commands } from '../../src/platform/commandIds';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const rawManifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8'));
const NLS_KEY = /^%([^%\s]+)%$/;

/** Every `%key%` string used anywhere in the manifest, in order (VS Code replaces them all). */
function nlsKeys(value: unknown): string[] {
  if (typeof value === 'string') {
    const match = NLS_KEY.exec(value);
    return match ? [match[1]] : [];
  }
  if (Array.isArray(value)) return value.flatMap(nlsKeys);
  if (value && typeof value === 'object') return Object.values(value).flatMap(nlsKeys);
  return [];
}

/** The manifest as VS Code shows it in English: each `%key%` replaced by its package.nls.json text. */
function localize(value: unknown): unknown {
  if (typeof value === 'string') {
    const match = NLS_KEY.exec(value);
    return match && match[1] in nls ? nls[match[1]] : value;
  }
  if (Array.isArray(value)) return value.map(localize);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, localize(entry)]));
  return value;
}

const manifest = localize(rawManifest) as typeof rawManifest;
const contributed = new Set<string>(manifest.contributes.commands.map((entry: { command: string }) => entry.command));
const known = new Set<string>(Object.values(Commands));

describe('contributed commands', () => {
  it('lists every contributed command in Commands, and nothing else', () => {
    assert.deepEqual([...contributed].filter((id) => !known.has(id)), [], 'contributed but not in Commands');
    assert.deepEqual([...known].filter((id) => !contributed.has(id)), [], 'in Commands but not contributed');
  });

  it('gives every command a category and a title', () => {
    for (const entry of manifest.contributes.commands) {
      assert.ok(entry.title, `${entry.command} has no title`);
      assert.ok(entry.category, `${entry.command} has no category`);
    }
  });

  it('names only contributed commands in menus and keybindings', () => {
    const used: string[] = [];
    for (const items of Object.values(manifest.contributes.menus ?? {}) as Array<Array<{ command?: string; submenu?: string }>>) {
      for (const item of items) if (item.command) used.push(item.command);
    }
    for (const binding of manifest.contributes.keybindings ?? []) used.push(binding.command);
    const unknown = used.filter((id) => id.startsWith('deploymentsExplorer.') && !contributed.has(id));
    assert.deepEqual(unknown, []);
    assert.ok(used.length > 10, 'the menus were read');
  });

  it('links only contributed commands from the welcome views and walkthroughs', () => {
    const texts = [
      ...(manifest.contributes.viewsWelcome ?? []).map((entry: { contents: string }) => entry.contents),
      ...(manifest.contributes.walkthroughs ?? []).flatMap((walkthrough: { steps: Array<{ description: string; completionEvents?: string[] }> }) =>
        walkthrough.steps.flatMap((step) => [step.description, ...(step.completionEvents ?? [])]),
      ),
    ];
    const linked = texts.flatMap((text: string) => [...text.matchAll(/command:(deploymentsExplorer\.[A-Za-z.]+)/g)].map((match) => match[1]));
    assert.ok(linked.length > 0, 'the welcome views link commands');
    assert.deepEqual(linked.filter((id) => !contributed.has(id)), []);
  });
});

describe('package.nls.json', () => {
  const used = nlsKeys(rawManifest);

  it('is what the manifest uses for its user-visible strings', () => {
    assert.ok(used.length > 50, 'the manifest uses %keys%');
    for (const entry of rawManifest.contributes.commands) {
      assert.match(entry.title, NLS_KEY, `${entry.command} has a literal title`);
      assert.match(entry.category, NLS_KEY, `${entry.command} has a literal category`);
    }
  });

  it('defines every %key% the manifest uses', () => {
    assert.deepEqual(used.filter((key) => !(key in nls)), []);
  });

  it('has no key the manifest does not use', () => {
    const usedSet = new Set(used);
    assert.deepEqual(Object.keys(nls).filter((key) => !usedSet.has(key)), []);
  });

  it('keeps the English command titles the UI tests look for', () => {
    const titles = manifest.contributes.commands.map((entry: { category: string; title: string }) => `${entry.category}: ${entry.title}`);
    assert.ok(titles.includes('Deployments: Create Deployment…'));
    assert.ok(titles.includes('Deployments: Set Base URL…'));
  });
});

describe('extension icon', () => {
  it('is a 128×128 PNG', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    const png = fs.readFileSync(path.join(ROOT, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  });
});
