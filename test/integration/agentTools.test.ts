// The agent-mode tools inside VS Code's real extension host, called as agent mode calls them (vscode.lm.invokeTool)
// against the control-plane stand-in: what they answer (text, and records as JSON in it), paging by the response
// offset, masking, no key, invalid input, cancellation, and the create tool (VS Code confirms by itself in extension
// tests; the dialog and its Cancel are test/ui/agentTools.test.ts's). This Workspace's answer on a real git repository
// is workspaceAgentTools.test.ts's: it turns git on, which a window cannot undo, so it runs after the suites that need it off.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { buildCreateBody } from '../../src/model/createPayload';
import { connectionSettled, invokeTool as invoke, useApiKey, useSuiteFixture, waitFor } from './support';

const KEY = `sk-agent-test-${Math.random().toString(36).slice(2)}`;
const SECRET = `agent-secret-${Math.random().toString(36).slice(2)}`;
const TOOLS = [
  'deploymentsExplorer_listDeployments',
  'deploymentsExplorer_getDeployments',
  'deploymentsExplorer_listRepositories',
  'deploymentsExplorer_workspaceDeployments',
  'deploymentsExplorer_createDeployment',
];
const INTEGRATION = { id: 'a9d3c1e7-5b2f-4c8a-9e6d-1f0b2a3c4d5e', label: 'agent-github' };
const REPOSITORY_URL = 'https://github.com/agent-test/service-0';

