// The Integrations view in the real workbench: the integrations configured by
// the runner are listed, expanding one shows its repositories with
// "owner · branch", the integrations the Deployments view's first page uses appear as discovered, and
// Find Repository… reveals the chosen repository row.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { poll, VIEW_NAMES, Workbench } from './workbench';

const VIEW = VIEW_NAMES.integrations;

interface Repository {
  name: string;
  owner: string;
  default_branch: string;
  url: string;
}

let wb: Workbench;

before(async () => {
  wb = await Workbench.open('integrations');
});

after(async () => {
  await wb?.close();
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
