// Start-up as a user sees it, in a fresh window: the time from opening the Deployments container
// to the first deployment rows, and the activation time VS Code itself reports for the extension
// ("Developer: Show Running Extensions"). Both are printed and listed by the runner at the end;
// they are figures, not assertions (a shared machine is too noisy for a timed test).
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { VIEW_NAMES, Workbench } from './workbench';

const VIEW = VIEW_NAMES.deployments;
const STATUS = /^(READY|UNUSED|AWAITING_DATABASE|AWAITING_DELETE|UNKNOWN|DEGRADED)\b/;

let wb: Workbench;

before(async () => {
  wb = await Workbench.open('startup');
});

after(async () => {
  await wb?.close();
});

test('prints the time to the first deployment rows and the activation time VS Code reports', async () => {
  const started = Date.now();
  await wb.openDeploymentsContainer();
  await wb.expandView(VIEW);
  // A deployment row: its description starts with a status.
  const firstRow = wb.rows(VIEW).filter({ has: wb.page.locator('.label-description', { hasText: STATUS }) }).first();
  await firstRow.waitFor({ state: 'visible', timeout: 60_000 });
  wb.recordTiming('opening the Deployments container → first deployment rows', Date.now() - started);

  await wb.waitForExtensionsActivated();
  const activation = await wb.reportedActivationMs();
  assert.ok(activation !== undefined, 'Running Extensions shows an activation time');
  wb.recordTiming('activation as VS Code reports it (Show Running Extensions)', activation, 50);
});
