// This Workspace in the real workbench: a folder that is a git repository (made by the test, its remote
// a local bare repository reached through `pushInsteadOf`, the Git extension on through the folder's
// settings) and stand-in deployments of its remote's URL carrying commits of its history: the four
// commit states, the commits not deployed under a deployment, the picture for the README; Deploy This
// Branch… of a branch with an unpushed commit (the question, then the create flow pre-filled); and the
// runner's own folder, which is no git repository, with its welcome view.
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { poll, uiEnv, VIEW_NAMES, Workbench } from './workbench';

const VIEW = VIEW_NAMES.workspace;
const REMOTE = 'https://github.com/acme-demo/shop';

let wb: Workbench;
let root: string;
const created: string[] = [];
const commits: string[] = [];

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Dana Dev', '-c', 'user.email=dana@example.test', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

async function standIn(method: string, route: string, body?: unknown): Promise<Response> {
  const env = uiEnv();
  return fetch(`${env.standInUrl}${route}`, {
    method,
    headers: { 'X-Api-Key': env.standInApiKey ?? '', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function deploy(name: string, type: string, ref: string, sha: string | null, status = 'READY'): Promise<void> {
  const integration = uiEnv().integrations[0].id;
  const response = await standIn('POST', '/v2/deployments', {
    name,
    deployment_type: type,
    source_config: { integration_id: integration, repo_url: REMOTE },
    source_revision_config: { repo_ref: ref, ...(sha === null ? {} : { repo_commit_sha: sha }) },
  });
  const text = await response.text();
  assert.equal(response.status, 201, `${name}: ${text}`);
  const { id } = JSON.parse(text) as { id: string };
  created.push(id);
  // Settled, as deployments of a while ago are (a new one waits for its database first).
  assert.equal((await standIn('PATCH', `/__admin/deployments/${id}`, { status })).status, 200);
}

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'de-ui-workspace-'));
  const folder = path.join(root, 'shop');
  const bare = path.join(root, 'shop.git');
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  // The runner's user settings turn the Git extension off; this folder turns it on for itself.
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'git.enabled': true }, null, 2));
  git(folder, 'init', '-q', '-b', 'main');
  for (const subject of ['Start the shop', 'Add the cart', 'Pay with cards', 'Ship it']) {
    fs.writeFileSync(path.join(folder, 'log.txt'), `${subject}\n`, { flag: 'a' });
    git(folder, 'add', '-A');
    git(folder, 'commit', '-q', '-m', subject);
    commits.push(git(folder, 'rev-parse', 'HEAD'));
  }
  execFileSync('git', ['init', '-q', '--bare', bare]);
  git(folder, 'remote', 'add', 'origin', `${REMOTE}.git`);
  git(folder, 'config', `url.${bare}.pushInsteadOf`, `${REMOTE}.git`);
  git(folder, 'push', '-q', '-u', 'origin', 'main');

  await deploy('shop-prod', 'prod', 'refs/heads/main', commits[3]);
  await deploy('shop-preview', 'dev', 'main', commits[0]);
  await deploy('shop-staging', 'dev', 'main', 'f'.repeat(40), 'UNUSED');
  await deploy('shop-nightly', 'dev_free', 'main', null);

  const url = new URL(uiEnv().workbenchUrl);
  url.searchParams.set('folder', folder);
  wb = await Workbench.open('workspace', { url: url.toString() });
});

