// The Deployments view in the real workbench: rows with status descriptions
// and "Load more…", the Filter… quick pick (status READY), the filter in the
// view's message (its description counts the filters), the filter surviving a window reload, Clear Filters, and
// the welcome message when nothing matches, and a deployment's grouped details.
// Each test sets the filters it needs and clears those it set, so the tests run
// in any order or alone.
import { after, before, test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { escapeRegExp, poll, VIEW_NAMES, Workbench } from './workbench';

const VIEW = VIEW_NAMES.deployments;
/** A row's description starts with its status in words (the sample data's statuses; the raw value is in the tooltip). */
const STATUS = /^(Ready|Unused|Awaiting database|Awaiting deletion|Unknown|Degraded)( · |$)/;
const READY = /^Ready( · |$)/;

let wb: Workbench;

before(async () => {
  wb = await Workbench.open('deployments');
});

after(async () => {
  // Filters persist per workspace: leave none behind for the other UI tests.
  if (wb && (await wb.viewDescription(VIEW).catch(() => ''))) {
    await wb.runCommand('Deployments: Clear Filters').catch(() => undefined);
  }
  await wb?.close();
});

/** Descriptions of the rendered deployment rows (not the "Load more…" row). */
async function deploymentDescriptions(): Promise<string[]> {
  const rows = wb.rows(VIEW);
  const count = await rows.count();
  const descriptions: string[] = [];
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const label = ((await row.locator('.label-name').first().textContent()) ?? '').trim();
    if (label === 'Load more…' || label === 'Loading more…') continue;
    descriptions.push(await wb.rowDescription(row));
  }
  return descriptions;
}

async function openView(): Promise<void> {
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  // Give the Deployments view the whole sidebar so a full page and "Load more…" fit.
  const integrationsHeader = wb.view(VIEW_NAMES.integrations).locator('.pane-header').first();
  if ((await integrationsHeader.getAttribute('aria-expanded')) === 'true') await integrationsHeader.click();
  await wb.expandView(VIEW);
}

/** Scrolls the view's list to its last row (rows are virtualized: only visible ones exist). */
async function scrollToEnd(): Promise<void> {
  await wb.rows(VIEW).first().waitFor({ state: 'visible', timeout: 30_000 });
  await wb.view(VIEW).locator('.monaco-list').first().focus();
  await wb.page.keyboard.press('End');
}

/** Waits until the view has loaded: rows, or a welcome message (the filters in force have been applied by then). */
async function viewLoaded(): Promise<void> {
  await poll('the Deployments view to load', async () => (await wb.rows(VIEW).count()) > 0 || (await wb.view(VIEW).locator('.welcome-view-content').isVisible()), 30_000);
}

/** Clears the filters when any are set (the command is offered only then), and waits until the description is gone. */
async function clearFilters(): Promise<void> {
  await viewLoaded();
  if (!(await wb.viewDescription(VIEW))) return;
  await wb.runCommand('Deployments: Clear Filters');
  await poll('the description to clear', async () => (await wb.viewDescription(VIEW)) === '');
}

/** Opens the view with no filters set, and clears at the end of the test whatever filters it leaves. */
async function openUnfilteredView(t: TestContext): Promise<void> {
  await openView();
  await clearFilters();
  t.after(async () => {
    if (await wb.viewDescription(VIEW).catch(() => '')) await clearFilters().catch(() => undefined);
  });
}

/**
 * Opens Filter…, chooses `field` and waits for that field's own step (titled `Filter by …`). A view still
 * reloading (after Clear Filters, say) can take the focus and so close the quick pick, before or after the
 * choice: open it again then.
 */
