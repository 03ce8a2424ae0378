// "Deployments: Create Deployment…" from the command palette, through every
// step of the multi-step input (with a Back that keeps what was typed), to the
// success notification; the stand-in receives the body shown in the review.
import { after, afterEach, before, beforeEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { poll, Workbench } from './workbench';

let wb: Workbench;

before(async () => {
  wb = await Workbench.open('create-deployment');
});

after(async () => {
  await wb?.close();
});

/** What every test starts from (in any order): the container open and the extension active, no quick input open. */
beforeEach(async () => {
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
});

afterEach(async () => {
  if (await wb.quickInput().isVisible()) await wb.page.keyboard.press('Escape');
});

/** Waits until the quick input shows `expected` (each step fills it from the flow's state). */
async function postedBodies(standInUrl: string): Promise<Array<Record<string, any>>> {
  const response = await fetch(`${standInUrl}/__admin/requests`);
  const requests = (await response.json()) as Array<{ method: string; path: string; body?: Record<string, any> }>;
  return requests.filter((r) => r.method === 'POST' && r.path === '/v2/deployments').map((r) => r.body ?? {});
}

test('creates a deployment from the palette: integration, repository, name, ref, type, review', async () => {
  const { page } = wb;
  const standInUrl = wb.env.standInUrl;
  assert.ok(standInUrl, 'DE_STANDIN_URL is not set');
  const acme = wb.env.integrations.find((i) => i.label === 'acme-github');
  assert.ok(acme, `acme-github is not among the configured integrations: ${JSON.stringify(wb.env.integrations)}`);
  const name = `storefront-ui-${Date.now().toString(36)}`;

  await wb.runCommand('Deployments: Create Deployment…');

  const quick = wb.quickInput();
  const input = quick.locator('.quick-input-box input');
  const message = quick.locator('.quick-input-message');
  const rows = quick.locator('.quick-input-list .monaco-list-row');

  // 1. Integration (two are configured).
  await wb.pickQuickItem(/acme-github/);

  // 2. Repository: searchable, filled from the repository listing.
  await rows.filter({ hasText: 'acme/storefront' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill('storefront');
  await wb.pickQuickItem(/acme\/storefront$/);

  // 3. Name: pre-filled from the repository, validated while typing.
  await wb.waitForNameStep('acme/storefront');
  await wb.waitForInputValue(input, 'storefront');
  await input.fill('Bad Name');
  await message.filter({ hasText: /lowercase letters, digits/ }).waitFor({ state: 'visible' });
  await wb.screenshot('name-validation');
  await input.fill(name);
  await input.press('Enter');

  // 4. Ref: pre-filled with the default branch. Back to the name keeps it.
  await wb.waitForInputValue(input, 'main');
  await input.fill('refs/tags/v1');
  await quick.locator('.quick-input-titlebar .action-label[aria-label^="Back"]').first().click();
  await wb.waitForInputValue(input, name);
  await input.press('Enter');
  await wb.waitForInputValue(input, 'refs/tags/v1');
  await input.press('Enter');

  // 5. Deployment type.
  await wb.pickQuickItem(/^\s*dev\s*$/);

  // 6. Review: the exact body, then send.
  const createRow = rows.filter({ hasText: 'Create Deployment' }).first();
  await createRow.waitFor({ state: 'visible' });
  const detail = (await createRow.locator('.quick-input-list-label-meta, .monaco-icon-label-container').allTextContents()).join(' ');
  assert.match(detail, /"repo_ref":"refs\/tags\/v1"/);
  assert.match(detail, new RegExp(`"name":"${name}"`));
  assert.ok(await rows.filter({ hasText: 'Edit Payload…' }).count(), 'no Edit Payload… item');
  await wb.screenshot('review');
  await createRow.click();

  await wb.waitForNotification(new RegExp(`Deployment “${name}” created`), 20_000);
  const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: name }).first();
  assert.ok(await toast.getByRole('button', { name: 'Copy ID' }).count(), 'no Copy ID action');
  assert.ok(await toast.getByRole('button', { name: 'Show' }).count(), 'no Show action');
  await wb.screenshot('created', { shows: [toast] });

  const body = (await postedBodies(standInUrl)).find((b) => b.name === name);
  assert.ok(body, 'the stand-in did not receive the deployment');
  assert.equal(body.source_config?.integration_id, acme.id);
  assert.equal(body.source_config?.repo_url, 'https://github.com/acme/storefront');
  assert.equal(body.source_revision_config?.repo_ref, 'refs/tags/v1');
  assert.equal(body.source_config?.deployment_type, 'dev');
});

test('Edit Payload… opens the body as JSON with a Create Deployment action in the editor title that sends it', async () => {
  const { page } = wb;
  const standInUrl = wb.env.standInUrl!;
  const name = `agent-runtime-ui-${Date.now().toString(36)}`;
  const input = await wb.openCreateNameStep('acme-labs/agent-runtime');
  await wb.waitForInputValue(input, 'agent-runtime');
  await input.fill(name);
  await input.press('Enter');
  await wb.waitForInputValue(input, 'main');
  await input.press('Enter');
  await wb.pickQuickItem(/Don’t set/);
  await wb.pickQuickItem(/Edit Payload…/);

  // An untitled JSON editor with the body, and the title action only on it.
  const action = page.locator('.editor-actions .action-label[aria-label="Create Deployment"]').first();
  await action.waitFor({ state: 'visible', timeout: 15_000 });
  const editorText = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
  assert.match(editorText, new RegExp(`"name": "${name}"`));
  assert.match(editorText, /"repo_url": "https:\/\/github\.com\/acme-labs\/agent-runtime"/);
  await wb.screenshot('payload-editor');
  await action.click();

  await wb.waitForNotification(new RegExp(`Deployment “${name}” created`), 20_000);
  const body = (await postedBodies(standInUrl)).find((b) => b.name === name);
  assert.ok(body, 'the stand-in did not receive the edited payload');
  assert.equal(body.source_revision_config?.repo_ref, 'main');
  assert.equal('deployment_type' in body, false);
  assert.equal('deployment_type' in (body.source_config ?? {}), false);
  // Sent once: the action leaves the document, so it is not sent twice by accident.
  await action.waitFor({ state: 'detached', timeout: 10_000 });
  // The document is `<name>.deployment.json`: the contributed payload schema completes its fields.
  const tab = page.locator('.tabs-container .tab', { hasText: `${name}.deployment.json` });
  await tab.waitFor({ state: 'visible' });
  await page.locator('.editor-instance .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"');
  await page.keyboard.press('Control+Space');
  const suggestions = page.locator('.suggest-widget .monaco-list-row');
  const labels = await poll('completion items from the payload schema', async () => {
    const texts = (await suggestions.allTextContents()).join(' ');
    return /image_version/.test(texts) && /secret_references/.test(texts) ? texts : undefined;
  });
  // The type is offered inside source_config, where the real service reads it, never at the top level.
  assert.doesNotMatch(labels, /\bdeployment_type\b/);
  await wb.screenshot('payload-completion');
  await page.keyboard.press('Escape');
  // Leave no dirty untitled editor behind for the next test file (same workspace, hot exit).
  await wb.runCommand('View: Revert and Close Editor');
  await tab.waitFor({ state: 'detached', timeout: 10_000 });
});

test('cancelling the request warns that the deployment may still be created, and returns to the review', async () => {
  const standInUrl = wb.env.standInUrl!;
  const name = `checkout-cancel-${Date.now().toString(36)}`;
  // Held until released: the create request is in flight for as long as the clicks take, however slow the machine.
  const fault = { fault: { kind: 'hang' }, method: 'POST', pathPrefix: '/v2/deployments', times: 1 };
  assert.equal((await fetch(`${standInUrl}/__admin/faults`, { method: 'POST', body: JSON.stringify(fault) })).ok, true);
  try {
    const input = await wb.openCreateNameStep('acme/checkout-service', 'checkout-service');
    const quick = wb.quickInput();
    const rows = quick.locator('.quick-input-list .monaco-list-row');
    await wb.waitForInputValue(input, 'checkout-service');
    await input.fill(name);
    await input.press('Enter');
    await wb.waitForInputValue(input, 'master');
    await input.press('Enter');
    await wb.pickQuickItem(/Don’t set/);
    await rows.filter({ hasText: 'Create Deployment' }).first().click();

    const progress = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: `Creating deployment “${name}”` }).first();
    await progress.waitFor({ state: 'visible', timeout: 10_000 });
    await progress.getByRole('button', { name: 'Cancel' }).click();

    await wb.waitForNotification(/may still be created: check the Deployments view before sending it again/, 10_000);
    await rows.filter({ hasText: 'Create Deployment' }).first().waitFor({ state: 'visible', timeout: 10_000 });
    const review = (await quick.locator('.quick-input-list').textContent()) ?? '';
    assert.ok(review.includes(name), 'the review still holds the typed name');
    assert.match(review, /no answer came: it may still have been created/);
    assert.doesNotMatch(review, /refused/, 'a cancelled request is not a refusal');
    await wb.screenshot('cancelled');
    await wb.page.keyboard.press('Escape');
  } finally {
    await fetch(`${standInUrl}/__admin/faults`, { method: 'DELETE' });
    await fetch(`${standInUrl}/__admin/release`, { method: 'POST' });
  }
});

