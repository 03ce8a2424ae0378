// The Deployments view container, opened from its activity-bar icon, shows
// both of its views.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { VIEW_NAMES, Workbench } from './workbench';

let wb: Workbench;

before(async () => {
  wb = await Workbench.open('container');
});

after(async () => {
  await wb?.close();
});

test('the Deployments container shows the Integrations and Deployments views', async () => {
  const container = await wb.openDeploymentsContainer();
  assert.ok(await container.isVisible(), 'the Deployments container is not visible');
  await wb.view(VIEW_NAMES.integrations).waitFor({ state: 'visible' });
  await wb.view(VIEW_NAMES.deployments).waitFor({ state: 'visible' });
  const titles = await wb.viewTitles();
  assert.deepEqual(titles, [VIEW_NAMES.integrations, VIEW_NAMES.deployments]);
  await wb.waitForExtensionsActivated();
  // For a telling screenshot, give the views a moment to load from the stand-in
  // (listing them is the Integrations view's own test).
  const first = wb.env.integrations[0]?.label;
  if (first) await wb.findRow(VIEW_NAMES.integrations, first, 20_000).catch(() => undefined);
  const png = await wb.screenshot('views');
  assert.ok(fs.statSync(png).size > 10_000, `screenshot ${png} looks empty`);
});
