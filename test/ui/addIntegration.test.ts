// Add Integration… typed by a person: a malformed ID is refused as it is
// typed, naming the problem; a good one with a label becomes a row whose
// repositories load. The user settings file is put back afterwards.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { snapshotUserSettings, VIEW_NAMES, Workbench } from './workbench';

const VIEW = VIEW_NAMES.integrations;
let settings: ReturnType<typeof snapshotUserSettings> | undefined;
let wb: Workbench;

before(async () => {
  settings = snapshotUserSettings();
  wb = await Workbench.open('add-integration');
});

after(async () => {
  await wb?.close();
  settings?.restore();
});

test('Add Integration… refuses a malformed ID as typed, then adds a labelled one whose repositories load', async () => {
  const all = JSON.parse(process.env.DE_ALL_INTEGRATIONS || '[]') as Array<{ id: string; label: string }>;
  const configured = new Set(wb.env.integrations.map((integration) => integration.id));
  const target = all.find((integration) => !configured.has(integration.id) && integration.label === 'monorepo-github');
  assert.ok(target, 'the stand-in has an integration the runner did not configure');

  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  await wb.expandView(VIEW);
  await wb.runCommand('Deployments: Add Integration…');
  const input = wb.quickInput().locator('.quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(target.id.slice(0, 30));
  const message = wb.quickInput().locator('.quick-input-message');
  await message.filter({ hasText: /32 hexadecimal digits/ }).waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`${target.id.slice(0, 8)} ${target.id.slice(9)}`);
  await message.filter({ hasText: /contains a space/ }).waitFor({ state: 'visible', timeout: 10_000 });
  await wb.screenshot('id-validation');

  await input.fill(target.id.toUpperCase());
  await input.press('Enter');
  await wb.quickInput().locator('.quick-input-title', { hasText: 'Label (optional)' }).waitFor({ state: 'visible' });
  await wb.answerQuickInput('Monorepo');

  const row = await wb.findRow(VIEW, 'Monorepo', 30_000);
  await wb.expandRow(row);
  await wb.findRow(VIEW, /./, 20_000);
  const descriptions = await wb.rows(VIEW).evaluateAll((rows) =>
    rows.map((r) => (r.querySelector('.label-description')?.textContent ?? '').trim()),
  );
  assert.ok(descriptions.some((d) => / · /.test(d)), `repository rows show owner · branch: ${descriptions.join(' | ')}`);
  const saved = JSON.parse(fs.readFileSync(settings!.file, 'utf8')) as Record<string, unknown>;
  assert.deepEqual(
    (saved['deploymentsExplorer.integrations'] as Array<{ id: string }>).find((entry) => entry.id === target.id),
    { id: target.id, label: 'Monorepo' },
    'saved in the user settings in canonical (lower-case) form',
  );
  await wb.screenshot('added');
});
