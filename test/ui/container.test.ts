// The Deployments view container, opened from its activity-bar icon, shows
// its views: Integrations and Deployments open, This Workspace collapsed under them.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { VIEW_NAMES, Workbench } from './workbench';

let wb: Workbench;

before(async () => {
  wb = await Workbench.open('container');
});

after(async () => {
  await wb?.close();
});

test('the Deployments container shows the Integrations and Deployments views, and This Workspace collapsed', async () => {
  const container = await wb.openDeploymentsContainer();
  assert.ok(await container.isVisible(), 'the Deployments container is not visible');
  await wb.view(VIEW_NAMES.integrations).waitFor({ state: 'visible' });
  await wb.view(VIEW_NAMES.deployments).waitFor({ state: 'visible' });
  const titles = await wb.viewTitles();
  assert.deepEqual(titles, [VIEW_NAMES.integrations, VIEW_NAMES.deployments, VIEW_NAMES.workspace]);
  // Collapsed: its first rows cost a look through every deployment, which a window start must not send.
  assert.equal(await wb.view(VIEW_NAMES.workspace).locator('.pane-header').first().getAttribute('aria-expanded'), 'false');
  await wb.waitForExtensionsActivated();
  // The views show what they load from the stand-in: a row for each integration the runner
  // configured (listing their repositories is the Integrations view's own test).
  await wb.expandView(VIEW_NAMES.integrations);
  const integrationRows = [];
  for (const { label } of wb.env.integrations) {
    assert.ok(label, 'the runner configures labelled integrations');
    integrationRows.push(await wb.findRow(VIEW_NAMES.integrations, label, 20_000));
  }
  assert.ok(integrationRows.length > 0, 'the runner configures integrations');
  await wb.screenshot('views', {
    shows: [wb.view(VIEW_NAMES.integrations), wb.view(VIEW_NAMES.deployments), ...integrationRows],
  });
});
