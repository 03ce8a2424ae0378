// The create tool's confirmation as a user sees it: a tool called as agent mode calls it (vscode.lm.invokeTool
// outside a chat, through the fixture extension test/ui/fixtures/tool-caller) makes VS Code show a modal dialog with
// the exact body and the control plane it goes to. Cancel sends nothing; Yes sends that body, once. (In the
// extension-host tests VS Code's dialog service confirms by itself, so the dialog is tested here.)
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Workbench } from './workbench';

let wb: Workbench;

before(async () => {
  // The fixture loads beside the installed extension as an extension under development (not in extension-test mode,
  // where VS Code would answer dialogs by itself).
  const base = new URL(process.env.DE_UI_URL ?? '');
  const fixture = path.resolve(__dirname, '..', '..', '..', 'test', 'ui', 'fixtures', 'tool-caller');
  base.searchParams.set('payload', JSON.stringify([['extensionDevelopmentPath', `vscode-remote://${base.host}${fixture}`]]));
  wb = await Workbench.open('agent-tools', { url: base.toString(), viewport: { width: 1400, height: 1000 } });
});

after(async () => {
  await wb?.close();
});

async function requests(standInUrl: string): Promise<Array<{ method: string; path: string; body?: Record<string, unknown> }>> {
  return (await (await fetch(`${standInUrl}/__admin/requests`)).json()) as Array<{ method: string; path: string; body?: Record<string, unknown> }>;
}

/** Runs the create tool through the fixture and answers for the user; the dialog's text. */
async function createAndAnswer(input: object, button: 'Yes' | 'Cancel'): Promise<string> {
  await wb.runCommand('Tool Caller: Invoke Language Model Tool');
  await wb.answerQuickInput('deploymentsExplorer_createDeployment');
  await wb.answerQuickInput(JSON.stringify(input));
  const dialog = wb.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  const text = await dialog.locator('.dialog-message-container').innerText();
  await wb.screenshot(`confirm-${button.toLowerCase()}`, { shows: [dialog] });
  await dialog.locator('.dialog-buttons-row .monaco-button', { hasText: button }).first().click();
  await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
  return text;
}

test('the create tool shows the exact body and where it goes; Cancel sends nothing, Yes sends that body once', async () => {
  const standInUrl = wb.env.standInUrl;
  assert.ok(standInUrl, 'DE_STANDIN_URL is not set');
  const acme = wb.env.integrations.find((i) => i.label === 'acme-github');
  assert.ok(acme, 'acme-github is configured');
  await wb.waitForExtensionsActivated();
  const listing = await fetch(`${standInUrl}/v1/integrations/forge/codehost/${acme.id}/repos`, { headers: { 'x-api-key': wb.env.standInApiKey ?? '' } });
  const [repository] = (await listing.json()) as Array<{ url: string; default_branch: string }>;
  const name = `agent-ui-${Date.now().toString(36)}`;
  const input = { integration_id: acme.id, repository_url: repository.url, name, deployment_type: 'dev' };
  const posts = async () => (await requests(standInUrl)).filter((r) => r.method === 'POST' && r.path === '/v2/deployments');
  const before = (await posts()).length;

  const cancelled = await createAndAnswer(input, 'Cancel');
  assert.match(cancelled, new RegExp(`Create deployment “${name}”\\?`));
  assert.ok(cancelled.includes(`POST ${standInUrl}/v2/deployments`), cancelled);
  await wb.waitForNotification(/Tool answered: rejected: /);
  assert.equal((await posts()).length, before, 'Cancel: nothing sent');

  const confirmed = await createAndAnswer(input, 'Yes');
  await wb.waitForNotification(new RegExp(`Tool answered: Created deployment “${name}”`), 30_000);
  const sent = (await posts()).slice(before);
  assert.equal(sent.length, 1, 'Yes: exactly one POST');
  const shown = JSON.parse(confirmed.slice(confirmed.indexOf('{'), confirmed.lastIndexOf('}') + 1)) as { name: string; source_config: { repo_url: string }; source_revision_config: { repo_ref: string } };
  assert.deepEqual(shown, sent[0].body, 'the body shown is the body sent');
  assert.equal(shown.name, name);
  assert.equal(shown.source_config.repo_url, repository.url);
  assert.equal(shown.source_revision_config.repo_ref, repository.default_branch);
});
