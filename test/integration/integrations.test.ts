// The Integrations view inside VS Code's real extension host, against the
// control-plane stand-in: adding, validating, loading, error rows, discovery,
// refresh, reveal and what reaches the log.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IntegrationsTreeNode } from '../../src/model/integrationRows';
import { ORPHAN_INTEGRATION_ID } from '../server/standIn';
import { captureLog, config, useApiKey, useSuiteFixture, waitFor } from './support';

const UNKNOWN_ID = '0badc0de-1111-4222-8333-944455556666';
const KEY = `sk-integrations-test-${Math.random().toString(36).slice(2)}`;
const WRONG_KEY = `sk-wrong-${Math.random().toString(36).slice(2)}`;

function findLogFiles(dir: string, depth = 0): string[] {
  if (depth > 4 || !fs.existsSync(dir)) return [];
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findLogFiles(full, depth + 1));
    else if (entry.name.endsWith('.log') && entry.name.includes('Deployments Explorer')) found.push(full);
  }
  return found;
}

describe('Integrations view', function () {
  this.timeout(60000);
  const logged: string[] = [];
  const fx = useSuiteFixture({
    key: KEY,
    // No integrations until a test adds them; discovery is off (the fixture's default), the discovery test runs it explicitly.
    settings: () => ({ integrations: [] }),
    prepare: ({ api, standIn, onRestore }) => {
      captureLog(api, logged, onRestore);
      // The discovery test remembers integrations; forget them first of all.
      onRestore(() => {
        for (const id of [ORPHAN_INTEGRATION_ID, ...standIn.integrations.map((i) => i.id)]) api.services.catalog.forgetDiscovered(id);
      });
    },
  });
  /** Notifications shown, and the answers for the next ones by level (undefined = dismissed). */
  const { messages } = fx;
  const { shown, answers } = messages;

  const tree = () => fx.api.integrations.provider;
  const rootNodes = async () => (await tree().getChildren()) as IntegrationsTreeNode[];
  const item = (node: IntegrationsTreeNode) => tree().getTreeItem(node) as vscode.TreeItem;
  const integrationRow = async (id: string) => {
    const node = (await rootNodes()).find((n) => n.kind === 'integration' && n.integration.id.toLowerCase() === id.toLowerCase());
    assert.ok(node, `integration ${id} is not a row of the tree`);
    return node;
  };
  const repoRequests = (id: string) =>
    fx.standIn.requests.filter((r) => r.path === `/v1/integrations/forge/codehost/${id}/repos`).length;
  const sample = (label: string) => {
    const found = fx.standIn.integrations.find((i) => i.label === label);
    assert.ok(found, label);
    return found;
  };
  const useKey = (key: string) => useApiKey(fx.api, key);
  const setIntegrations = (value: unknown) => config().update('integrations', value, vscode.ConfigurationTarget.Global);

  beforeEach(() => messages.clear());

  it('adds an integration and shows all its repositories, sorted, with owner and branch', async () => {
    const platform = sample('platform-gitlab');
    const result = (await vscode.commands.executeCommand('deploymentsExplorer.addIntegration', platform.id, 'Platform')) as {
      id: string;
      verified: boolean;
    };
    assert.deepEqual(result, { id: platform.id, label: 'Platform', verified: true });
    assert.deepEqual(config().get('integrations'), [{ id: platform.id, label: 'Platform' }]);

    const node = await integrationRow(platform.id);
    const integrationItem = item(node);
    assert.equal(integrationItem.label, 'Platform');
    assert.equal(integrationItem.contextValue, 'integration.added');
    assert.equal(integrationItem.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.ok((integrationItem.tooltip as vscode.MarkdownString).value.includes(platform.id.replace(/-/g, '\\-')));

    const children = await tree().getChildren(node);
    assert.equal(children.length, platform.repositories.length);
    assert.equal(platform.repositories.length, 60);
    assert.equal(item(node).description, '60 repositories · gitlab.com', 'count and code host once loaded');

    const pairs = children.map((child) => (child.kind === 'repository' ? [child.repository.owner, child.repository.name] : ['?', '?']));
    const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
    for (let i = 1; i < pairs.length; i++) {
      const order = collator.compare(pairs[i - 1][0], pairs[i][0]) || collator.compare(pairs[i - 1][1], pairs[i][1]);
      assert.ok(order <= 0, `${pairs[i - 1].join('/')} is listed before ${pairs[i].join('/')}`);
    }

    const first = children[0];
    assert.ok(first.kind === 'repository');
    const repoItem = item(first);
    assert.equal(repoItem.label, first.repository.name);
    assert.equal(repoItem.description, `${first.repository.owner} · ${first.repository.default_branch}`);
    assert.equal(repoItem.contextValue, 'repository');
    assert.ok(repoItem.id);
    const resolved = tree().resolveTreeItem(repoItem, first);
    const tooltip = (resolved.tooltip as vscode.MarkdownString).value;
    for (const field of ['Name', 'Owner', 'URL', 'Default branch', 'ID', 'Integration ID']) assert.ok(tooltip.includes(`**${field}:**`), field);
    assert.doesNotMatch(tooltip, /default_branch|host_integration_id/, 'the interface’s words, not the API’s field names');
    assert.equal(tree().getParent(first), node);
    assert.deepEqual(shown.filter((s) => s.level === 'error'), []);
  });

  it('refuses a malformed integration ID with a message naming the problem', async () => {
    const before = config().get('integrations');
    await vscode.commands.executeCommand('deploymentsExplorer.addIntegration', 'not-a-uuid');
    const error = shown.find((s) => s.level === 'error');
    assert.ok(error, 'no error message shown');
    assert.match(error.message, /integration ID/);
    assert.match(error.message, /contains “n”/);
    assert.deepEqual(config().get('integrations'), before);

    await vscode.commands.executeCommand('deploymentsExplorer.addIntegration', '3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6');
    assert.match(shown.filter((s) => s.level === 'error')[1]?.message ?? '', /32 hexadecimal digits.*31/);
    assert.deepEqual(config().get('integrations'), before);
  });

  it('shows an unknown integration as an error row that retries, not as an empty list', async () => {
    answers.error.push('Add Anyway');
    const result = (await vscode.commands.executeCommand('deploymentsExplorer.addIntegration', UNKNOWN_ID)) as { verified: boolean };
    assert.equal(result.verified, false);
    const probeMessage = shown.find((s) => s.level === 'error');
    assert.ok(probeMessage);
    assert.match(probeMessage.message, /could not be checked.*not found \(HTTP 404\)/);
    assert.deepEqual(probeMessage.actions.slice(0, 2), ['Add Anyway', 'Edit']);
    assert.ok((config().get('integrations') as { id: string }[]).some((entry) => entry.id === UNKNOWN_ID));

    const node = await integrationRow(UNKNOWN_ID);
    assert.equal(item(node).description, 'failed to load');
    const children = await tree().getChildren(node);
    assert.equal(children.length, 1);
    const row = item(children[0]);
    assert.equal(row.contextValue, 'error');
    assert.match(String(row.label), /not found \(HTTP 404\)/);
    assert.equal((row.iconPath as vscode.ThemeIcon).id, 'error');
    assert.equal(row.command?.command, 'deploymentsExplorer.refreshIntegration');

    // Clicking the row retries: one more request.
    const requestsBefore = repoRequests(UNKNOWN_ID);
    await vscode.commands.executeCommand(row.command!.command, ...(row.command!.arguments ?? []));
    const again = await tree().getChildren(node);
    assert.equal(repoRequests(UNKNOWN_ID), requestsBefore + 1);
    assert.equal(item(again[0]).contextValue, 'error');
  });

  it('shows an integration without repositories with an informative row', async () => {
    const archive = sample('archive-bitbucket');
    await setIntegrations([{ id: archive.id }]);
    const node = await integrationRow(archive.id);
    const children = await tree().getChildren(node);
    assert.equal(children.length, 1);
    assert.equal(item(children[0]).label, 'No repositories visible through this integration');
    // No label and no repositories: named by its code host once discovery (here or in another suite) has seen
    // the integration's deployments, the short ID beside it; by the short ID alone before.
    const short = archive.id.slice(0, 8) + '…';
    if (item(node).label === short) {
      assert.equal(item(node).description, '0 repositories');
    } else {
      assert.equal(item(node).label, 'Integration on bitbucket.org');
      assert.equal(item(node).description, `${short} · 0 repositories`);
    }
  });

  it('turns a rejected API key into an auth error row and a message offering Set API Key…', async () => {
    const acme = sample('acme-github');
    await setIntegrations([{ id: acme.id }]);
    try {
      await useKey(WRONG_KEY);
      const node = await integrationRow(acme.id);
      const children = await tree().getChildren(node);
      const rows = children.map(item);
      assert.equal(rows[0].contextValue, 'error');
      assert.match(String(rows[0].label), /Access denied \(HTTP 403\)/);
      assert.ok(rows.some((r) => r.label === 'Set API Key…' && r.command?.command === 'deploymentsExplorer.setApiKey'));
      const notice = await waitFor('the auth error message', () => shown.find((s) => s.level === 'error'));
      assert.match(notice.message, /Access denied/);
      assert.ok(notice.actions.includes('Set API Key…'), `actions: ${notice.actions.join(', ')}`);
    } finally {
      await useKey(KEY);
    }
    const node = await integrationRow(acme.id);
    assert.equal((await tree().getChildren(node)).length, acme.repositories.length);
  });

  it('discovers the integrations deployments use, including the unknown one, and promotes one', async () => {
    const acme = sample('acme-github');
    await setIntegrations([{ id: acme.id }]);
    const summary = (await vscode.commands.executeCommand('deploymentsExplorer.discoverIntegrations')) as { found: number; deployments: number };
    assert.equal(summary.deployments, fx.standIn.deployments.length);

    const used = new Set(fx.standIn.deployments.map((d) => d.source_config?.integration_id?.toLowerCase()).filter(Boolean));
    assert.ok(used.has(ORPHAN_INTEGRATION_ID));
    assert.equal(summary.found, used.size);
    const roots = await rootNodes();
    const rootIds = new Set(roots.map((n) => (n.kind === 'integration' ? n.integration.id.toLowerCase() : '')));
    for (const id of used) assert.ok(rootIds.has(id!), `${id} not in the tree`);
    assert.equal(item(await integrationRow(acme.id)).contextValue, 'integration.added');

    const orphan = await integrationRow(ORPHAN_INTEGRATION_ID);
    const orphanItem = item(orphan);
    assert.equal(orphanItem.contextValue, 'integration.discovered');
    assert.equal(orphanItem.label, 'Integration on github.com', 'named by the host its deployments name, before any repository loads');
    assert.equal(orphanItem.description, `${ORPHAN_INTEGRATION_ID.slice(0, 8)}… · discovered`, 'its short ID beside the name');
    const orphanChildren = await tree().getChildren(orphan);
    assert.equal(item(orphanChildren[0]).contextValue, 'error');
    assert.match(String(item(orphanChildren[0]).label), /HTTP 404/);

    const info = shown.find((s) => s.level === 'info' && /Found \d+ integration/.test(s.message));
    assert.ok(info, 'no summary message');

    const platform = sample('platform-gitlab');
    const promoted = await vscode.commands.executeCommand('deploymentsExplorer.promoteIntegration', await integrationRow(platform.id));
    assert.equal(promoted, true);
    assert.ok((config().get('integrations') as { id: string }[]).some((entry) => entry.id === platform.id));
    assert.equal(item(await integrationRow(platform.id)).contextValue, 'integration.added');
  });

  it('fetches repositories once and refetches on Refresh Integration and Refresh', async () => {
    const acme = sample('acme-github');
    await setIntegrations([{ id: acme.id }]);
    fx.api.services.catalog.invalidate();
    const start = repoRequests(acme.id);
    const node = await integrationRow(acme.id);
    await tree().getChildren(node);
    await tree().getChildren(node);
    assert.equal(repoRequests(acme.id), start + 1, 'cached after the first load');

    await vscode.commands.executeCommand('deploymentsExplorer.refreshIntegration', node);
    assert.equal((await tree().getChildren(node)).length, acme.repositories.length);
    assert.equal(repoRequests(acme.id), start + 2, 'Refresh Integration refetches');

    await vscode.commands.executeCommand('deploymentsExplorer.refreshIntegrations');
    await tree().getChildren(await integrationRow(acme.id));
    assert.equal(repoRequests(acme.id), start + 3, 'Refresh refetches');
  });

  it('reveals a repository by URL, ignoring host case, .git and a trailing slash', async () => {
    const monorepo = sample('monorepo-github');
    await setIntegrations([{ id: monorepo.id, label: 'Monorepo' }]);
    const target = monorepo.repositories[monorepo.repositories.length - 1];
    const url = new URL(target.url);
    const variant = `${url.protocol}//${url.host.toUpperCase()}${url.pathname}.git/`;
    assert.equal(await fx.api.integrations.revealRepository(monorepo.id, variant), true);
    const selected = await waitFor('the selection', () => fx.api.integrations.view.selection[0]);
    assert.ok(selected.kind === 'repository');
    assert.equal(selected.repository.url, target.url);
    assert.equal(await fx.api.integrations.revealRepository(monorepo.id, 'https://example.com/nobody/nothing'), false);
    assert.equal(await fx.api.integrations.revealRepository(UNKNOWN_ID, target.url), false);
  });

  it('keeps an integration with 5000 repositories responsive: one page of rows, and a reveal beyond it', async () => {
    const acme = sample('acme-github');
    const many = Array.from({ length: 5000 }, (_, i) => ({
      host_integration_id: acme.id,
      id: 100000 + i,
      name: `service-${String(4999 - i).padStart(4, '0')}`,
      owner: i % 2 ? 'acme' : 'acme-labs',
      url: `https://github.com/${i % 2 ? 'acme' : 'acme-labs'}/service-${String(4999 - i).padStart(4, '0')}`,
      default_branch: 'main',
    }));
    fx.standIn.addFault({ fault: { kind: 'status', status: 200, body: JSON.stringify(many) }, pathPrefix: `/v1/integrations/forge/codehost/${acme.id}/repos`, times: 1 });
    try {
      await setIntegrations([{ id: acme.id }]);
      await vscode.commands.executeCommand('deploymentsExplorer.refreshIntegration', acme.id);
      const node = await integrationRow(acme.id);
      // The times of these steps are the bench's (npm run bench), not a test's: here, what they give.
      const children = await tree().getChildren(node);
      assert.equal(children.length, 1001, 'the first 1,000 and a more row');
      for (const child of children) assert.ok(item(child).label);
      const requests = fx.standIn.requests.length;
      assert.equal(await tree().getChildren(node), children, 'the same rows again, from the cache');
      assert.equal(fx.standIn.requests.length, requests, 'no request for them again');
      const first = children[0];
      assert.ok(first.kind === 'repository' && first.repository.owner === 'acme' && first.repository.name === 'service-0000');
      // The last of the 5000 (acme-labs/service-4999): the rows are shown up to it, then it is revealed.
      assert.equal(await fx.api.integrations.revealRepository(acme.id, many[0].url), true);
      const selected = await waitFor('the selection', () => {
        const [row] = fx.api.integrations.view.selection;
        return row?.kind === 'repository' && row.repository.url === many[0].url ? row : undefined;
      });
      assert.equal((await tree().getChildren(node)).at(-1), selected);
    } finally {
      fx.standIn.clearFaults();
      fx.api.services.catalog.invalidate(acme.id);
    }
  });

  it('shows an integration with more than one page of repositories a page at a time, the more row in the real view', async () => {
    const large = fx.standIn.addIntegration({ repositoryCount: 2500 });
    const view = fx.api.integrations.view;
    try {
      await setIntegrations([{ id: large.id, label: 'Large' }]);
      const node = await integrationRow(large.id);
      const first = await tree().getChildren(node);
      assert.equal(first.length, 1001);
      assert.equal(item(first[0]).label, 'service-0000');
      const more = first[1000];
      const moreItem = item(more);
      assert.equal(moreItem.label, 'Show 1,000 more…');
      assert.equal(moreItem.description, '1,000 of 2,500 shown');
      assert.equal(moreItem.contextValue, 'moreRepositories');
      assert.equal((moreItem.iconPath as vscode.ThemeIcon).id, 'ellipsis');
      assert.equal(moreItem.command?.command, 'deploymentsExplorer.showMoreRepositories');

      // The view has the row: it reveals and selects it, under its integration.
      await view.reveal(more, { select: true, focus: false });
      await waitFor('the more row to be selected', () => view.selection[0]?.kind === 'more');

      // Clicking it (its command, with its arguments) shows the next page in place.
      assert.equal(await vscode.commands.executeCommand(moreItem.command!.command, ...(moreItem.command!.arguments ?? [])), true);
      const second = await tree().getChildren(node);
      assert.equal(second.length, 2001);
      for (let i = 0; i < 1000; i++) assert.equal(second[i], first[i], `row ${i} was rebuilt`);
      assert.equal(item(second[1500]).label, 'service-1500');
      assert.equal(item(second[2000]).label, 'Show 500 more…');
      assert.equal(item(second[2000]).description, '2,000 of 2,500 shown');
      await view.reveal(second[1500], { select: true, focus: false });
      await waitFor('a row of the second page to be selected', () => view.selection[0] === second[1500]);

      // Show All (the more row's context menu): every row at once, the more row gone.
      await vscode.commands.executeCommand('deploymentsExplorer.showAllRepositories', second[2000]);
      const all = await tree().getChildren(node);
      assert.equal(all.length, 2500, 'every row, no more row');
      assert.equal(item(all[2499]).label, 'service-2499');

      // Find Repository… and the other reveals reach beyond the shown rows.
      const last = large.repositories.find((repository) => repository.name === 'service-2499')!;
      assert.equal(await fx.api.integrations.revealRepository(large.id, last.url), true);
      await waitFor('the last repository to be selected', () => {
        const [row] = view.selection;
        return row?.kind === 'repository' && row.repository.url === last.url;
      });
      assert.equal((await tree().getChildren(node)).length, 2500, 'every row, no more row');

      // A refresh (a new listing) starts again at one page.
      await vscode.commands.executeCommand('deploymentsExplorer.refreshIntegration', node);
      assert.equal((await tree().getChildren(node)).length, 1001);
    } finally {
      fx.standIn.removeIntegration(large.id);
      fx.api.services.catalog.invalidate(large.id);
    }
  });

  it('the rows’ context menus copy the integration ID and the repository URL, and open the repository', async () => {
    const acme = sample('acme-github');
    await setIntegrations([{ id: acme.id, label: 'Acme' }]);
    const integration = await integrationRow(acme.id);
    await vscode.commands.executeCommand('deploymentsExplorer.copyIntegrationId', integration);
    assert.equal(await vscode.env.clipboard.readText(), acme.id);
    const repository = (await tree().getChildren(integration)).find((node) => node.kind === 'repository');
    assert.ok(repository?.kind === 'repository');
    await vscode.commands.executeCommand('deploymentsExplorer.copyRepositoryUrl', repository);
    assert.equal(await vscode.env.clipboard.readText(), repository.repository.url);
    // Open Repository hands the page to VS Code's opener (the browser here, whose context lets nothing leave loopback).
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.openRepository', repository), true, JSON.stringify(shown));
    assert.ok(logged.includes(`Opening ${repository.repository.url}`), 'the log says what was opened');
  });

  it('removes an integration after confirmation', async () => {
    const acme = sample('acme-github');
    await setIntegrations([{ id: acme.id, label: 'Acme' }]);
    answers.warning.push(undefined);
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.removeIntegration', await integrationRow(acme.id)), false);
    assert.equal((config().get('integrations') as unknown[]).length, 1);
    answers.warning.push('Remove');
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.removeIntegration', await integrationRow(acme.id)), true);
    assert.deepEqual(config().get('integrations'), []);
    assert.match(shown.find((s) => s.level === 'warning')?.message ?? '', /Remove integration Acme/);
  });

  it('never writes the API key to the log channel', async () => {
    // Activity that logs: requests, failures with the wrong key, refreshes.
    const acme = sample('acme-github');
    await setIntegrations([{ id: acme.id }]);
    await vscode.commands.executeCommand('deploymentsExplorer.refreshIntegration', acme.id);
    await tree().getChildren(await integrationRow(acme.id));
    const marker = `log-check-${Date.now()}`;
    fx.api.services.log.info(marker);

    assert.ok(logged.length > 5, 'the wrapper saw the log');
    assert.ok(logged.some((line) => line.includes('/repos')), 'requests are logged');
    for (const line of logged) {
      assert.ok(!line.includes(KEY), `key in log line: ${line}`);
      assert.ok(!line.includes(WRONG_KEY), `wrong key in log line: ${line}`);
    }

    const logRoot = path.dirname(fx.api.services.context.logUri.fsPath);
    const content = await waitFor(
      'the log file to contain the marker',
      () => {
        const text = findLogFiles(logRoot).map((file) => fs.readFileSync(file, 'utf8')).join('\n');
        return text.includes(marker) ? text : undefined;
      },
      10000,
    );
    assert.ok(content.includes('/repos'));
    assert.ok(!content.includes(KEY), 'the key is in the log file');
    assert.ok(!content.includes(WRONG_KEY), 'the wrong key is in the log file');
  });
});
