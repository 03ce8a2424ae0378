// Issue 28 item 6 in VS Code's real extension host: a self-hosted control plane serves its API under /api-host and
// its web app's HTML page at every other path; a base URL without the prefix is named as serving a web page, and
// Set Base URL…, pre-filled with the prefix, leads to the deployments.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeploymentsTreeElement } from '../../src/features/deployments/deploymentsTreeProvider';
import { config, connectionSettled, errorRows, useSuiteFixture, waitFor } from './support';

const KEY = `sk-self-hosted-${Math.random().toString(36).slice(2)}`;

describe('A self-hosted control plane whose API lives under /api-host', function () {
  this.timeout(60000);
  const fx = useSuiteFixture({
    key: KEY,
    capture: ['error', 'warning', 'info'],
    standIn: () => ({ apiPrefix: '/api-host' }),
    settings: () => ({ autoRefreshSeconds: 0, pageSize: 10 }),
  });
  const deployments = () => fx.api.deployments;
  const rows = () => deployments().provider.getChildren() as DeploymentsTreeElement[];
  const items = () => rows().map((row) => deployments().provider.getTreeItem(row) as vscode.TreeItem);

  it('an HTML answer at the base URL without /api-host names the web page, and Set Base URL… leads to the right address', async () => {
    const base = fx.standIn.url;
    const suggestion = `${base}/api-host`;
    fx.standIn.reset();
    await deployments().refresh();
    const { message, rows: shown } = errorRows(items());
    assert.ok(message.startsWith(`${base} served a web page, not the control-plane API (HTTP 200, text/html; charset=utf-8: “Control Plane”).`), message);
    assert.ok(message.includes(`A self-hosted control plane serves its API under a path prefix: ${suggestion} answers the API. Set it as the base URL.`), message);
    assert.deepEqual(shown.slice(1), [
      ['Set Base URL…', 'deploymentsExplorer.setBaseUrl', [undefined, suggestion]],
      ['Check Connection', 'deploymentsExplorer.checkConnection', []],
    ]);
    // The listing at the root, then one probe under the prefix (the stand-in records API paths without it); same origin.
    assert.deepEqual(
      fx.standIn.requests.map((request) => request.path),
      ['/v2/deployments', '/v2/deployments'],
    );

    // Click Set Base URL… and accept the pre-filled address, as a user pressing Enter.
    const [, command, args] = shown[1];
    const done = vscode.commands.executeCommand(command!, ...args);
    await waitFor('the base URL to be set', async () => {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return config().get<string>('baseUrl') === suggestion || undefined;
    });
    await done;
    await connectionSettled(fx.api);
    await deployments().refresh();
    assert.equal(rows().filter((row) => row.kind === 'deployment').length, 10);
  });
});