describe('Agent tools', function () {
  this.timeout(90000);
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
      onRestore(() => api.watch.scheduler.replaceAll([]));
    },
  });
  const listings = () => fx.standIn.requests.filter((r) => r.method === 'GET' && r.path === '/v2/deployments');
  const posts = () => fx.standIn.requests.filter((r) => r.method === 'POST');

  beforeEach(() => {
    fx.messages.clear();
    fx.standIn.reset();
  });

  it('vscode.lm.tools lists the five tools with the schemas package.json contributes', () => {
    const manifest = vscode.extensions.getExtension('deployments-explorer.deployments-explorer')!.packageJSON;
    const contributed = new Map<string, object>(manifest.contributes.languageModelTools.map((tool: { name: string; inputSchema: object }) => [tool.name, tool.inputSchema]));
    const listed = vscode.lm.tools.filter((tool) => tool.name.startsWith('deploymentsExplorer_'));
    assert.deepEqual(listed.map((tool) => tool.name).sort(), [...TOOLS].sort());
    for (const tool of listed) {
      assert.deepEqual(tool.inputSchema, contributed.get(tool.name), tool.name);
      assert.ok(tool.description.length > 100, `${tool.name} has a model description`);
    }
  });

  it('lists deployments with the API’s filters, and pages by the response offset passed back as it is', async () => {
    const ready = fx.standIn.deployments.filter((d) => d.status === 'READY');
    assert.ok(ready.length > 6, 'enough READY deployments to page through');
    const first = await invoke('deploymentsExplorer_listDeployments', { status: 'READY', limit: 4 });
    assert.equal(first.json.deployments.length, 4);
    assert.deepEqual(
      first.json.deployments.map((d: { id: string }) => d.id),
      ready.slice(0, 4).map((d) => d.id),
    );
    const [record] = first.json.deployments;
    assert.equal(record.status, 'READY');
    assert.equal(record.status_in_words, 'Ready');
    assert.equal(record.repository, ready[0].source_config?.repo_url);
    assert.equal(record.ref, ready[0].source_revision_config?.repo_ref);
    assert.equal(record.deployed_commit, ready[0].source_revision_config?.repo_commit_sha);
    assert.equal(first.json.next_offset, 4);
    assert.match(first.text, /call again with the same filters and offset 4/);
    assert.ok(!first.text.includes('"secrets"'), 'a listing carries no secrets');

    const second = await invoke('deploymentsExplorer_listDeployments', { status: 'READY', limit: 4, offset: first.json.next_offset });
    assert.deepEqual(
      second.json.deployments.map((d: { id: string }) => d.id),
      ready.slice(4, 8).map((d) => d.id),
    );
    assert.deepEqual(
      // The Deployments view may load its own first page meanwhile (no filter): the tool's requests are these.
      listings().filter((r) => r.query.status === 'READY').map((r) => r.query),
      [
        { status: 'READY', limit: '4', offset: '0' },
        { status: 'READY', limit: '4', offset: '4' },
      ],
    );

    const last = await invoke('deploymentsExplorer_listDeployments', { status: 'READY', limit: 100, offset: ready.length - 2 });
    assert.equal(last.json.deployments.length, 2);
    assert.equal(last.json.next_offset, null);
    assert.match(last.text, /This is the last page/);
  });

  it('sends every filter of the API', async () => {
    const id = fx.standIn.deployments[0].id as string;
    await invoke('deploymentsExplorer_listDeployments', {
      name_contains: 'a',
      status: 'READY',
      remote_reconciled: true,
      tag_value_ids: ['t1', 't2'],
      image_version: '1.0',
      deployment_type: 'prod',
      deployment_ids: [id],
    });
    assert.deepEqual(listings()[0].query, {
      name_contains: 'a',
      status: 'READY',
      remote_reconciled: 'true',
      tag_value_ids: 't1,t2',
      image_version: '1.0',
      deployment_type: 'prod',
      deployment_ids: id,
      limit: '20',
      offset: '0',
    });
  });

  it('reads deployments by ID in one batched request, secret values masked, never the key', async () => {
    const [a, b] = fx.standIn.deployments.slice(5, 7);
    fx.standIn.updateDeployment(a.id as string, { secrets: [{ name: 'DB_PASSWORD', value: SECRET }] });
    const missing = randomUUID();
    const answer = await invoke('deploymentsExplorer_getDeployments', { deployment_ids: [a.id, b.id, missing] });
    assert.equal(listings().length, 1, 'one request');
    assert.deepEqual(listings()[0].query, { deployment_ids: [a.id, b.id, missing].join(','), limit: '3', offset: '0' });
    assert.deepEqual(
      answer.json.deployments.map((d: { id: string }) => d.id),
      [a.id, b.id],
    );
    assert.deepEqual(answer.json.deployments[0].secrets, [{ name: 'DB_PASSWORD', value: '••••••' }]);
    assert.deepEqual(answer.json.deployments[0].source_config, a.source_config, 'the record in full');
    assert.deepEqual(answer.json.not_found, [missing]);
    assert.match(answer.text, /2 of 3 deployments found/);
    assert.ok(!answer.text.includes(SECRET), 'no secret value');
    assert.ok(!answer.text.includes(KEY), 'never the key');
  });

  it('says what is wrong with an invalid input, and sends nothing', async () => {
    const answer = await invoke('deploymentsExplorer_listDeployments', { limit: 0, offset: '20', filter: 'x' });
    assert.match(answer.text, /^Invalid input, nothing was sent: /);
    assert.match(answer.text, /limit: expected a whole number from 1 to 100/);
    assert.match(answer.text, /offset: expected a whole number of 0 or more, got string/);
    assert.match(answer.text, /unknown field filter/);
    const ids = await invoke('deploymentsExplorer_getDeployments', { deployment_ids: ['not-an-id'] });
    assert.match(ids.text, /deployment_ids\[0\]: expected a deployment ID \(a UUID\)/);
    assert.deepEqual(fx.standIn.requests, []);
  });

  it('without an API key, says which command to ask the user for, and sends nothing', async () => {
    await vscode.commands.executeCommand('deploymentsExplorer.clearApiKey');
    await connectionSettled(fx.api);
    try {
      const answer = await invoke('deploymentsExplorer_listDeployments', {});
      assert.equal(answer.text, 'No API key for profile “Default”: ask the user to run “Deployments: Set API Key…”.');
      assert.deepEqual(fx.standIn.requests, []);
    } finally {
      await useApiKey(fx.api, KEY);
      await connectionSettled(fx.api);
    }
  });

  it('turned off by the setting, answers so and sends nothing', async () => {
    await vscode.workspace.getConfiguration('deploymentsExplorer').update('agentTools.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      const answer = await invoke('deploymentsExplorer_listDeployments', { name_contains: 'tools-off' });
      assert.match(answer.text, /^The Deployments Explorer tools are turned off \(setting deploymentsExplorer.agentTools.enabled\)/);
      const created = await invoke('deploymentsExplorer_createDeployment', { integration_id: INTEGRATION.id, repository_url: REPOSITORY_URL });
      assert.match(created.text, /are turned off/);
      // The Deployments view may reload its own first page after the key was set again (the test before): none is the tools'.
      assert.deepEqual(listings().filter((r) => r.query.name_contains === 'tools-off'), []);
      assert.deepEqual(posts(), []);
      assert.deepEqual(fx.standIn.requests.filter((r) => r.path.startsWith('/v1/')), []);
    } finally {
      await vscode.workspace.getConfiguration('deploymentsExplorer').update('agentTools.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a refused request comes back as text with the next step, not a thrown error', async () => {
    fx.standIn.addFault({ fault: { kind: 'status', status: 401, body: '{"detail":"Invalid API key"}' }, pathPrefix: '/v2/deployments', times: 1 });
    const answer = await invoke('deploymentsExplorer_listDeployments', {});
    assert.match(answer.text, /Next: ask the user to run “Deployments: Set API Key…”/);
    fx.standIn.clearFaults();
  });

  it('is cancelled through its token: the request is aborted and invokeTool rejects as cancelled', async () => {
    fx.standIn.addFault({ fault: { kind: 'hang' }, pathPrefix: '/v2/deployments', times: 1 });
    const source = new vscode.CancellationTokenSource();
    const invoked = vscode.lm.invokeTool('deploymentsExplorer_listDeployments', { input: {}, toolInvocationToken: undefined }, source.token);
    await waitFor('the request to arrive', () => listings().length === 1);
    source.cancel();
    await assert.rejects(Promise.resolve(invoked), (error: Error) => /cancel/i.test(`${error.name} ${error.message}`));
    fx.standIn.clearFaults();
  });

  it('lists the repositories of every known integration, saying which are known and how', async () => {
    const all = await invoke('deploymentsExplorer_listRepositories', {});
    assert.match(all.text, new RegExp(`Known integrations: agent-github \\(${INTEGRATION.id}, added by the user in settings\\)`));
    const [entry] = all.json.integrations;
    assert.equal(entry.integration_id, INTEGRATION.id);
    assert.equal(entry.total, 3);
    assert.deepEqual(
      entry.repositories.map((r: { url: string }) => r.url),
      [0, 1, 2].map((n) => `https://github.com/agent-test/service-${n}`),
    );
    const other = fx.standIn.integrations.find((i) => i.label === 'acme-github')!;
    const one = await invoke('deploymentsExplorer_listRepositories', { integration_id: other.id, name_contains: other.repositories[0].name, limit: 1 });
    assert.equal(one.json.integrations.length, 1);
    assert.equal(one.json.integrations[0].known_because, 'not known: asked for by ID');
    assert.equal(one.json.integrations[0].repositories[0].url, other.repositories[0].url);
  });

  // VS Code's dialog service confirms by itself in extension tests ("refused to show confirmation dialog in tests"):
  // here the confirmation is a yes, and what it shows, and a Cancel, are the UI stage's (test/ui/agentTools.test.ts).
  describe('create', () => {
    it('confirmed, sends exactly once the body the create flow builds, and the deployment is watched', async () => {
      const input = { integration_id: INTEGRATION.id, repository_url: REPOSITORY_URL, name: 'agent-shop', deployment_type: 'dev' };
      const answer = await invoke('deploymentsExplorer_createDeployment', input);
      assert.match(answer.text, /^Created deployment “agent-shop” \(/);
      assert.equal(posts().length, 1, 'exactly one POST');
      const repository = fx.standIn.integrations.find((i) => i.id === INTEGRATION.id)!.repositories.find((r) => r.url === REPOSITORY_URL)!;
      assert.deepEqual(posts()[0].body, buildCreateBody({ ...repository }, { name: 'agent-shop', ref: repository.default_branch, deploymentType: 'dev' }));
      const id = fx.standIn.deployments.find((d) => d.name === 'agent-shop')?.id as string;
      assert.ok(id, 'the stand-in has it');
      assert.equal(answer.json.id, id);
      // Followed as after Create: the watch asks for it by ID until it settles.
      await waitFor('the new deployment to be watched', () => listings().some((r) => r.query.deployment_ids === id));
    });

    it('a call it cannot prepare asks nothing, sends nothing and says why', async () => {
      const answer = await invoke('deploymentsExplorer_createDeployment', { integration_id: INTEGRATION.id, repository_url: 'https://github.com/agent-test/nope' });
      assert.match(answer.text, /lists no repository https:\/\/github.com\/agent-test\/nope/);
      const named = await invoke('deploymentsExplorer_createDeployment', { integration_id: INTEGRATION.id, repository_url: REPOSITORY_URL, name: 'Bad Name' });
      assert.match(named.text, /^Nothing was sent: Use only lowercase letters/);
      const neither = await invoke('deploymentsExplorer_createDeployment', { name: 'x' });
      assert.match(neither.text, /^Say which repository to deploy/);
      assert.deepEqual(posts(), []);
    });
  });
});

describe('Agent tools against the real service’s shapes', function () {
  this.timeout(90000);
  const fx = useSuiteFixture({
    key: KEY,
    standIn: () => ({ realShapes: true, deploymentCount: 60 }),
    settings: () => ({ integrations: [INTEGRATION], profiles: undefined, defaultProfile: undefined, 'createDeployment.defaults': undefined }),
    prepare: ({ standIn, api, onRestore }) => {
      standIn.addIntegration({ repositoryCount: 3, id: INTEGRATION.id, label: INTEGRATION.label, host: 'github.com', owner: 'agent-test' });
      onRestore(() => api.watch.scheduler.replaceAll([]));
    },
  });

  it('lists each type from source_config, and a deployment built from an image by its image, with no repository', async () => {
    const answer = await invoke('deploymentsExplorer_listDeployments', { limit: 20 });
    const records = fx.standIn.deployments.slice(0, 20);
    assert.deepEqual(
      answer.json.deployments.map((d: { type?: string }) => d.type),
      records.map((record) => record.source_config?.deployment_type),
    );
    const image = records.find((record) => record.source === 'external_docker');
    assert.ok(image, 'the first page has a deployment built from an image');
    const shown = answer.json.deployments.find((d: { id: string }) => d.id === image.id);
    assert.equal(shown.source, 'external_docker');
    assert.equal(shown.image, image.source_revision_config?.image_uri);
    assert.equal(shown.repository, undefined);
  });

  it('creates with the type inside source_config and what the real service requires: one POST, answered 201', async () => {
    fx.standIn.reset();
    const answer = await invoke('deploymentsExplorer_createDeployment', { integration_id: INTEGRATION.id, repository_url: REPOSITORY_URL, name: 'agent-real', deployment_type: 'dev' });
    assert.match(answer.text, /^Created deployment “agent-real” \(/);
    const posts = fx.standIn.requests.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 1);
    const body = posts[0].body as { source?: string; secrets?: unknown[]; deployment_type?: string; source_config: Record<string, unknown> };
    assert.equal(body.source_config.deployment_type, 'dev');
    assert.equal(body.deployment_type, undefined, 'not at the top level, where the real service ignores it');
    assert.equal(body.source, 'github');
    assert.deepEqual(body.secrets, []);
  });
});
