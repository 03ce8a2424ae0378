// Sanity checks inside VS Code's real extension host: the extension is there,
// activates when its view container opens, and registers every command its
// manifest declares.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, waitFor } from './support';

describe('Extension activation', () => {
  it('is installed under its manifest id', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
    assert.equal(ext.packageJSON.name, 'deployments-explorer');
  });

  it('activates when the Deployments view container opens', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await vscode.commands.executeCommand('workbench.view.extension.deploymentsExplorer');
    await waitFor('the extension to activate', () => ext.isActive, 30000);
    assert.equal(ext.isActive, true);
  });

  it('registers every command declared in contributes.commands', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await ext.activate();
    const declared: string[] = (ext.packageJSON.contributes?.commands ?? []).map((c: { command: string }) => c.command);
    assert.ok(declared.length > 0, 'package.json declares no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((c) => !registered.has(c));
    assert.equal(missing.length, 0, `declared in package.json but not registered: ${missing.join(', ')}`);
    const undeclared = [...registered].filter((c) => c.startsWith('deploymentsExplorer.') && !declared.includes(c));
    // VS Code registers commands per view (`<viewId>.focus`, …); the extension registers nothing undeclared.
    const views: string[] = Object.values<Array<{ id: string }>>(ext.packageJSON.contributes?.views ?? {}).flatMap((list) => list.map((view) => view.id));
    const own = undeclared.filter((c) => !views.some((view) => c.startsWith(`${view}.`)));
    assert.deepEqual(own, [], 'registered but not declared in package.json');
  });

  it('sees the environment the test harness started VS Code with', function () {
    // In code-server (web UI, remote node extension host) the harness sets this
    // variable on code-server's process; the extension host must inherit it, as
    // it inherits DEPLOYMENTS_EXPLORER_API_KEY in the UI tests and the demo.
    if (vscode.env.uiKind !== vscode.UIKind.Web) this.skip();
    assert.equal(process.env.DE_EXT_HOST_ENV_PROBE, 'inherited');
  });
});
