// Profiles as a person uses them: Add Profile… typed in (the base URL checked as typed, the key
// as a password), the check's result, then switching through the status bar item and its quick
// pick: the views name the profile and show the second stand-in's records, which only ever sees
// its own key. Ends by removing the profile (which asks) and putting the settings file back.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { StandIn } from '../server/standIn';
import { snapshotUserSettings, VIEW_NAMES, Workbench } from './workbench';

const KEY = `sk-ui-staging-${Math.random().toString(36).slice(2)}`;
let settings: ReturnType<typeof snapshotUserSettings> | undefined;
let wb: Workbench;
let staging: StandIn;

before(async () => {
  settings = snapshotUserSettings();
  staging = await StandIn.start({ apiKey: KEY, seed: 7, deploymentCount: 30 });
  wb = await Workbench.open('profiles');
});

after(async () => {
  await wb?.close();
  await staging?.close();
  settings?.restore();
});

test('Add Profile… as typed, then switch through the status bar and the view’s title button: the views show the other control plane', async () => {
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  const status = wb.page.locator('.statusbar-item').filter({ has: wb.page.locator('.codicon-server-environment') });
  assert.equal(await status.count(), 0, 'one profile: no status bar item');

  await wb.runCommand('Deployments: Add Profile…');
  const step = (n: number) => wb.quickInput().locator('.quick-input-title', { hasText: `Add Profile (${n}/4)` }).waitFor({ state: 'visible', timeout: 15_000 });
  await step(1);
  await wb.answerQuickInput('Staging');
  await step(2);
  const input = wb.quickInput().locator('.quick-input-box input');
  await input.fill('staging.example.com');
  await wb.quickInput().locator('.quick-input-message').filter({ hasText: /is not a URL/ }).waitFor({ state: 'visible', timeout: 10_000 });
  await wb.screenshot('base-url-validation');
  await input.fill(staging.url);
  await input.press('Enter');
  await step(3);
  assert.equal(await input.getAttribute('type'), 'password', 'the key is typed into a password input');
  await wb.answerQuickInput(KEY);
  await step(4);
  await wb.answerQuickInput('');
  await wb.waitForNotification(/Profile “Staging” added: the key works at http:\/\/127\.0\.0\.1/, 30_000);
  assert.equal(staging.requests.length, 1, 'one request checks the key');

  // Two profiles: the status bar names the active one, and switches on click.
  await status.first().waitFor({ state: 'visible', timeout: 15_000 });
  assert.match((await status.first().textContent()) ?? '', /Default/);
  await wb.page.locator('.pane-header h3.title', { hasText: `${VIEW_NAMES.deployments} — Default` }).waitFor({ state: 'visible', timeout: 15_000 });
  await wb.clearNotifications();
  await status.first().click();
  await wb.pickQuickItem('Staging');

  const deployments = `${VIEW_NAMES.deployments} — Staging`;
  await wb.page.locator('.pane-header h3.title', { hasText: deployments }).waitFor({ state: 'visible', timeout: 15_000 });
  await wb.page.locator('.pane-header h3.title', { hasText: `${VIEW_NAMES.integrations} — Staging` }).waitFor({ state: 'visible' });
  assert.match((await status.first().textContent()) ?? '', /Staging/);
  await wb.expandView(deployments);
  await wb.findRow(deployments, staging.deployments[0].name, 30_000);
  await wb.screenshot('switched');
  assert.ok(staging.requests.length > 1, 'the views loaded from the second stand-in');
  assert.deepEqual([...new Set(staging.requests.map((r) => r.headers['x-api-key']))], [KEY], 'it only ever saw its own key');

  // Back to Default through the Deployments view's own title button, then Remove Profile… asks before it deletes anything.
  await wb.clickViewTitleAction(deployments, 'Switch Profile…');
  await wb.pickQuickItem('Default');
  await wb.page.locator('.pane-header h3.title', { hasText: `${VIEW_NAMES.deployments} — Default` }).waitFor({ state: 'visible', timeout: 15_000 });
  await wb.runCommand('Deployments: Remove Profile…');
  await wb.pickQuickItem('Staging');
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match((await dialog.textContent()) ?? '', /Remove profile “Staging”\?/);
  await dialog.locator('.monaco-button', { hasText: /^Remove$/ }).click();
  await status.first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => status.first().waitFor({ state: 'hidden', timeout: 1 }));
  await wb.page.locator('.pane-header h3.title', { hasText: /^Deployments$/ }).first().waitFor({ state: 'visible', timeout: 15_000 });
});
