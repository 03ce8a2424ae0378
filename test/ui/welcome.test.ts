// The first run as a person meets it: with no base URL the views show a
// welcome message with a "Set Base URL…" button; a malformed URL is refused
// as typed, naming the problem; the right one fills the Integrations view.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { snapshotUserSettings, VIEW_NAMES, Workbench } from './workbench';

let settings: ReturnType<typeof snapshotUserSettings> | undefined;
let wb: Workbench;

before(async () => {
  settings = snapshotUserSettings({ without: ['deploymentsExplorer.baseUrl'] });
  wb = await Workbench.open('welcome');
});

after(async () => {
  await wb?.close();
  settings?.restore();
});

test('without a base URL both views offer Set Base URL…, which validates the URL and then loads the tree', async () => {
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  const integrations = await wb.expandView(VIEW_NAMES.integrations);
  const button = integrations.locator('.welcome-view-content .monaco-button', { hasText: 'Set Base URL…' });
  await button.waitFor({ state: 'visible', timeout: 30_000 });
  assert.match((await integrations.locator('.welcome-view-content').textContent()) ?? '', /Connect to your deployment control plane/);
  const deployments = await wb.expandView(VIEW_NAMES.deployments);
  await deployments.locator('.welcome-view-content .monaco-button', { hasText: 'Set Base URL…' }).waitFor({ state: 'visible' });
  await wb.screenshot('no-base-url');

  await button.click();
  const input = wb.quickInput().locator('.quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill('api.example.test');
  const message = wb.quickInput().locator('.quick-input-message');
  await message.filter({ hasText: /is not a URL/ }).waitFor({ state: 'visible', timeout: 10_000 });
  await wb.screenshot('base-url-validation');

  await input.fill(wb.env.standInUrl!);
  await input.press('Enter');
  const [first] = wb.env.integrations;
  await wb.findRow(VIEW_NAMES.integrations, first.label!, 30_000);
  assert.equal(await integrations.locator('.welcome-view-content .monaco-button', { hasText: 'Set Base URL…' }).count(), 0);
});
