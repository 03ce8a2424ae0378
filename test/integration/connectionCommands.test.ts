// The connection's own commands inside VS Code's real extension host, each checked by what the user gets: Set Base
// URL… and Set Tenant ID… write the settings, Clear API Key says so and the views stop loading, Open Settings opens
// the Settings editor on the extension's settings, Show Log the extension's output.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { config, connectionSettled, useApiKey, useSuiteFixture, waitFor } from './support';

const KEY = `sk-connection-commands-${Math.random().toString(36).slice(2)}`;
const TENANT = '5e5e5e5e-6f6f-4a4a-8b8b-9c9c9c9c9c9c';

describe('Connection commands', function () {
  this.timeout(60000);
  const fx = useSuiteFixture({ key: KEY, settings: () => ({ tenantId: undefined }) });
  const { shown } = fx.messages;
  const allTabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs);

  beforeEach(() => fx.messages.clear());
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('Set Base URL… and Set Tenant ID… write the settings the requests then follow', async () => {
    const url = `${fx.standIn.url}/`;
    await vscode.commands.executeCommand('deploymentsExplorer.setBaseUrl', url);
    assert.equal(config().get('baseUrl'), url.trim());
    await vscode.commands.executeCommand('deploymentsExplorer.setTenantId', ` ${TENANT} `);
    assert.equal(config().get('tenantId'), TENANT, 'trimmed');
    await connectionSettled(fx.api);
    const sent = fx.standIn.nextRequest((r) => r.path === '/v2/deployments');
    await vscode.commands.executeCommand('deploymentsExplorer.refreshDeployments');
    assert.equal((await sent).headers['x-tenant-id'], TENANT);

    await vscode.commands.executeCommand('deploymentsExplorer.setTenantId', '');
    assert.equal(config().get('tenantId') ?? '', '', 'empty: no tenant');
    await connectionSettled(fx.api);
    const without = fx.standIn.nextRequest((r) => r.path === '/v2/deployments');
    await vscode.commands.executeCommand('deploymentsExplorer.refreshDeployments');
    assert.equal((await without).headers['x-tenant-id'], undefined);
  });

  it('Clear API Key says the key is removed, and no request carries it any more', async () => {
    await vscode.commands.executeCommand('deploymentsExplorer.clearApiKey');
    const said = await waitFor('the message', () => shown.find((m) => m.level === 'info' && /^API key removed/.test(m.message)));
    // The runner may give the workbench the variable as well; the message says which key is left.
    assert.match(said.message, /^API key removed(\.| from secret storage\. The DEPLOYMENTS_EXPLORER_API_KEY environment variable still provides one\.)$/);
    await connectionSettled(fx.api);
    if (said.message === 'API key removed.') {
      const before = fx.standIn.requests.length;
      await vscode.commands.executeCommand('deploymentsExplorer.refreshDeployments');
      assert.ok(fx.standIn.requests.slice(before).every((r) => r.headers['x-api-key'] !== KEY), 'the removed key is not sent');
    }
    await useApiKey(fx.api, KEY);
  });

  it('Open Settings opens the Settings editor on the extension’s settings', async () => {
    await vscode.commands.executeCommand('deploymentsExplorer.openSettings');
    await waitFor('the Settings editor', () => allTabs().find((tab) => tab.isActive && tab.label === 'Settings'));
  });

  it('Show Log shows the extension’s log in the Output panel', async () => {
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('deploymentsExplorer.showLog');
    const output = await waitFor('the log in the Output panel', () =>
      vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === 'output' && /Deployments Explorer/.test(editor.document.uri.toString(true))),
    );
    assert.match(output.document.getText(), /Deployments Explorer .* activated/);
  });
});