async function chooseFilter(field: 'Status' | 'Name contains', stepTitle: string): Promise<void> {
  const fieldRow = wb.quickInput().locator('.quick-input-list .monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: new RegExp(`^\\s*${field}\\s*$`) }) }).first();
  const step = wb.quickInput().locator('.quick-input-title').filter({ hasText: stepTitle });
  const shown = (locator: typeof step, timeout: number) => locator.waitFor({ state: 'visible', timeout }).then(() => true, () => false);
  await poll(`the Filter… quick pick's ${stepTitle} step`, async () => {
    if (!(await fieldRow.isVisible())) {
      await wb.runCommand('Deployments: Filter…');
      if (!(await shown(fieldRow, 5_000))) return false;
    }
    await fieldRow.click({ timeout: 2_000 }).catch(() => undefined);
    return shown(step, 3_000);
  }, 40_000);
}

/** Filter… → Status → READY, through the quick pick, then waits until only READY rows are shown. */
async function filterReady(): Promise<void> {
  await chooseFilter('Status', 'Filter by Status');
  await wb.pickQuickItem('READY');
  await wb.waitForViewDescription(VIEW, '1 filter');
  await wb.waitForViewMessage(VIEW, 'Filters: status: READY');
  await poll('only READY rows', async () => {
    const descriptions = await deploymentDescriptions();
    return descriptions.length > 0 && descriptions.every((d) => READY.test(d));
  });
}

test('shows deployments with status descriptions and a “Load more…” row', async (t) => {
  await openUnfilteredView(t);
  await scrollToEnd();
  const loadMore = await wb.findRow(VIEW, 'Load more…', 30_000);
  const descriptions = await deploymentDescriptions();
  assert.ok(descriptions.length >= 5, `rendered rows: ${descriptions.length}`);
  const withStatus = descriptions.filter((d) => STATUS.test(d));
  assert.ok(withStatus.length >= descriptions.length - 2, `descriptions: ${descriptions.join(' | ')}`);
  assert.ok(descriptions.some((d) => / · \d+\.\d+\.\d+$/.test(d)), 'status · image version');
  await wb.screenshot('rows', { shows: [wb.rows(VIEW).first(), loadMore] });
});

test('a status reads in words, and one the extension does not know (DEGRADED) has its own icon, not UNKNOWN’s question mark', async (t) => {
  await openUnfilteredView(t);
  /** Filters by one status (typed: the picker offers the known ones) and waits for its rows. */
  const showOnly = async (status: string, words: string): Promise<void> => {
    await chooseFilter('Status', 'Filter by Status');
    await wb.answerQuickInput(status);
    const pattern = new RegExp(`^${words}( · |$)`);
    await poll(`only ${status} rows, in words`, async () => {
      const descriptions = await deploymentDescriptions();
      return descriptions.length > 0 && descriptions.every((d) => pattern.test(d));
    }, 30_000);
  };
  const firstRowIcon = () => wb.rows(VIEW).first().locator('.custom-view-tree-node-item-icon').first();

  await showOnly('DEGRADED', 'Degraded');
  assert.match((await firstRowIcon().getAttribute('class')) ?? '', /\bcodicon-warning\b/, 'a status it does not know: its own icon');
  assert.equal(await wb.rows(VIEW).first().locator('.codicon-question').count(), 0, 'not the question mark');
  await wb.screenshot('unrecognised-status', { shows: [wb.rows(VIEW).first()] });

  await showOnly('UNKNOWN', 'Unknown');
  assert.match((await firstRowIcon().getAttribute('class')) ?? '', /\bcodicon-question\b/, 'UNKNOWN keeps the question mark');
});

test('Filter… → Status → READY narrows the rows, counts the filter in the description and shows it in full in the message', async (t) => {
  await openUnfilteredView(t);
  await filterReady();
  // A long filter stays whole in the message (it wraps), never cut to "name: …".
  await chooseFilter('Name contains', 'Filter by Name');
  // The whole name of a READY row: a filter that still matches (an empty listing shows the welcome view instead).
  const topLevel = wb.rows(VIEW).and(wb.page.locator('[aria-level="1"]'));
  const long = ((await topLevel.locator('.label-name').first().textContent()) ?? '').trim();
  assert.ok(long, 'a READY row');
  await wb.answerQuickInput(long);
  await wb.waitForViewDescription(VIEW, '2 filters');
  const message = await wb.waitForViewMessage(VIEW, new RegExp(`^Filters: (?=.*status: READY)(?=.*${long.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`));
  assert.ok(message.includes(long), message);
  await wb.screenshot('filters-message', { shows: [wb.view(VIEW).locator('.tree-explorer-viewlet-tree-view > .message').first()] });
  await wb.runCommand('Deployments: Clear Filters');
  await poll('the description to clear', async () => (await wb.viewDescription(VIEW)) === '');
  await filterReady();
  await scrollToEnd();
  const loadMore = await wb.findRow(VIEW, 'Load more…');
  const description = wb.view(VIEW).locator('.pane-header .description').first();
  await wb.screenshot('filtered-ready', { shows: [description, wb.rows(VIEW).first(), loadMore] });
});

test('the filter survives a window reload, and Clear Filters removes it', async (t) => {
  await openUnfilteredView(t);
  await filterReady();
  await wb.page.reload({ waitUntil: 'domcontentloaded' });
  await wb.page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  await openView();
  await wb.waitForViewDescription(VIEW, '1 filter', 30_000);
  await wb.waitForViewMessage(VIEW, 'Filters: status: READY', 30_000);
  await poll('only READY rows after the reload', async () => {
    const descriptions = await deploymentDescriptions();
    return descriptions.length > 0 && descriptions.every((d) => READY.test(d));
  }, 30_000);

  await wb.runCommand('Deployments: Clear Filters');
  await poll('the description to clear', async () => (await wb.viewDescription(VIEW)) === '');
  await poll('rows of other statuses again', async () => (await deploymentDescriptions()).some((d) => STATUS.test(d) && !READY.test(d)));
});

test('a filter that matches nothing shows the welcome message, whose Clear Filters brings the rows back', async (t) => {
  await openUnfilteredView(t);
  await chooseFilter('Name contains', 'Filter by Name');
  await wb.answerQuickInput('zz-no-such-deployment');
  // Nothing matches: the welcome view (which a message would hide) says so; the description counts the filter.
  await wb.waitForViewDescription(VIEW, '1 filter');
  const welcome = wb.view(VIEW).locator('.welcome-view-content');
  await welcome.filter({ hasText: 'No deployments match the current filters.' }).waitFor({ state: 'visible', timeout: 20_000 });
  assert.equal(await wb.rows(VIEW).count(), 0, 'no rows beside the welcome message');
  await wb.screenshot('no-match');

  await welcome.locator('.monaco-button', { hasText: 'Clear Filters' }).click();
  await poll('the description to clear', async () => (await wb.viewDescription(VIEW)) === '');
  await poll('rows again', async () => (await deploymentDescriptions()).some((d) => STATUS.test(d)));
});

test('expanding a deployment shows its details grouped, down to per-component resources', async (t) => {
  // Other UI tests create deployments from bare bodies (no resource_spec) at the top: pick, from the
  // stand-in's own first page, the first record that has resources.
  const response = await fetch(`${wb.env.standInUrl}/v2/deployments?limit=10`, { headers: { 'X-Api-Key': wb.env.standInApiKey ?? '' } });
  const firstPage = (await response.json()) as { resources: Array<{ name: string; source_config?: { resource_spec?: object } }> };
  const withResources = firstPage.resources.find((d) => d.source_config?.resource_spec);
  assert.ok(withResources, 'the first page has a deployment with resources');
  await openUnfilteredView(t);
  await wb.widenSidebar(560);
  const row = await wb.findRow(VIEW, withResources.name, 30_000);
  await wb.expandRow(row);
  for (const group of ['General', 'Source', 'Revision', 'Identifiers & timestamps']) await wb.findRow(VIEW, group);
  // The first group is open by itself: the key values are one click away.
  const name = await wb.findRow(VIEW, 'Name');
  assert.equal(await wb.rowDescription(name), withResources.name);
  await wb.findRow(VIEW, 'Status');
  const resources = await wb.findRow(VIEW, 'Resources');
  await wb.expandRow(resources);
  const main = await wb.findRow(VIEW, 'Main');
  assert.match(await wb.rowDescription(main), /scale \d+–\d+/);
  await wb.screenshot('details');
});

test('two selected deployments: Compare Deployments opens their JSON side by side', async (t) => {
  await openUnfilteredView(t);
  await viewLoaded();
  // Deployment rows only (top level), not the details another test may have left expanded.
  const topLevel = wb.rows(VIEW).and(wb.page.locator('[aria-level="1"]'));
  const labels = (await topLevel.locator('.label-name').allTextContents()).map((label) => label.trim()).filter((label) => label && !/-ui-|Load more/.test(label));
  assert.ok(labels.length >= 2, `rows: ${labels.join(', ')}`);
  const [first, second] = labels;
  await (await wb.findRow(VIEW, first)).click();
  const secondRow = await wb.findRow(VIEW, second);
  await secondRow.click({ modifiers: ['Control'] });
  await poll('both rows selected', async () => (await wb.rows(VIEW).and(wb.page.locator('.selected')).count()) === 2);
  await wb.chooseFromContextMenu(secondRow, 'Compare Deployments');
  const diff = wb.page.locator('.monaco-diff-editor').first();
  await diff.waitFor({ state: 'visible', timeout: 15_000 });
  const tab = wb.page.locator('.tabs-container .tab.active');
  assert.match((await tab.textContent()) ?? '', new RegExp(`${first}.*↔.*${second}|${second}.*↔.*${first}`));
  // The picture is for the README: both records drawn before it is taken (side by side, or inline where the editor is narrow).
  for (const name of [first, second]) {
    const line = diff.locator('.view-line').filter({ hasText: new RegExp(`"name":\\s"${escapeRegExp(name)}"`) }).first();
    await line.waitFor({ state: 'visible', timeout: 15_000 }).catch(async (error: unknown) => {
      throw new Error(`${name}'s record is not drawn in the diff editor, which shows: ${(await diff.innerText()).slice(0, 300)}`, { cause: error });
    });
  }
  // Off the rows, so no row's hover covers the picture.
  await wb.page.mouse.move(1100, 52);
  await wb.page.locator('.workbench-hover').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  await wb.screenshot('compare', { shows: [diff] });
  await wb.runCommand('View: Close Editor');
});

test('from the Command Palette, Compare Deployments offers the loaded deployments, the selected one checked', async (t) => {
  await openUnfilteredView(t);
  await viewLoaded();
  const topLevel = wb.rows(VIEW).and(wb.page.locator('[aria-level="1"]'));
  const labels = (await topLevel.locator('.label-name').allTextContents()).map((label) => label.trim()).filter((label) => label && !/-ui-|Load more/.test(label));
  const [first, second] = labels;
  assert.ok(first && second && first !== second, `rows: ${labels.join(', ')}`);
  await (await wb.findRow(VIEW, first)).click();
  await wb.runCommand('Deployments: Compare Deployments');
  const pick = wb.quickInput();
  await pick.locator('.quick-input-title').filter({ hasText: 'Compare Deployments' }).waitFor({ state: 'visible', timeout: 15_000 });
  const row = (label: string) =>
    pick.locator('.quick-input-list .monaco-list-row').filter({ has: wb.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) }).first();
  await poll('the selected deployment checked', async () => (await row(first).getAttribute('aria-checked')) === 'true');
  assert.equal(await row(second).getAttribute('aria-checked'), 'false');
  await row(second).click();
  await poll('the second deployment checked', async () => (await row(second).getAttribute('aria-checked')) === 'true');
  await wb.screenshot('compare-pick', { shows: [pick] });
  await pick.locator('.quick-input-box input').press('Enter');
  const diff = wb.page.locator('.monaco-diff-editor').first();
  await diff.waitFor({ state: 'visible', timeout: 15_000 });
  const tab = wb.page.locator('.tabs-container .tab.active');
  assert.match((await tab.textContent()) ?? '', new RegExp(`${escapeRegExp(first)}.*↔.*${escapeRegExp(second)}`));
  await wb.runCommand('View: Close Editor');
});

