// After "Create Deployment…" the deployment is watched: the status bar item
// spins ("1 deploying"), then, pinned, shows the deployment as READY; the
// stand-in's request log shows one `deployment_ids` request per tick.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { poll, Workbench } from './workbench';

let wb: Workbench;

before(async () => {
  wb = await Workbench.open('watch');
});

after(async () => {
  await wb?.close();
});

async function admin(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${wb.env.standInUrl}${path}`, init);
  assert.ok(response.ok, `${init.method ?? 'GET'} ${path}: ${response.status}`);
  return response;
}

/** Waits until the quick input shows `expected` (each step fills it from the flow's state). */
function statusBarItem(text: RegExp): Locator {
  return wb.page.locator('.part.statusbar .statusbar-item').filter({ hasText: text }).first();
}

test('after Create the status bar spins, then shows the pinned deployment as READY; one deployment_ids request per tick', async () => {
  assert.ok(wb.env.standInUrl, 'DE_STANDIN_URL is not set');
  const name = `watch-ui-${Date.now().toString(36)}`;
  // Created deployments await their database for 9 s, then are READY with the new revision active.
  await admin('/__admin/progress', { method: 'POST', body: JSON.stringify({ awaitingMs: 9000, activeLagPolls: 0, finalStatus: 'READY' }) });
  await admin('/__admin/requests', { method: 'DELETE' });

  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  const input = await wb.openCreateNameStep('acme/storefront', 'storefront');
  const rows = wb.quickInput().locator('.quick-input-list .monaco-list-row');
  await wb.waitForInputValue(input, 'storefront');
  await input.fill(name);
  await input.press('Enter');
  await wb.waitForInputValue(input, 'main');
  await input.press('Enter');
  await wb.pickQuickItem(/Don’t set/);
  await rows.filter({ hasText: 'Create Deployment' }).first().click();
  await wb.waitForNotification(new RegExp(`Deployment “${name}” created`), 20_000).catch(async (error) => {
    await wb.screenshot('no-created-notification');
    throw error;
  });

  // Watching: a spinning icon and "N deploying" (deployments other test files created may still be followed).
  const spinning = statusBarItem(/\d+ deploying/);
  await spinning.waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await spinning.locator('.codicon-loading.codicon-modifier-spin').count(), 1, 'the icon spins');
  await wb.screenshot('deploying');

  // Pin it, so it stays in the status bar once settled.
  await wb.runCommand('Deployments: Pin to Status Bar');
  await input.fill(name);
  await wb.pickQuickItem(name);

  const ready = statusBarItem(new RegExp(`${name} Ready`));
  await ready.waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(await ready.locator('.codicon-pass-filled').count(), 1, 'the READY icon');
  await wb.waitForNotification(new RegExp(`Deployment “${name}” is ready\\.`), 10_000);
  await wb.screenshot('ready');

  // The log: the watch requests for it, one per tick (ticks are at least 3 s apart), each with limit = its ID count.
  const log = (await (await admin('/__admin/requests')).json()) as Array<{ method: string; path: string; query: Record<string, string>; at: number }>;
  const created = log.find((r) => r.method === 'POST');
  assert.ok(created, 'the create request is in the log');
  const ticks = log.filter((r) => r.method === 'GET' && r.query.deployment_ids && r.query.limit === String(r.query.deployment_ids.split(',').length) && r.at > created.at);
  assert.ok(ticks.length >= 2, `${ticks.length} watch requests: ${JSON.stringify(ticks.map((r) => r.query))}`);
  for (let i = 1; i < ticks.length; i++) {
    assert.ok(ticks[i].at - ticks[i - 1].at >= 2500, `requests ${i - 1} and ${i} are ${ticks[i].at - ticks[i - 1].at} ms apart: more than one per tick`);
  }

  // Leave nothing pinned for the other test files (same workspace).
  await wb.runCommand('Deployments: Unpin from Status Bar');
  await wb.pickQuickItem(name);
  await ready.waitFor({ state: 'detached', timeout: 10_000 });
});

test('a row’s context menu offers Watch Deployment, then Stop Watching; the row says it is watched', async () => {
  await wb.openDeploymentsContainer();
  // A row nobody follows yet (other test files' deployments may still be watched).
  let label: string | undefined;
  for (const text of await wb.rowLabels('Deployments')) {
    if (!text || /-ui-/.test(text)) continue;
    if (!/watching/.test(await wb.rowDescription(await wb.findRow('Deployments', text)))) {
      label = text;
      break;
    }
  }
  assert.ok(label, 'a deployment row');
  let row = await wb.findRow('Deployments', label);
  await row.click({ button: 'right' });
  await wb.menuItem('Watch Deployment').first().waitFor({ state: 'visible', timeout: 10_000 });
  await wb.screenshot('row-menu');
  assert.equal(await wb.menuItem('Stop Watching').count(), 0, (await wb.page.locator('.context-view .monaco-menu .action-label').allTextContents()).join(' | '));
  await wb.page.keyboard.press('Escape');
  await wb.chooseFromContextMenu(row, 'Watch Deployment');

  row = await wb.findRow('Deployments', label);
  await poll('the row to say it is watched', async () => /watching/.test(await wb.rowDescription(row)));
  await statusBarItem(new RegExp(`${label}|deploying`)).waitFor({ state: 'visible', timeout: 10_000 });

  await row.click({ button: 'right' });
  await wb.menuItem('Stop Watching').first().waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await wb.menuItem('Watch Deployment').count(), 0);
  await wb.page.keyboard.press('Escape');
  await wb.chooseFromContextMenu(row, 'Stop Watching');
  await poll('the row to lose its mark', async () => !/watching/.test(await wb.rowDescription(await wb.findRow('Deployments', label)))).catch(async (error) => {
    await wb.screenshot('still-watching');
    console.error('DEBUG', label, await wb.rowDescription(await wb.findRow('Deployments', label)), await wb.page.locator('.part.statusbar').textContent());
    throw error;
  });
  // No longer in the status bar.
  await poll('the status bar to drop it', async () => !((await wb.page.locator('.part.statusbar').textContent()) ?? '').includes(label!));
});