test('after a 422, Review on the notification reopens the closed review with every value kept and each reason in full', async () => {
  const { page } = wb;
  const standInUrl = wb.env.standInUrl;
  assert.ok(standInUrl, 'DE_STANDIN_URL is not set');
  const name = `docs-refused-${Date.now().toString(36)}`;
  // FastAPI's shape for a refused body: one reason per field, each longer than a description beside
  // its label has room for, short enough for the row's whole width (the detail line) at this window size.
  const reasons = [
    { loc: ['body', 'name'], msg: 'A deployment with this name already exists', type: 'value_error' },
    { loc: ['body', 'source_revision_config', 'repo_ref'], msg: 'Ref trunk is protected: deploy a tag instead', type: 'value_error' },
  ];
  const fault = {
    fault: { kind: 'status', status: 422, body: JSON.stringify({ detail: reasons }) },
    method: 'POST',
    pathPrefix: '/v2/deployments',
    times: 1,
  };
  assert.equal((await fetch(`${standInUrl}/__admin/faults`, { method: 'POST', body: JSON.stringify(fault) })).ok, true);
  try {
    const input = await wb.openCreateNameStep('acme-labs/docs.acme.dev', 'docs');
    const quick = wb.quickInput();
    const rows = quick.locator('.quick-input-list .monaco-list-row');
    await input.fill(name);
    await input.press('Enter');
    await wb.waitForInputValue(input, 'trunk');
    await input.press('Enter');
    await wb.pickQuickItem(/^\s*dev\s*$/);
    await rows.filter({ hasText: 'Create Deployment' }).first().click();

    // Refused: the notification offers Review; the flow comes back to the review by itself, and is closed.
    await wb.waitForNotification(/The server refused the request \(HTTP 422\)/, 20_000);
    const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: /HTTP 422/ }).first();
    const reviewButton = toast.getByRole('button', { name: 'Review', exact: true });
    await reviewButton.waitFor({ state: 'visible', timeout: 10_000 });
    const placeholder = `Review: ${name} from acme-labs/docs.acme.dev at trunk`;
    await poll('the flow to come back to the review', async () => ((await input.getAttribute('placeholder')) === placeholder ? true : undefined));
    await input.press('Escape');
    await quick.waitFor({ state: 'hidden', timeout: 10_000 });

    // Review on the notification: the same review, every value kept.
    await reviewButton.click();
    await quick.waitFor({ state: 'visible', timeout: 10_000 });
    await poll('the review to reopen with the values kept', async () => {
      const shown = await input.getAttribute('placeholder');
      if (shown !== placeholder) throw new Error(`the placeholder is “${shown}”`);
      return true;
    });
    const createRow = rows.filter({ hasText: 'Create Deployment' }).first();
    await createRow.waitFor({ state: 'visible' });
    const body = (await createRow.locator('.quick-input-list-label-meta, .monaco-icon-label-container').allTextContents()).join(' ');
    assert.match(body, new RegExp(`"name":"${name}"`));
    assert.match(body, /"repo_ref":"trunk"/);
    assert.match(body, /"deployment_type":"dev"/);

    // Each reason: a row named by the field in words, the server's message in full as its detail line.
    const rowFor = (label: string) => rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) }).first();
    for (const [label, reason] of [
      ['Name', reasons[0].msg],
      ['Revision › Ref', reasons[1].msg],
    ] as const) {
      const row = rowFor(label);
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      const detail = row.locator('.quick-input-list-label-meta').first();
      assert.equal(((await detail.textContent()) ?? '').trim(), reason, `the ${label} row's detail`);
      const description = (await row.locator('.label-description').allTextContents()).join(' ');
      assert.ok(!description.includes(reason), `the ${label} row's reason is in its description, beside the label, where it is cut`);
      // Not cut off: the detail line is as wide as its text needs.
      const widths = await detail.locator('xpath=descendant-or-self::*').evaluateAll((els) => els.map((e) => [e.scrollWidth, e.clientWidth]));
      const cut = widths.some(([scroll, client]) => scroll > client + 1);
      assert.equal(cut, false, `the ${label} row's detail is cut off`);
    }
    await wb.screenshot('refused-review', { shows: [rowFor('Name'), rowFor('Revision › Ref')] });
    await page.keyboard.press('Escape');
  } finally {
    await fetch(`${standInUrl}/__admin/faults`, { method: 'DELETE' });
  }
});
