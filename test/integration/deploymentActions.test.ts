// A deployment row's outward actions inside the real extension host: Open
// Custom URL, Open Repository at Ref (the deployed commit first) and Reveal
// Repository in Integrations. Links are caught at vscode.env.openExternal,
// so nothing leaves the machine.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeploymentElement } from '../../src/features/deployments/deploymentsTreeProvider';
import type { IntegrationsTreeNode } from '../../src/model/integrationRows';
import { config, useSuiteFixture, waitFor } from './support';

const KEY = `sk-actions-test-${Math.random().toString(36).slice(2)}`;

describe('Deployment row actions', function () {
  this.timeout(60000);
  const opened: string[] = [];
  const fx = useSuiteFixture({
    key: KEY,
    capture: ['info', 'error'],
    settings: (standIn) => ({
      pageSize: 100,
      integrations: standIn.integrations.slice(0, 3).map(({ id, label }) => ({ id, label })),
    }),
    prepare: ({ onRestore }) => {
      // Links are recorded instead of opened.
      const env = vscode.env as unknown as { openExternal: (target: vscode.Uri) => Thenable<boolean> };
      const original = env.openExternal;
      env.openExternal = async (target: vscode.Uri) => {
        opened.push(target.toString(true));
        return true;
      };
      assert.notEqual(vscode.env.openExternal, original, 'openExternal can be intercepted');
      onRestore(() => (env.openExternal = original));
    },
  });
  const { messages } = fx;

  const rows = () =>
    (fx.api.deployments.provider.getChildren() as Array<{ kind: string }>).filter(
      (element): element is DeploymentElement => element.kind === 'deployment',
    );
  const rowWhere = (predicate: (element: DeploymentElement) => boolean) => {
    const found = rows().find(predicate);
    assert.ok(found, 'a loaded row matches');
    return found;
  };

  before(async () => {
    await fx.api.deployments.filters.clear();
    await fx.api.deployments.refresh();
    await waitFor('the first page', () => rows().length === 100);
  });

  beforeEach(() => {
    opened.length = 0;
    messages.clear();
  });

  it('opens the custom URL of the deployment', async () => {
    const row = rowWhere((element) => !!element.item.deployment.source_config?.custom_url);
    const expected = new URL(row.item.deployment.source_config!.custom_url!).toString();
    const url = await vscode.commands.executeCommand<string>('deploymentsExplorer.openCustomUrl', row);
    assert.equal(url, expected);
    assert.deepEqual(opened, [expected]);
  });

  it('opens a deployment in the web console only once its URL template is set', async () => {
    const row = rowWhere((element) => !!element.item.deployment.id && !!element.item.deployment.tenant_id);
    const { id, tenant_id } = row.item.deployment;
    fx.onRestore(() => config().update('webConsoleUrl', undefined, vscode.ConfigurationTarget.Global));
    await config().update('webConsoleUrl', 'https://console.example.test/{tenant_id}/deployments/{id}', vscode.ConfigurationTarget.Global);
    const url = await vscode.commands.executeCommand<string>('deploymentsExplorer.openInWebConsole', row);
    assert.equal(url, `https://console.example.test/${tenant_id}/deployments/${id}`);
    assert.deepEqual(opened, [url]);
  });

  it('copies the IDs of every selected row', async () => {
    const [first, second, third] = rows().filter((element) => !!element.item.deployment.id);
    const copied = await vscode.commands.executeCommand<string[]>('deploymentsExplorer.copyDeploymentId', first, [first, second, third]);
    const ids = [first, second, third].map((element) => element.item.deployment.id);
    assert.deepEqual(copied, ids);
    assert.equal(await vscode.env.clipboard.readText(), ids.join('\n'));
  });

  it('compares two selected deployments in a diff editor, secret values masked', async () => {
    const withSecret = rowWhere((element) => (element.item.deployment.secrets ?? []).some((secret) => !!secret?.value));
    const other = rowWhere((element) => element !== withSecret && !!element.item.deployment.id);
    await vscode.commands.executeCommand('deploymentsExplorer.compareDeployments', withSecret, [withSecret, other]);
    const tab = await waitFor('the diff editor', () => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      return active?.input instanceof vscode.TabInputTextDiff ? active : undefined;
    });
    const input = tab.input as vscode.TabInputTextDiff;
    const left = (await vscode.workspace.openTextDocument(input.original)).getText();
    const right = (await vscode.workspace.openTextDocument(input.modified)).getText();
    assert.equal(JSON.parse(left).id, withSecret.item.deployment.id);
    assert.equal(JSON.parse(right).id, other.item.deployment.id);
    for (const secret of withSecret.item.deployment.secrets ?? []) {
      if (secret?.value) assert.ok(!left.includes(secret.value), 'secret values are masked');
    }
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // One row: the command says what it needs instead of opening anything.
    await vscode.commands.executeCommand('deploymentsExplorer.compareDeployments', other, [other]);
    await waitFor('the message', () => messages.shown.find((shown) => shown.level === 'error' && /Select two deployments to compare/.test(shown.message)));
  });

  it('opens the repository at the deployed commit', async () => {
    const row = rowWhere(
      (element) =>
        !!element.item.deployment.source_revision_config?.repo_commit_sha &&
        /github\.com/.test(element.item.deployment.source_config?.repo_url ?? ''),
    );
    const { source_config, source_revision_config } = row.item.deployment;
    await vscode.commands.executeCommand('deploymentsExplorer.openDeploymentRepository', row);
    assert.deepEqual(opened, [`${source_config!.repo_url}/tree/${source_revision_config!.repo_commit_sha}`]);
  });

  it('reveals and selects the repository of the deployment in the Integrations view', async () => {
    const known = new Set(fx.standIn.integrations.slice(0, 3).map((integration) => integration.id));
    const row = rowWhere((element) => known.has(element.item.deployment.source_config?.integration_id ?? ''));
    const found = await vscode.commands.executeCommand<boolean>('deploymentsExplorer.revealDeploymentRepository', row);
    assert.equal(found, true);
    const selected = await waitFor('the selection', () => fx.api.integrations.view.selection[0] as IntegrationsTreeNode | undefined);
    assert.equal(selected.kind, 'repository');
    assert.equal(
      (selected as Extract<IntegrationsTreeNode, { kind: 'repository' }>).repository.url,
      row.item.deployment.source_config!.repo_url,
    );
  });

  it('says so when the repository is in no known integration', async () => {
    const known = new Set(fx.standIn.integrations.slice(0, 3).map((integration) => integration.id));
    const row = rowWhere(
      (element) => !!element.item.deployment.source_config?.integration_id && !known.has(element.item.deployment.source_config.integration_id),
    );
    const found = await vscode.commands.executeCommand<boolean>('deploymentsExplorer.revealDeploymentRepository', row);
    assert.equal(found, false);
    assert.match(messages.shown[0]?.message ?? '', /was not found in integration/);
  });
});
