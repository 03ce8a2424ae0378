// This Workspace inside VS Code's real extension host, with the built-in git extension on a real git
// repository the suite makes of the test workspace (its remote a local bare repository, reached
// through `pushInsteadOf` from a URL that names a stand-in repository), and stand-in deployments
// carrying commits of that history: the four commit states, the commits not deployed, the scan's
// limit, Deploy This Branch (unpushed commits, both answers; a branch deployed already), a profile
// switch during a scan, and a workspace without git.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkspaceElement } from '../../src/features/workspace/workspaceTree';
import { SAMPLE_TENANT_ID, StandIn } from '../server/standIn';
import { config, connectionSettled, useSuiteFixture, waitFor } from './support';

const KEY = `sk-workspace-test-${Math.random().toString(36).slice(2)}`;
const OTHER_KEY = `sk-workspace-other-${Math.random().toString(36).slice(2)}`;
const INTEGRATION = { id: 'e5a7c9b1-6f80-4293-a4b5-5a6b7c8d9e05', label: 'workspace-github' };
/** The stand-in repository the workspace's remote names (StandIn.addIntegration names it service-0). */
const REPOSITORY_URL = 'https://github.com/ws-test/service-0';

interface GitRepositoryApi {
  rootUri: vscode.Uri;
  state: { HEAD?: { name?: string; commit?: string } };
  status(): Promise<void>;
}
interface GitExtensionApi {
  enabled: boolean;
  getAPI(version: 1): { repositories: GitRepositoryApi[]; openRepository(root: vscode.Uri): Promise<GitRepositoryApi | null> };
}
type Row = WorkspaceElement & { kind: string };

