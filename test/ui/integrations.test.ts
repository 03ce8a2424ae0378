// The Deployments container and its Integrations view in the real workbench, one window for all (none needs a fresh
// one but the first, which sees the window as it starts): the container's views, the integrations configured by the
// runner listed, expanding one shows its repositories with "owner · branch", the integrations the Deployments view's
// first page uses appear as discovered, Find Repository… reveals the chosen repository row, a repository row's inline
// Create Deployment…, Set API Key…'s password box, and Add Integration… typed by a person (a malformed ID refused as
// it is typed, a good one with a label becomes a row whose repositories load). The user settings file is put back
// afterwards.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { poll, snapshotUserSettings, VIEW_NAMES, Workbench } from './workbench';

const VIEW = VIEW_NAMES.integrations;

interface Repository {
  name: string;
  owner: string;
  default_branch: string;
  url: string;
}

let settings: ReturnType<typeof snapshotUserSettings> | undefined;
let wb: Workbench;

before(async () => {
  settings = snapshotUserSettings();
  wb = await Workbench.open('integrations');
});

after(async () => {
  await wb?.close();
  settings?.restore();
});

/** The repositories as the stand-in lists them (the test's own expectation, not the view's). */
async function repositoriesOf(integrationId: string): Promise<Repository[]> {
  const response = await fetch(`${wb.env.standInUrl}/v1/integrations/forge/codehost/${integrationId}/repos`, {
    headers: { 'X-Api-Key': wb.env.standInApiKey ?? '' },
  });
  assert.equal(response.status, 200);
  return (await response.json()) as Repository[];
}

async function openView(): Promise<void> {
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  await wb.expandView(VIEW);
}

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

test('lists the configured integrations and, expanded, their repositories with owner and branch', async () => {
  const [first, second] = wb.env.integrations;
  assert.ok(first?.label && second?.label, 'the runner configures two labelled integrations');
  await openView();
  const firstRow = await wb.findRow(VIEW, first.label, 30_000);
  await wb.findRow(VIEW, second.label);

  const repositories = await repositoriesOf(first.id);
  assert.ok(repositories.length > 0);
  await wb.expandRow(firstRow);
  const expected = repositories[0];
  const repoRow = await wb.findRow(VIEW, expected.name, 20_000);
  assert.equal(await wb.rowDescription(repoRow), `${expected.owner} · ${expected.default_branch}`);
  await poll('every repository row', async () => {
    const labels = await wb.rowLabels(VIEW);
    return repositories.every((r) => labels.includes(r.name));
  });
  // The parent row is re-rendered after its children arrive, so its description may lag them a little.
  // It reads e.g. "5 repositories · github.com".
  const count = repositories.length;
  const expectedCount = `${count} ${count === 1 ? 'repository' : 'repositories'} · ${new URL(expected.url).host}`;
  await poll('the repository count on the integration row', async () => {
    const row = await wb.findRow(VIEW, first.label!);
    return (await wb.rowDescription(row)) === expectedCount;
  }, 10_000);

  // The Deployments view (open beside it) loads its first page; the integrations those records use
  // appear as discovered, with no request of their own.
  await poll(
    'a discovered integration',
    async () => {
      const rows = wb.rows(VIEW);
      for (let i = 0; i < (await rows.count()); i++) {
        if (/discovered/.test(await wb.rowDescription(rows.nth(i)))) return true;
      }
      return false;
    },
    30_000,
  );

  await wb.screenshot('repositories', { shows: [await wb.findRow(VIEW, first.label), repoRow] });
});

test('Find Repository… picks a repository of another integration and reveals its row', async () => {
  await openView();
  const second = wb.env.integrations[1];
  const repositories = await repositoriesOf(second.id);
  const target = repositories[repositories.length - 1];
  await wb.runCommand('Deployments: Find Repository…');
  const input = wb.quickInput().locator('.quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`${target.name}`);
  const item = wb
    .quickInput()
    .locator('.quick-input-list .monaco-list-row')
    .filter({ hasText: target.owner })
    .filter({ hasText: target.name })
    .first();
  await item.waitFor({ state: 'visible', timeout: 20_000 });
  await item.click();

  const row = await wb.findRow(VIEW, target.name, 20_000);
  await poll('the revealed row to be selected', async () => (await row.getAttribute('aria-selected')) === 'true');
  assert.equal(await wb.rowDescription(row), `${target.owner} · ${target.default_branch}`);
  await wb.screenshot('find-repository');
});

test('a repository row’s inline Create Deployment… opens the create flow at the name step of that repository', async () => {
  await openView();
  // The row Find Repository… revealed above (in view: the list shows only the rows scrolled to).
  const repositories = await repositoriesOf(wb.env.integrations[1].id);
  const repository = repositories[repositories.length - 1];
  const row = await wb.findRow(VIEW, repository.name, 20_000);
  await wb.clickRowAction(row, 'Create Deployment…');
  await wb.waitForNameStep(`${repository.owner}/${repository.name}`);
  await wb.page.keyboard.press('Escape');
  await wb.quickInput().waitFor({ state: 'hidden' });
});

test('Set API Key… takes the key in a password box; Clear API Key removes the stored one', async () => {
  await openView();
  // From the Command Palette: the view's title menu opened it only now and then on this machine (the "…" menu click).
  await wb.runCommand('Deployments: Set API Key…');
  const input = wb.quickInput().locator('.quick-input-box input');
  await input.waitFor({ state: 'visible' });
  assert.equal(await input.getAttribute('type'), 'password', 'the key is not shown as it is typed');
  await wb.answerQuickInput(wb.env.standInApiKey ?? '');
  await wb.waitForNotification(/API key saved and accepted\./, 30_000);
  await wb.clearNotifications();
  // The runner also gives the workbench the key in DEPLOYMENTS_EXPLORER_API_KEY, so the views keep loading.
  await wb.runCommand('Deployments: Clear API Key');
  await wb.waitForNotification(/API key removed from secret storage\. The DEPLOYMENTS_EXPLORER_API_KEY environment variable still provides one\./);
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
