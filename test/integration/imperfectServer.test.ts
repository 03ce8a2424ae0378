// Both views against a server that sends records off the contract or refuses the key (issue 14,
// points 1 and 7), inside VS Code's real extension host with the control-plane stand-in.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeploymentElement, DeploymentsTreeElement } from '../../src/features/deployments/deploymentsTreeProvider';
import type { IntegrationsTreeNode } from '../../src/model/integrationRows';
import { config, connectionSettled, useApiKey, useSuiteFixture, waitFor } from './support';

const KEY = `sk-imperfect-test-${Math.random().toString(36).slice(2)}`;
const WRONG_KEY = `sk-wrong-${Math.random().toString(36).slice(2)}`;

describe('Views against an imperfect server', function () {
  this.timeout(60000);
  const fx = useSuiteFixture({
    key: KEY,
    capture: ['error', 'warning', 'info'],
    settings: () => ({ autoRefreshSeconds: 0, pageSize: 10 }),
    prepare: ({ api, onRestore }) => {
      const previous = api.deployments.filters.filters;
      onRestore(async () => {
        await api.deployments.filters.clear();
        await api.deployments.filters.update(previous);
      });
    },
  });
  const { messages } = fx;
  const deployments = () => fx.api.deployments;
  const rootRows = () => deployments().provider.getChildren() as DeploymentsTreeElement[];
  const item = (element: DeploymentsTreeElement) => deployments().provider.getTreeItem(element) as vscode.TreeItem;

  beforeEach(async () => {
    messages.clear();
    await deployments().filters.clear();
    fx.standIn.reset();
  });

  it('shows an off-contract deployment marked in its place, counts it in the message, and opens its masked JSON', async () => {
    const victim = fx.standIn.deployments[1];
    const original = { id: victim.id, created_at: victim.created_at, secrets: victim.secrets };
    try {
      Object.assign(victim, { id: 'not-a-uuid', created_at: 1700000000, secrets: [{ name: 'TOKEN', value: 'hunter2-secret' }] });
      await deployments().refresh();
      const rows = rootRows();
      const marked = rows[1] as DeploymentElement;
      assert.equal(marked.kind, 'deployment');
      assert.ok(marked.offContract, 'the second row is the off-contract record, in its place');
      const markedItem = item(marked);
      assert.equal(markedItem.label, victim.name);
      assert.match(String(markedItem.description), /does not match the API contract \(.*ID.*Created.*\)/);
      assert.equal((markedItem.iconPath as vscode.ThemeIcon).id, 'bracket-error');
      assert.equal(rows.filter((row) => row.kind === 'deployment').length, 10, 'the records around it still load');
      assert.match(String(deployments().treeView.message), /1 record on the loaded pages does not match the API contract; it is shown marked\./);
      // Its children name each field; the record's details follow.
      const [problems] = deployments().provider.getChildren(marked);
      const fields = deployments().provider.getChildren(problems).map((child) => [String(item(child).label), String(item(child).description)]);
      assert.deepEqual(fields, [
        ['ID', 'expected a UUID (id)'],
        ['Created', 'expected a string, got a number (created_at)'],
      ]);
      // Show JSON works on it, secret values masked.
      await vscode.commands.executeCommand('deploymentsExplorer.showDeploymentJson', marked);
      const text = await waitFor('the JSON document', () => {
        const editor = vscode.window.activeTextEditor;
        return editor?.document.uri.scheme === 'deployments-explorer-deployment' ? editor.document.getText() : undefined;
      });
      assert.match(text, /"id": "not-a-uuid"/);
      assert.match(text, /"created_at": 1700000000/);
      assert.ok(!text.includes('hunter2-secret'), 'the secret value is masked');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      Object.assign(victim, original);
    }
  });

  it('shows an off-contract repository marked, and Create Deployment… on it says why it cannot be used', async () => {
    const integration = fx.standIn.integrations[0];
    const repository = integration.repositories[0];
    const url = repository.url;
    const tree = fx.api.integrations.provider;
    const previous = config().inspect('integrations')?.globalValue;
    try {
      await config().update('integrations', [{ id: integration.id }], vscode.ConfigurationTarget.Global);
      (repository as { url?: string }).url = undefined;
      fx.api.services.catalog.invalidate(integration.id);
      const node = await waitFor('the integration row', async () =>
        ((await tree.getChildren()) as IntegrationsTreeNode[]).find((n) => n.kind === 'integration' && n.integration.id === integration.id),
      );
      const children = (await tree.getChildren(node)) as IntegrationsTreeNode[];
      const bad = children.find((child) => child.kind === 'message' && child.role === 'offContract');
      assert.ok(bad, 'a marked row');
      const badItem = tree.getTreeItem(bad);
      assert.equal(badItem.label, repository.name);
      assert.equal(badItem.contextValue, 'repository.offContract');
      assert.match(String(badItem.description), /does not match the API contract \(URL\)/);
      assert.equal(children.filter((child) => child.kind === 'repository').length, integration.repositories.length - 1);
      assert.match(String(tree.getTreeItem(node).description), /1 does not match the API contract/);
      await vscode.commands.executeCommand('deploymentsExplorer.createDeployment', bad);
      const shown = await waitFor('why it cannot be used', () => messages.shown.find((s) => s.level === 'error'));
      assert.match(shown.message, /\(url: expected a string, got nothing\), so it cannot be used to create a deployment/);
    } finally {
      (repository as { url?: string }).url = url;
      fx.api.services.catalog.invalidate(integration.id);
      await config().update('integrations', previous, vscode.ConfigurationTarget.Global);
    }
  });

  it('offers Set API Key… beside the Deployments error row for a rejected key, and checks a key when it is set', async () => {
    fx.standIn.addFault({ fault: { kind: 'status', status: 401, body: '{"detail":"Invalid API key"}' }, pathPrefix: '/v2/deployments' });
    await deployments().refresh();
    const labels = rootRows().map((row) => [String(item(row).label), item(row).command?.command]);
    assert.deepEqual(labels.slice(-2), [
      ["Couldn't load deployments: Retry", 'deploymentsExplorer.loadMoreDeployments'],
      ['Set API Key…', 'deploymentsExplorer.setApiKey'],
    ]);
    fx.standIn.reset();
    try {
      await useApiKey(fx.api, WRONG_KEY);
      const refused = await waitFor('the refusal', () => messages.shown.find((s) => s.level === 'warning'));
      assert.match(refused.message, /^API key saved, but the control plane refused it: /);
    } finally {
      messages.clear();
      await useApiKey(fx.api, KEY);
    }
    const accepted = await waitFor('the acceptance', () => messages.shown.find((s) => s.level === 'info'));
    assert.equal(accepted.message, 'API key saved and accepted.');
  });

  it('reloads the views once when a key is set, though secret storage also reports the change', async () => {
    let resets = 0;
    const subscription = fx.api.services.connection.onDidChange(() => resets++);
    try {
      await useApiKey(fx.api, WRONG_KEY);
      await connectionSettled(fx.api, 1000);
      assert.equal(resets, 1, 'resets after a new key');
      await useApiKey(fx.api, KEY);
      await connectionSettled(fx.api, 1000);
      assert.equal(resets, 2, 'resets after the key was set back');
    } finally {
      subscription.dispose();
      await useApiKey(fx.api, KEY);
    }
  });

  it('says a feature not enabled for the organisation is that, without offering another key', async () => {
    fx.standIn.addFault({
      fault: { kind: 'status', status: 403, body: '{"detail":"Deployments are not enabled for this organization"}' },
      pathPrefix: '/v2/deployments',
    });
    await deployments().refresh();
    const rows = rootRows();
    const last = item(rows.at(-1)!);
    assert.equal(last.label, "Couldn't load deployments: Retry");
    assert.match(String(last.description), /not enabled for your organisation/);
    assert.ok(!rows.some((row) => item(row).command?.command === 'deploymentsExplorer.setApiKey'));
  });

  it('says once that strictSSL is no longer applied (VS Code’s fetch always checks certificates), naming the setting, with no mark in the views', async () => {
    const previous = config().inspect('strictSSL')?.globalValue;
    try {
      messages.answers.warning.push(undefined);
      await config().update('strictSSL', false, vscode.ConfigurationTarget.Global);
      await deployments().refresh();
      const warning = await waitFor('the warning', () => messages.shown.find((s) => s.level === 'warning' && s.message.includes('deploymentsExplorer.strictSSL')));
      assert.match(warning.message, /always checks TLS certificates now/);
      assert.deepEqual(warning.actions, ['Open Settings']);
      await deployments().refresh();
      await deployments().refresh();
      assert.equal(messages.shown.filter((s) => s.message.includes('deploymentsExplorer.strictSSL')).length, 1, 'said once');
      assert.ok(!deployments().treeView.description?.includes('certificates not checked'), 'no mark: certificates are checked');
    } finally {
      await config().update('strictSSL', previous, vscode.ConfigurationTarget.Global);
    }
  });
});