describe('This Workspace', function () {
  this.timeout(60000);
  const folder = vscode.workspace.workspaceFolders![0].uri;
  const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'de-ws-remote-'));
  const commits: string[] = [];
  let other: StandIn | undefined;

  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Dana Dev', '-c', 'user.email=dana@example.test', '-c', 'commit.gpgsign=false', ...args], {
      cwd: folder.fsPath,
      encoding: 'utf8',
    }).trim();
  const commit = (subject: string) => {
    fs.writeFileSync(path.join(folder.fsPath, 'log.txt'), `${subject}\n`, { flag: 'a' });
    git('add', '-A');
    git('commit', '-q', '-m', subject);
    return git('rev-parse', 'HEAD');
  };
  const gitExtension = () => vscode.extensions.getExtension<GitExtensionApi>('vscode.git')!;
  /** The git extension's repository of the workspace, its state read again (it otherwise follows the disk a moment later). */
  const repository = async () => {
    const found = await waitFor('the git extension to open the repository', async () => (await gitExtension().exports.getAPI(1).openRepository(folder)) ?? undefined);
    await found.status();
    return found;
  };

  const fx = useSuiteFixture({
    key: KEY,
    settings: () => ({ integrations: [INTEGRATION], profiles: undefined, defaultProfile: undefined, 'workspace.scanLimit': undefined }),
    prepare: ({ standIn, api, onRestore }) => {
      standIn.addIntegration({ repositoryCount: 1, id: INTEGRATION.id, label: INTEGRATION.label, host: 'github.com', owner: 'ws-test' });
      onRestore(async () => {
        api.watch.scheduler.replaceAll([]);
        await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Global);
        fs.rmSync(path.join(folder.fsPath, '.git'), { recursive: true, force: true });
        fs.rmSync(path.join(folder.fsPath, 'log.txt'), { force: true });
        fs.rmSync(bare, { recursive: true, force: true });
        await other?.close();
      });
    },
  });
  const provider = () => fx.api.workspace.provider;
  const index = () => fx.api.services.deploymentIndex.current();
  const scanRequests = (standIn = fx.standIn) => standIn.requests.filter((r) => r.path === '/v2/deployments' && r.query.limit === '100' && !r.query.deployment_ids);
  const children = async (element?: WorkspaceElement) => (await provider().getChildren(element)) as Row[];
  const item = (element: WorkspaceElement) => provider().getTreeItem(element);
  /** Every row under the root, depth first, as `label — description` (commits too). */
  const render = async (element?: WorkspaceElement, depth = 0): Promise<string[]> => {
    const lines: string[] = [];
    for (const child of await children(element)) {
      const shown = item(child);
      lines.push(`${'  '.repeat(depth)}${String(shown.label)}${shown.description ? ` — ${String(shown.description)}` : ''}`);
      if (shown.collapsibleState !== vscode.TreeItemCollapsibleState.None) lines.push(...(await render(child, depth + 1)));
    }
    return lines;
  };
  const settledScan = () => waitFor('the scan to end', () => index().scanState.phase !== 'scanning' && index().scanState.phase !== 'none', 30000);
  const deploy = (name: string, type: string | undefined, repoUrl: string, ref: string, sha: string | null) => {
    const now = new Date().toISOString();
    const record = {
      id: randomUUID(),
      name,
      status: 'READY',
      tenant_id: SAMPLE_TENANT_ID,
      created_at: now,
      updated_at: now,
      deployment_type: type,
      source_config: { integration_id: INTEGRATION.id, repo_url: repoUrl },
      source_revision_config: { repo_ref: ref, repo_commit_sha: sha },
      secrets: [{ name: 'TOKEN', value: 'workspace-secret' }],
    };
    fx.standIn.deployments.unshift(record as never);
    return record;
  };

  beforeEach(() => fx.messages.clear());

  it('a workspace without git: no remote to look for, and not one request', async () => {
    assert.equal(gitExtension().exports.enabled, false, 'the test workbench runs with git.enabled false');
    fx.standIn.reset();
    // Asking for the view's rows is what would start a scan: none started.
    assert.deepEqual(await children(), [], 'the welcome view says there is no git repository');
    assert.equal(index().scanState.phase, 'none', 'nothing is looked through, at activation or since');
    assert.deepEqual(scanRequests(), []);
  });

  it('shows the four commit states of the deployments of this repository, grouped by ref', async () => {
    git('init', '-q', '-b', 'main');
    commits.push(commit('Start the shop'), commit('Add the cart'), commit('Pay with cards'), commit('Ship it'));
    git('tag', '-a', 'v1', '-m', 'First release', commits[1]);
    execFileSync('git', ['init', '-q', '--bare', bare]);
    git('remote', 'add', 'origin', `${REPOSITORY_URL}.git`);
    git('config', `url.${bare}.pushInsteadOf`, `${REPOSITORY_URL}.git`);
    git('push', '-q', '-u', 'origin', 'main', 'v1');
    deploy('shop-live', 'prod', 'git@github.com:ws-test/service-0.git', 'refs/heads/main', commits[3]);
    deploy('shop-preview', 'dev', `${REPOSITORY_URL}/`, 'main', commits[0]);
    deploy('shop-stale', 'dev', REPOSITORY_URL, 'main', 'f'.repeat(40));
    deploy('shop-unknown', 'dev_free', REPOSITORY_URL, 'main', null);
    deploy('shop-release', 'prod', REPOSITORY_URL, 'refs/tags/v1', commits[1]);
    deploy('elsewhere', 'prod', 'https://github.com/ws-test/another', 'main', commits[0]);

    await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
    await waitFor('git to be enabled', () => gitExtension().exports.enabled);
    await repository();
    fx.standIn.reset();
    await children();
    await settledScan();
    assert.equal(index().scanState.phase, 'complete');
    assert.equal(index().scanState.looked, fx.standIn.deployments.length);
    assert.deepEqual(
      scanRequests().map((r) => r.query.offset),
      Array.from({ length: Math.ceil(fx.standIn.deployments.length / 100) }, (_, page) => String(page * 100)),
      'pages of 100, each at the offset the last answer gave',
    );
    const rows = await waitFor('the deployments of the repository', async () => {
      const lines = await render();
      return lines.length > 1 ? lines : undefined;
    });
    assert.match(rows[4], /^ {6}Ship it — Dana Dev · \S/, 'subject, author and date');
    // (The date of a commit is the time the suite made it.)
    assert.deepEqual(
      rows.map((line) => line.replace(/^( {6}.* — Dana Dev) · .+$/, '$1')),
      [
        `${path.basename(folder.fsPath)} — 5 deployments`,
        '  main — branch · checked out',
        '    shop-live — prod · Ready · up to date',
        '    shop-preview — dev · Ready · 3 commits behind main',
        '      Ship it — Dana Dev',
        '      Pay with cards — Dana Dev',
        '      Add the cart — Dana Dev',
        '    shop-stale — dev · Ready · deployed commit not in your clone',
        '    shop-unknown — dev_free · Ready · no commit recorded',
        '  v1 — tag',
        '    shop-release — prod · Ready · up to date',
      ],
      'the deployment of another repository is not shown',
    );
  });

  it('the Integrations tree’s repository row says how it is deployed, from the same index, with no request of its own', async () => {
    const node = await fx.api.integrations.provider.findRepositoryNode(INTEGRATION.id, REPOSITORY_URL);
    assert.ok(node);
    fx.standIn.reset();
    const shown = fx.api.integrations.provider.getTreeItem(node);
    assert.equal(shown.description, 'ws-test · main · deployed: 2 prod, 2 dev, dev_free');
    assert.deepEqual(fx.standIn.requests, []);
  });

  it('lists the commits not deployed, each opening in the git extension', async () => {
    const [repositoryRow] = await children();
    const [main] = await children(repositoryRow);
    const preview = (await children(main)).find((row) => item(row).label === 'shop-preview')!;
    const listed = await children(preview);
    assert.deepEqual(
      listed.map((row) => (row.kind === 'commit' ? row.commit.hash : row.kind)),
      [commits[3], commits[2], commits[1]],
    );
    const stale = (await children(main)).find((row) => item(row).label === 'shop-stale')!;
    assert.match((item(stale).tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' '), /fetch from the remote/);
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.openCommit', listed[0]), commits[3]);
    await waitFor('the commit to open', () =>
      vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.label.includes(commits[3].slice(0, 7))),
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The commit's context menu also opens it on the code host: the command answers the page it asked VS Code to open.
    const onHost = await vscode.commands.executeCommand<string>('deploymentsExplorer.openCommitOnCodeHost', listed[0]);
    assert.match(String(onHost), new RegExp(`^https://.*/commit/${commits[3]}$`), JSON.stringify(fx.messages.shown));
  });

  it('stops at the limit, says how many it looked at, and goes on when asked', async () => {
    await config().update('workspace.scanLimit', 100, vscode.ConfigurationTarget.Global);
    fx.standIn.reset();
    await vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');
    assert.deepEqual({ phase: index().scanState.phase, looked: index().scanState.looked }, { phase: 'capped', looked: 100 });
    let last = (await children()).at(-1)!;
    assert.equal(item(last).label, 'Looked at the first 100 deployments');
    assert.equal(item(last).description, 'Look at 100 more…');
    assert.equal(item(last).command?.command, 'deploymentsExplorer.continueWorkspaceScan');
    assert.equal((await render())[0], `${path.basename(folder.fsPath)} — 5 deployments`, 'what the first 100 hold is shown');

    await vscode.commands.executeCommand('deploymentsExplorer.continueWorkspaceScan');
    assert.deepEqual({ phase: index().scanState.phase, looked: index().scanState.looked }, { phase: 'capped', looked: 200 });
    last = (await children()).at(-1)!;
    assert.equal(item(last).label, 'Looked at the first 200 deployments');
    assert.deepEqual(scanRequests().map((r) => r.query.offset), ['0', '100']);

    await config().update('workspace.scanLimit', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');
    assert.equal(index().scanState.phase, 'complete');
  });

  it('Stop Scanning (the view’s title while a scan runs) stops it where it is, and says so', async () => {
    fx.standIn.reset();
    // The second page is held until the Stop is clicked: the scan is surely running then.
    fx.standIn.addFault({ fault: { kind: 'hang' }, pathPrefix: '/v2/deployments', whenOffset: 100, times: 1 });
    const refreshed = vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');
    await waitFor('the scan to ask for its second page', () => scanRequests().some((r) => r.query.offset === '100'));
    await vscode.commands.executeCommand('deploymentsExplorer.stopWorkspaceScan');
    fx.standIn.releaseHung();
    await refreshed;
    assert.equal(item((await children()).at(-1)!).label, 'Stopped after 100 deployments');
    assert.deepEqual(scanRequests().map((r) => r.query.offset), ['0', '100'], 'nothing asked after the stop');
    await vscode.commands.executeCommand('deploymentsExplorer.continueWorkspaceScan');
    assert.equal(index().scanState.phase, 'complete');
  });

  it('Deploy This Branch with a commit the code host does not have: Deploy Anyway creates it from the branch', async () => {
    git('checkout', '-q', '-b', 'feature/cart');
    commit('Try a new cart');
    // At once, as a person who has just committed: the command reads the branch itself, not the git extension's last look.
    fx.standIn.reset();
    fx.messages.answers.warning.push('Deploy Anyway');
    const result = await vscode.commands.executeCommand<{ outcome: string; deployment: { id: string }; body: Record<string, any> }>(
      'deploymentsExplorer.deployBranch',
      { confirm: true, pin: false },
    );
    const asked = fx.messages.shown.find((m) => m.level === 'warning')!;
    assert.equal(asked.message, 'The branch feature/cart is not on the code host yet (it has no upstream).');
    assert.deepEqual(asked.actions, ['Push First', 'Deploy Anyway']);
    assert.equal(result.outcome, 'created');
    assert.equal(result.body.name, 'service-0-feature-cart');
    assert.equal(result.body.source_config.deployment_type, 'dev');
    assert.equal(result.body.source_revision_config.repo_ref, 'feature/cart');
    assert.equal(result.body.source_config.repo_url, REPOSITORY_URL);
    assert.throws(() => git('--git-dir', bare, 'rev-parse', '--verify', '-q', 'refs/heads/feature/cart'), 'nothing was pushed');
    // The new deployment is in the view, under its branch, and watched until it settles.
    await waitFor('the new deployment in the view', async () => (await render()).some((line) => line.includes('service-0-feature-cart — dev · Awaiting database')));
    assert.ok(fx.api.watch.scheduler.watched.some((entry) => entry.id === result.deployment.id));
  });

  it('Deploy This Branch: Push First runs the git extension’s push, then creates the deployment', async () => {
    git('checkout', '-q', '-b', 'feature/pay');
    const head = commit('Pay later');
    fx.messages.answers.warning.push('Push First');
    const result = await vscode.commands.executeCommand<{ outcome: string; body: Record<string, any> }>('deploymentsExplorer.deployBranch', {
      confirm: true,
      pin: false,
    });
    assert.equal(result.outcome, 'created');
    assert.equal(result.body.source_revision_config.repo_ref, 'feature/pay');
    assert.equal(git('--git-dir', bare, 'rev-parse', 'refs/heads/feature/pay'), head, 'the branch reached the remote');
    assert.equal((await repository()).state.HEAD?.name, 'feature/pay');
  });

  it('Deploy This Branch of a branch deployed already offers to show that deployment instead', async () => {
    git('checkout', '-q', 'main');
    fx.standIn.reset();
    fx.messages.answers.info.push('Show Deployment');
    const result = await vscode.commands.executeCommand<{ outcome: string; deploymentId: string }>('deploymentsExplorer.deployBranch', { confirm: true });
    const asked = fx.messages.shown.find((m) => m.level === 'info')!;
    assert.match(asked.message, /^main of service-0 is deployed already: “shop-live”, “shop-preview”, “shop-stale”, “shop-unknown”\. Show it instead/);
    assert.deepEqual(asked.actions, ['Show Deployment', 'Create Another']);
    assert.equal(result.outcome, 'existing');
    const live = fx.standIn.deployments.find((d) => d.name === 'shop-live')!;
    assert.equal(result.deploymentId, live.id);
    assert.ok(fx.standIn.requests.every((r) => r.method !== 'POST'), 'nothing was created');
    await waitFor('the row to be selected', () => provider().treeView.selection.some((row) => 'deploymentId' in row && row.deploymentId === live.id));
  });

  it('offers the Deployments view’s actions on its rows: JSON of the whole record (secrets masked), watch', async () => {
    const [repositoryRow] = await children();
    const [main] = await children(repositoryRow);
    const live = (await children(main)).find((row) => item(row).label === 'shop-live')!;
    const uri = await vscode.commands.executeCommand<vscode.Uri>('deploymentsExplorer.showDeploymentJson', live);
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    assert.match(text, /"repo_commit_sha": "[0-9a-f]{40}"/);
    assert.doesNotMatch(text, /workspace-secret/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const watched = await vscode.commands.executeCommand<string>('deploymentsExplorer.watchDeployment', live);
    assert.equal(watched, fx.standIn.deployments.find((d) => d.name === 'shop-live')!.id);
  });

  it('shows a record off the API contract marked, with what is wrong and the actions that work for it; one without an ID only counts', async () => {
    const offContract = (fields: Record<string, unknown>) => {
      const record = { ...deploy('placeholder', undefined, REPOSITORY_URL, 'refs/tags/v1', commits[1]), ...fields };
      fx.standIn.deployments[0] = record as never;
      return record;
    };
    offContract({ id: 'legacy-shop-1', name: 'shop-legacy', status: 7 });
    const odd = offContract({ name: 'shop-odd', status: { phase: 'READY' } });
    offContract({ id: undefined, name: 'shop-without-id' });
    await vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');
    assert.equal(index().scanState.phase, 'complete');
    assert.equal(index().scanState.looked, fx.standIn.deployments.length, 'every record is looked at, the one without an ID too');
    const [repositoryRow] = await children();
    const v1 = (await children(repositoryRow)).find((row) => item(row).label === 'v1')!;
    const rows = await children(v1);
    assert.deepEqual(rows.map((row) => item(row).label), ['shop-legacy', 'shop-odd', 'shop-release']);
    const legacy = item(rows[0]);
    assert.equal(legacy.description, 'does not match the API contract (ID, Status)');
    assert.deepEqual([(legacy.iconPath as vscode.ThemeIcon).id, (legacy.iconPath as vscode.ThemeIcon).color?.id], ['bracket-error', 'list.warningForeground']);
    const tooltip = (legacy.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ');
    assert.match(tooltip, /`id`[^]*`status`/);
    assert.match(tooltip, /Against your clone: up to date/);
    assert.doesNotMatch(tooltip, /workspace-secret/);
    assert.equal(legacy.contextValue, 'workspaceDeployment offContract', 'Watch and Pin need a UUID');
    assert.equal(item(rows[1]).contextValue, 'workspaceDeployment offContract id');

    // Show JSON: the record as the server sent it, secrets masked, looked up while the Deployments view has not loaded it.
    const json = async (row: unknown) => {
      const uri = await vscode.commands.executeCommand<vscode.Uri>('deploymentsExplorer.showDeploymentJson', row);
      return (await vscode.workspace.openTextDocument(uri)).getText();
    };
    const oddJson = await json(rows[1]);
    assert.match(oddJson, /"name": "shop-odd"[^]*"phase": "READY"/);
    assert.doesNotMatch(oddJson, /workspace-secret/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');

    // Show in Deployments View: its row there, marked the same way; looked up and put first when not loaded.
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.revealDeployment', rows[1]), true);
    const [first] = fx.api.deployments.provider.getChildren() as Array<{ offContract?: unknown; item?: { deployment: { name?: unknown } } }>;
    assert.ok(first.offContract, 'the row put first is marked off the contract');
    assert.equal(first.item?.deployment.name, 'shop-odd');
    await vscode.commands.executeCommand('deploymentsExplorer.refreshDeployments');
    assert.equal(await vscode.commands.executeCommand('deploymentsExplorer.revealDeployment', rows[0]), true);
    assert.match(await json(rows[0]), /"id": "legacy-shop-1"/, 'loaded in the Deployments view: its row there is shown');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await vscode.commands.executeCommand<string>('deploymentsExplorer.watchDeployment', rows[1]), odd.id);
    await vscode.commands.executeCommand('deploymentsExplorer.unwatchDeployment', odd.id);
    fx.standIn.deployments.splice(0, 3);
  });

  it('a profile switch aborts the scan in flight; the other control plane gets its own index', async () => {
    other = await StandIn.start({ apiKey: OTHER_KEY, seed: 5, deploymentCount: 150 });
    const added = await vscode.commands.executeCommand<{ check: string; message: string }>('deploymentsExplorer.addProfile', {
      name: 'Other',
      baseUrl: other.url,
      apiKey: OTHER_KEY,
    });
    assert.equal(added.check, 'ok', added.message);
    await connectionSettled(fx.api);
    const before = index();
    fx.standIn.reset();
    fx.standIn.addFault({ fault: { kind: 'latency', ms: 400 }, pathPrefix: '/v2/deployments' });
    const refreshed = vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');
    await waitFor('the scan to get a page', () => before.scanState.looked >= 100);
    await vscode.commands.executeCommand('deploymentsExplorer.switchProfile', 'Other');
    await refreshed;
    await connectionSettled(fx.api);
    // The refresh has ended with the stopped scan: no page of it can be asked after this.
    const sent = scanRequests().length;
    assert.equal(before.scanState.phase, 'stopped');
    assert.ok(sent < Math.ceil(fx.standIn.deployments.length / 100));

    // The other control plane: its own scan, and none of its deployments comes from this workspace.
    assert.notEqual(index(), before);
    await children();
    await settledScan();
    assert.equal(index().scanState.looked, 150);
    const shown = await children();
    assert.deepEqual(shown.map((row) => row.kind), ['deployWorkspace']);
    assert.equal(
      provider().treeView.message,
      `None of the 150 deployments of this control plane comes from this workspace’s remotes: origin (${REPOSITORY_URL}.git).`,
    );
    other.deployments.splice(1);
    await vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');
    await children();
    assert.equal(
      provider().treeView.message,
      `The one deployment of this control plane does not come from this workspace’s remotes: origin (${REPOSITORY_URL}.git).`,
    );
    other.deployments.splice(0);
    await vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');
    await children();
    assert.equal(provider().treeView.message, `This control plane has no deployments yet; this workspace’s remotes: origin (${REPOSITORY_URL}.git).`);

    // Back: the first control plane's index is where it stopped, and goes on from there.
    fx.standIn.clearFaults();
    await vscode.commands.executeCommand('deploymentsExplorer.switchProfile', 'Default');
    await connectionSettled(fx.api);
    assert.equal(index(), before);
    assert.equal(item((await children()).at(-1)!).label, `Stopped after ${before.scanState.looked} deployments`);
    await vscode.commands.executeCommand('deploymentsExplorer.continueWorkspaceScan');
    assert.equal(before.scanState.phase, 'complete');
    await vscode.commands.executeCommand('deploymentsExplorer.removeProfile', 'other', true);
  });
});
