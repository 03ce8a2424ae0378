// ui-runner: workspace-trust
// Restricted Mode (issue 12) in a workbench with workspace trust on, as a user has it: a cloned
// folder whose .vscode/settings.json points Deployments Explorer at another server (its base URL
// and a profile of its own) opens untrusted. The views then use the user's own connection and say
// that the workspace's connection settings are ignored, Switch Profile… offers only the user's
// profiles, and the other server hears nothing. Trusting the folder makes the extension ask before
// the user's key goes there; only a yes sends it.
// Each test opens its own fresh folder in its own window, so they run in any order or alone.
import { after, before, test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { escapeRegExp, poll, snapshotUserSettings, trustingCodeServer, uiEnv, VIEW_NAMES, Workbench } from './workbench';

/** The views' message in Restricted Mode (src/features/profiles/index.ts). */
const RESTRICTED_MESSAGE = 'Restricted Mode: this workspace’s connection settings are ignored; your own settings and profiles are used.';
const WORKSPACE_PROFILE = 'Repo Profile';
/** The user's second profile: never active here, so nothing is ever sent to it. */
const STAGING = { name: 'Staging', baseUrl: 'http://127.0.0.1:9' };

interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** The server the workspace's settings point at: records every request and answers an empty page. */
class RecordingServer {
  readonly requests: Recorded[] = [];
  origin = '';
  private readonly server = http.createServer((req, res) => {
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ resources: [], offset: 0 }));
  });

  static async start(): Promise<RecordingServer> {
    const recording = new RecordingServer();
    await new Promise<void>((resolve) => recording.server.listen(0, '127.0.0.1', resolve));
    recording.origin = `http://127.0.0.1:${(recording.server.address() as { port: number }).port}`;
    return recording;
  }

  /** Requests that carried `key` in any header. */
  withKey(key: string): Recorded[] {
    return this.requests.filter((request) => Object.values(request.headers).some((value) => String(value).includes(key)));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const trusting = trustingCodeServer();
const env = uiEnv();
let third: RecordingServer;
let settings: ReturnType<typeof snapshotUserSettings> | undefined;
let firstDeployment: string;
let apiKey: string;
const folders: string[] = [];

before(async () => {
  assert.ok(env.standInUrl && env.standInApiKey, 'DE_STANDIN_URL and DE_STANDIN_API_KEY are set by the runner');
  apiKey = env.standInApiKey;
  third = await RecordingServer.start();
  // The user's own profiles: Default is the stand-in (its key is in the environment), Staging a second one.
  settings = snapshotUserSettings({ file: trusting.userSettings });
  const user = JSON.parse(fs.readFileSync(settings.file, 'utf8')) as Record<string, unknown>;
  user['deploymentsExplorer.profiles'] = [{ id: 'default', name: 'Default', baseUrl: env.standInUrl }, STAGING];
  fs.writeFileSync(settings.file, JSON.stringify(user, null, 2));
  const response = await fetch(`${env.standInUrl}/v2/deployments?limit=1`, { headers: { 'X-Api-Key': apiKey } });
  firstDeployment = ((await response.json()) as { resources: Array<{ name: string }> }).resources[0].name;
});

after(async () => {
  settings?.restore();
  await third?.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder whose own settings point at the recording server, opened in a new window: it is not trusted. */
async function openClonedFolder(t: TestContext, name: string): Promise<Workbench> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'de-ui-untrusted-'));
  folders.push(folder);
  fs.mkdirSync(path.join(folder, '.vscode'));
  fs.writeFileSync(
    path.join(folder, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'deploymentsExplorer.baseUrl': third.origin,
        'deploymentsExplorer.profiles': [{ name: WORKSPACE_PROFILE, baseUrl: third.origin }],
        'deploymentsExplorer.defaultProfile': WORKSPACE_PROFILE,
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(folder, 'README.md'), '# A cloned repository\n');
  const wb = await Workbench.open(name, { url: trusting.workbenchUrl(folder) });
  t.after(() => wb.close());
  return wb;
}

/** The status bar entry the workbench shows while the folder is not trusted. */
function restrictedModeStatus(wb: Workbench) {
  return wb.page.locator('[id="status.workspaceTrust"]').filter({ hasText: /Restricted Mode/ });
}

test('Restricted Mode: the views use the user’s own connection and profiles; the workspace’s server hears nothing', async (t) => {
  const wb = await openClonedFolder(t, 'restricted');
  await restrictedModeStatus(wb).waitFor({ state: 'visible', timeout: 30_000 });

  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  // Two profiles of the user's: the views name the active one.
  const deployments = `${VIEW_NAMES.deployments} — Default`;
  await wb.expandView(deployments);
  await wb.findRow(deployments, firstDeployment, 30_000);
  await wb.waitForViewMessage(deployments, RESTRICTED_MESSAGE);
  await wb.waitForViewMessage(`${VIEW_NAMES.integrations} — Default`, RESTRICTED_MESSAGE);
  await wb.screenshot('views', { shows: [restrictedModeStatus(wb), wb.view(deployments)] });

  await wb.runCommand('Deployments: Switch Profile…');
  await wb.quickInput().locator('.quick-input-title', { hasText: 'Switch Profile' }).waitFor({ state: 'visible', timeout: 15_000 });
  const rows = wb.quickInput().locator('.quick-input-list .monaco-list-row');
  await rows.filter({ hasText: STAGING.name }).first().waitFor({ state: 'visible', timeout: 15_000 });
  const labels = (await rows.locator('.label-name').allTextContents()).map((label) => label.trim());
  assert.deepEqual(labels, ['Default', STAGING.name, 'Add Profile…'], 'the user’s profiles, and none of the workspace’s');
  const shown = (await rows.allTextContents()).join('\n');
  assert.doesNotMatch(shown, new RegExp(`${escapeRegExp(WORKSPACE_PROFILE)}|${escapeRegExp(third.origin)}`));
  await wb.screenshot('switch-profile');
  await wb.page.keyboard.press('Escape');

  assert.deepEqual(third.requests, [], 'the server the workspace points at received no request');
});

test('Trusting the folder: the extension asks before the user’s key goes to the workspace’s server', async (t) => {
  const wb = await openClonedFolder(t, 'restricted-trusted');
  await restrictedModeStatus(wb).waitFor({ state: 'visible', timeout: 30_000 });
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  await wb.findRow(`${VIEW_NAMES.deployments} — Default`, firstDeployment, 30_000);

  await wb.runCommand('Workspaces: Manage Workspace Trust');
  await wb.page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first().click({ timeout: 15_000 });
  await restrictedModeStatus(wb).waitFor({ state: 'detached', timeout: 15_000 });

  // Trusted, the workspace's own settings count: its profile is the one in use, and its server is new to the key.
  const question = `This workspace points Deployments Explorer at ${third.origin}: use your key for it?`;
  const toast = wb.page.locator('.notifications-toasts .notification-toast').filter({ hasText: question }).first();
  const first = await poll(
    `the question “${question}”`,
    async () => (third.withKey(apiKey).length > 0 ? 'the key' : (await toast.isVisible()) && 'the question'),
    30_000,
  );
  const sent = third.withKey(apiKey).map((request) => `${request.method} ${request.url}`);
  assert.equal(first, 'the question', `the key went to ${third.origin} without asking (${sent.join(', ')})`);
  // The workspace's profile joins the user's two (it does not replace them), so the views name it.
  const deploymentsTitle = `${VIEW_NAMES.deployments} — ${WORKSPACE_PROFILE}`;
  await wb.page.locator('.pane-header h3.title', { hasText: new RegExp(`^${escapeRegExp(deploymentsTitle)}$`) }).waitFor({ state: 'visible', timeout: 15_000 });
  await wb.view(deploymentsTitle).locator('.welcome-view-content', { hasText: /your key was not sent there/ }).waitFor({ state: 'visible', timeout: 15_000 });
  await wb.screenshot('asks');
  assert.deepEqual(third.withKey(apiKey), [], 'no key before the user agrees');


  await wb.runCommand('Deployments: Switch Profile…');
  await wb.quickInput().locator('.quick-input-title', { hasText: 'Switch Profile' }).waitFor({ state: 'visible', timeout: 15_000 });
  const rows = wb.quickInput().locator('.quick-input-list .monaco-list-row');
  await rows.filter({ hasText: WORKSPACE_PROFILE }).first().waitFor({ state: 'visible', timeout: 15_000 });
  const labels = (await rows.locator('.label-name').allTextContents()).map((label) => label.trim());
  assert.deepEqual(labels, ['Default', STAGING.name, WORKSPACE_PROFILE, 'Add Profile…'], 'the user’s profiles, then the workspace’s');
  await wb.page.keyboard.press('Escape');

  await toast.locator('.monaco-button', { hasText: /^Use My Key$/ }).click();
  await poll('the workspace’s server to receive the key after the yes', () => third.withKey(apiKey).length > 0, 30_000);
  await wb.waitForViewMessage(deploymentsTitle, `Showing ${third.origin}, set by this workspace’s settings (profile “${WORKSPACE_PROFILE}”).`);
});