after(async () => {
  await wb?.close();
  for (const id of created) await standIn('DELETE', `/__admin/deployments/${id}`);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** Collapses a view of the container (for a picture of the other). */
async function collapseView(name: string): Promise<void> {
  const header = wb.view(name).locator('.pane-header').first();
  if ((await header.getAttribute('aria-expanded')) === 'true') await header.click();
}

test('shows the deployments of this repository with their commits against the local ones', async () => {
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  await collapseView(VIEW_NAMES.integrations);
  await collapseView(VIEW_NAMES.deployments);
  await wb.expandView(VIEW);
  await wb.widenSidebar(620);

  const repository = await wb.findRow(VIEW, 'shop', 60_000);
  assert.equal(await wb.rowDescription(repository), '4 deployments');
  assert.equal(await wb.rowDescription(await wb.findRow(VIEW, 'main')), 'branch · checked out');
  const expected: Record<string, RegExp> = {
    'shop-prod': /^prod · .+ · up to date$/,
    'shop-preview': /^dev · .+ · 3 commits behind main$/,
    'shop-staging': /^dev · .+ · deployed commit not in your clone$/,
    'shop-nightly': /^dev_free · .+ · no commit recorded$/,
  };
  for (const [name, description] of Object.entries(expected)) {
    const row = await wb.findRow(VIEW, name);
    await poll(`${name}'s description`, async () => description.test(await wb.rowDescription(row)));
  }

  const preview = await wb.findRow(VIEW, 'shop-preview');
  await wb.expandRow(preview);
  for (const subject of ['Ship it', 'Pay with cards', 'Add the cart']) {
    assert.match(await wb.rowDescription(await wb.findRow(VIEW, subject)), /^Dana Dev · \S/);
  }
  assert.equal(await wb.rows(VIEW).filter({ hasText: 'Start the shop' }).count(), 0, 'the deployed commit is not listed as not deployed');
  await wb.page.mouse.move(900, 450);
  await wb.screenshot('view', { shows: [wb.view(VIEW), preview] });
});

test('Deploy This Branch… (the Source Control title) of a branch the code host does not have asks first, then opens the create flow pre-filled', async () => {
  // A clone of a repository of the first configured integration, on a branch that was never pushed.
  const integration = uiEnv().integrations[0];
  const response = await standIn('GET', `/v1/integrations/forge/codehost/${integration.id}/repos`);
  const [repository] = (await response.json()) as Array<{ name: string; owner: string; url: string }>;
  const folder = path.join(root, repository.name);
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), JSON.stringify({ 'git.enabled': true }, null, 2));
  git(folder, 'init', '-q', '-b', 'main');
  git(folder, 'remote', 'add', 'origin', `${repository.url}.git`);
  git(folder, 'checkout', '-q', '-b', 'feature/ui-cart');
  fs.writeFileSync(path.join(folder, 'cart.txt'), 'a new cart\n');
  git(folder, 'add', '-A');
  git(folder, 'commit', '-q', '-m', 'Try a new cart');

  await wb.close();
  const url = new URL(uiEnv().workbenchUrl);
  url.searchParams.set('folder', folder);
  wb = await Workbench.open('workspace-branch', { url: url.toString() });
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  // From the Source Control view's title, where a person who has just committed looks.
  await wb.page.locator('.activitybar .action-item a.action-label[aria-label^="Source Control"]').first().click();
  const deployBranch = wb.page.locator('.part.sidebar .action-label[aria-label^="Deploy This Branch…"]').first();
  // Title actions show while the pointer is over the view's header.
  await deployBranch.waitFor({ state: 'attached', timeout: 60_000 });
  // The header that holds it (a view's, or the container's when the view is alone in it); the inner locator is relative.
  const titleAction = wb.page.locator('.action-label[aria-label^="Deploy This Branch…"]');
  await wb.page.locator('.part.sidebar .pane-header, .part.sidebar .composite.title').filter({ has: titleAction }).first().hover();
  await deployBranch.click();
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 }).catch(async (error: unknown) => {
    throw new Error(`no question came; the notifications: ${(await wb.notifications()).join(' | ') || 'none'}`, { cause: error });
  });
  assert.match((await dialog.textContent()) ?? '', /The branch feature\/ui-cart is not on the code host yet \(it has no upstream\)\./);
  assert.match((await dialog.textContent()) ?? '', /what is not pushed would not be deployed/);
  await dialog.locator('.monaco-button', { hasText: /^Deploy Anyway$/ }).click();
  await wb.waitForNameStep(`${repository.owner}/${repository.name}`);
  const input = wb.quickInput().locator('.quick-input-box input');
  await wb.waitForInputValue(input, `${repository.name}-feature-ui-cart`.toLowerCase().replace(/[^a-z0-9-]+/g, '-'));
  await input.press('Enter');
  await wb.waitForInputValue(input, 'feature/ui-cart');
  await wb.page.keyboard.press('Escape');
});

test('a folder that is not a git repository gets a welcome view offering Deploy This Workspace', async () => {
  await wb.close();
  wb = await Workbench.open('workspace-no-git');
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  const view = await wb.expandView(VIEW);
  // (The connection's welcome shows for a moment, until the extension has read the connection settings.)
  const welcome = view.locator('.welcome-view-content', { hasText: 'No git repository with a remote is open in this workspace' });
  await welcome.waitFor({ state: 'visible', timeout: 30_000 });
  await view.locator('.welcome-view-content .monaco-button', { hasText: 'Deploy This Workspace…' }).waitFor({ state: 'visible' });
});