test('a record that does not match the API contract is a marked row in its place, and the message counts it', async (t) => {
  const headers = { 'X-Api-Key': wb.env.standInApiKey ?? '', 'content-type': 'application/json' };
  const response = await fetch(`${wb.env.standInUrl}/v2/deployments?limit=3`, { headers });
  const page = (await response.json()) as { resources: Array<{ id: string; name: string; created_at: string }> };
  const victim = page.resources[1];
  assert.ok(victim, 'the stand-in has deployments');
  // The admin route sets fields as given: a numeric created_at is off the contract.
  const patch = (body: object) => fetch(`${wb.env.standInUrl}/__admin/deployments/${victim.id}`, { method: 'PATCH', headers, body: JSON.stringify(body) });
  // A name of its own (sample names repeat), and a numeric created_at: off the contract.
  const name = 'off-contract-ui-sample';
  assert.equal((await patch({ name, created_at: 1700000000 })).status, 200);
  t.after(async () => {
    await patch({ name: victim.name, created_at: victim.created_at });
  });
  await openUnfilteredView(t);
  // The view's own Refresh button (its title bar), then the first page again.
  const header = wb.view(VIEW).locator('.pane-header').first();
  await header.hover();
  await header.locator('.action-label[aria-label^="Refresh"]').first().click();
  // Earlier tests may have scrolled the list (rows are virtualized): back to its top, where the record is.
  await wb.rows(VIEW).first().waitFor({ state: 'visible', timeout: 30_000 });
  await wb.view(VIEW).locator('.monaco-list').first().focus();
  await wb.page.keyboard.press('Home');
  const row = await wb.findRow(VIEW, name, 30_000).catch(async (error: unknown) => {
    await wb.screenshot('off-contract-missing');
    throw error;
  });
  let message = '';
  void wb.viewMessage(VIEW).then((text) => (message = text));
  let seen = '';
  await poll(
    'the row marked',
    async () => /does not match the API contract \(Created\)/.test((seen = await wb.rowDescription(await wb.findRow(VIEW, name)))),
    20_000,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}; the row's description: ${seen}; the message: ${String(message)}`);
  });
  await wb.waitForViewMessage(VIEW, /1 record on the loaded pages does not match the API contract; it is shown marked\./, 20_000);
  await wb.screenshot('off-contract-row', { shows: [row, wb.view(VIEW).locator('.tree-explorer-viewlet-tree-view > .message').first()] });
});
