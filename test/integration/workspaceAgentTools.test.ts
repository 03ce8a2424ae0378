// The agent tool "what is deployed from this workspace" and a create from the workspace branch, on a real git
// repository in VS Code's real extension host (vscode.lm.invokeTool against the stand-in). It turns the git extension
// on, which a window cannot turn off again: this file runs after workspace.test.ts, whose first test needs git off.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SAMPLE_TENANT_ID } from '../server/standIn';
import { invokeTool as invoke, useSuiteFixture, waitFor } from './support';

const KEY = `sk-agent-test-${Math.random().toString(36).slice(2)}`;
const SECRET = `agent-secret-${Math.random().toString(36).slice(2)}`;
const INTEGRATION = { id: 'a9d3c1e7-5b2f-4c8a-9e6d-1f0b2a3c4d5e', label: 'agent-github' };
const REPOSITORY_URL = 'https://github.com/agent-test/service-0';

describe('Agent tools: this workspace', function () {
  this.timeout(90000);
  const folder = vscode.workspace.workspaceFolders![0].uri;
  const fx = useSuiteFixture({
    key: KEY,
    standIn: () => ({ deploymentCount: 150 }),
    settings: () => ({
      integrations: [INTEGRATION],
      profiles: undefined,
      defaultProfile: undefined,
      pageSize: undefined,
      'createDeployment.defaults': undefined,
      'agentTools.enabled': undefined,
    }),
    prepare: ({ standIn, api, onRestore }) => {
      standIn.addIntegration({ repositoryCount: 3, id: INTEGRATION.id, label: INTEGRATION.label, host: 'github.com', owner: 'agent-test' });
      onRestore(async () => {
        api.watch.scheduler.replaceAll([]);
        await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Global);
        fs.rmSync(path.join(folder.fsPath, '.git'), { recursive: true, force: true });
        fs.rmSync(path.join(folder.fsPath, 'agent.txt'), { force: true });
      });
    },
  });
  const posts = () => fx.standIn.requests.filter((r) => r.method === 'POST');

  beforeEach(() => {
    fx.messages.clear();
    fx.standIn.reset();
  });

  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Dana Dev', '-c', 'user.email=dana@example.test', '-c', 'commit.gpgsign=false', ...args], {
      cwd: folder.fsPath,
      encoding: 'utf8',
    }).trim();
  const commit = (subject: string) => {
    fs.writeFileSync(path.join(folder.fsPath, 'agent.txt'), `${subject}\n`, { flag: 'a' });
    git('add', 'agent.txt');
    git('commit', '-q', '-m', subject);
    return git('rev-parse', 'HEAD');
  };
  const commits: string[] = [];

  it('in a folder that is no git repository with a remote, says so', async () => {
    await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
    await waitFor('git to be enabled', () => vscode.extensions.getExtension<{ enabled: boolean }>('vscode.git')!.exports.enabled);
    const answer = await invoke('deploymentsExplorer_workspaceDeployments', {});
    assert.match(answer.text, /^No git repository with a remote is open in .+: the deployments of a repository are found by its remote URL\.$/);
  });

  it('answers the deployments of the open repository by ref, each against the clone, with the commits not deployed', async () => {
    git('init', '-q', '-b', 'main');
    commits.push(commit('Start'), commit('Add the cart'), commit('Pay with cards'));
    git('remote', 'add', 'origin', `${REPOSITORY_URL}.git`);
    const now = new Date().toISOString();
    const record = (name: string, sha: string) => ({
      id: randomUUID(),
      name,
      status: 'READY',
      tenant_id: SAMPLE_TENANT_ID,
      created_at: now,
      updated_at: now,
      deployment_type: 'dev',
      source_config: { integration_id: INTEGRATION.id, repo_url: REPOSITORY_URL },
      source_revision_config: { repo_ref: 'main', repo_commit_sha: sha },
      secrets: [{ name: 'TOKEN', value: SECRET }],
    });
    fx.standIn.deployments.unshift(record('agent-live', commits[2]) as never, record('agent-old', commits[0]) as never);
    await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
    await waitFor('git to be enabled', () => vscode.extensions.getExtension<{ enabled: boolean }>('vscode.git')!.exports.enabled);
    // The index was built before these records were added: looked through again, as Refresh does.
    await vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');
    const answer = await invoke('deploymentsExplorer_workspaceDeployments', {});
    const [repository] = answer.json.repositories;
    assert.equal(repository.checked_out_branch, 'main');
    const [main] = repository.refs;
    assert.equal(main.ref, 'main');
    assert.equal(main.checked_out, true);
    const byName = new Map(main.deployments.map((d: { name: string }) => [d.name, d]));
    assert.equal((byName.get('agent-live') as { against_local: string }).against_local, 'up to date');
    const old = byName.get('agent-old') as { against_local: string; commits_not_deployed: number; first_not_deployed: string[] };
    assert.equal(old.against_local, '2 commits behind main');
    assert.equal(old.commits_not_deployed, 2);
    assert.deepEqual(old.first_not_deployed, [`${commits[2].slice(0, 10)} Pay with cards`, `${commits[1].slice(0, 10)} Add the cart`]);
    assert.ok(!answer.text.includes(SECRET));
  });

  it('creates from the workspace branch as Deploy This Branch… would: repository by remote, branch as ref, type dev', async () => {
    const answer = await invoke('deploymentsExplorer_createDeployment', { from_workspace_branch: true });
    assert.match(answer.text, /^Created deployment “service-0-main”/);
    assert.equal(posts().length, 1);
    const body = posts()[0].body as { name: string; deployment_type?: string; source_config: Record<string, unknown>; source_revision_config: Record<string, unknown> };
    assert.equal(body.name, 'service-0-main');
    assert.equal(body.deployment_type ?? body.source_config.deployment_type, 'dev');
    assert.equal(body.source_revision_config.repo_ref, 'main');
    assert.equal(body.source_config.repo_url, REPOSITORY_URL);
    assert.equal(body.source_config.integration_id, INTEGRATION.id);
  });
});
