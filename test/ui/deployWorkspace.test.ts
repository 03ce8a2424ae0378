// "Deploy This Workspace…" in a folder whose remotes match two repositories (one in each
// configured integration): the pick names each row's integration and default branch, so
// rows with similar URLs can be told apart, and the "Looking for this workspace's
// repository…" notification is gone before the pick opens.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { poll, uiEnv, Workbench } from './workbench';

interface Repo {
  name: string;
  owner: string;
  url: string;
  default_branch: string;
}

let wb: Workbench;
let folder: string;
const repos: Array<Repo & { integration: string }> = [];

before(async () => {
  const env = uiEnv();
  assert.ok(env.standInUrl && env.integrations.length >= 2, 'the stand-in and two configured integrations');
  for (const integration of env.integrations.slice(0, 2)) {
    const response = await fetch(`${env.standInUrl}/v1/integrations/forge/codehost/${integration.id}/repos`, {
      headers: { 'X-Api-Key': env.standInApiKey ?? '' },
    });
    assert.ok(response.ok, `repositories of ${integration.label}: ${response.status}`);
    const [first] = (await response.json()) as Repo[];
    repos.push({ ...first, integration: integration.label ?? integration.id });
  }
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'de-ui-two-remotes-'));
  fs.mkdirSync(path.join(folder, '.git'));
  fs.writeFileSync(
    path.join(folder, '.git', 'config'),
    `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${repos[0].url}.git\n[remote "upstream"]\n\turl = ${repos[1].url}.git\n`,
  );
  const url = new URL(env.workbenchUrl);
  url.searchParams.set('folder', folder);
  wb = await Workbench.open('deploy-workspace', { url: url.toString() });
});

after(async () => {
  await wb?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

test('several matching repositories: each row shows its integration and default branch, and the progress is closed first', async () => {
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  await wb.runCommand('Deployments: Deploy This Workspace…');
  const rows = wb.quickInput().locator('.quick-input-list .monaco-list-row');
  await poll('the pick of the two repositories', async () => (await rows.count()) === 2, 30_000);
  const progress = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Looking for this workspace’s repository' });
  assert.equal(await progress.count(), 0, 'the progress notification is closed when the pick opens');
  const shown: string[] = [];
  for (let i = 0; i < 2; i++) {
    const label = ((await rows.nth(i).locator('.label-name').first().textContent()) ?? '').trim();
    const description = ((await rows.nth(i).locator('.label-description').first().textContent()) ?? '').trim();
    shown.push(`${label} | ${description}`);
  }
  assert.deepEqual(
    shown.sort(),
    repos.map((repo) => `${repo.owner}/${repo.name} | ${repo.integration} · default branch ${repo.default_branch}`).sort(),
  );
  await wb.screenshot('several-matches', { shows: [wb.quickInput()] });
  await wb.page.keyboard.press('Escape');
});
