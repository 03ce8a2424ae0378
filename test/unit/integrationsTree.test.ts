// The Integrations view's rows, from the tree provider over the fake vscode
// module and an in-memory control plane: what a person sees at each level.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fakeServices, FakeControlPlaneOptions, repository } from './helpers/fakeServices';
import { AuthError, NetworkError } from '../../src/api';
import type { IntegrationsTreeNode } from '../../src/model/integrationNodes';
import { IntegrationsTreeProvider } from '../../src/features/integrations/integrationsTreeProvider';

const ACME = '3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b';
const OPS = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const DISCOVERED = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

let providers: IntegrationsTreeProvider[] = [];

function setUp(options: FakeControlPlaneOptions = {}) {
  fake.workspace.set('deploymentsExplorer.baseUrl', 'https://api.example.com');
  const control = fakeServices({
    apiKey: 'sk-test',
    integrations: [{ id: ACME, label: 'acme-github' }, { id: OPS }],
    repositories: {
      [ACME]: [repository('acme', 'web', ACME, 2), repository('acme', 'api', ACME, 1, 'develop')],
      [OPS]: [],
    },
    ...options,
  });
  const provider = new IntegrationsTreeProvider(control.services);
  providers.push(provider);
  return { ...control, provider };
}

/** A row as the view draws it: label, description, icon, and whether it expands. */
async function rowsOf(provider: IntegrationsTreeProvider, parent?: IntegrationsTreeNode) {
  const children = await provider.getChildren(parent);
  return children.map((node) => {
    const item = provider.getTreeItem(node);
    return {
      label: item.label,
      description: item.description,
      icon: (item.iconPath as fake.ThemeIcon | undefined)?.id,
      expands: item.collapsibleState !== fake.TreeItemCollapsibleState.None,
      contextValue: item.contextValue,
      command: item.command?.command,
    };
  });
}

async function integrationNode(provider: IntegrationsTreeProvider, label: string): Promise<IntegrationsTreeNode> {
  const roots = await provider.getChildren();
  const node = roots.find((candidate) => provider.getTreeItem(candidate).label === label);
  assert.ok(node, `no integration row “${label}”`);
  return node;
}

describe('Integrations tree', () => {
  beforeEach(() => fake.resetFake());
  afterEach(() => {
    for (const provider of providers) provider.dispose();
    providers = [];
  });

  it('shows nothing (the welcome view) until a base URL and an API key are set', async () => {
    const noKey = setUp({ apiKey: undefined });
    assert.deepEqual(await noKey.provider.getChildren(), []);
    const noUrl = setUp();
    fake.workspace.set('deploymentsExplorer.baseUrl', '');
    assert.deepEqual(await noUrl.provider.getChildren(), []);
    assert.deepEqual(noUrl.listed, []);
  });

  it('lists the added integrations, then the discovered ones, collapsed, without loading their repositories', async () => {
    const { provider, services, listed } = setUp();
    services.catalog.addDiscovered([DISCOVERED], { [DISCOVERED]: 'gitlab.com' });
    assert.deepEqual(await rowsOf(provider), [
      { label: 'acme-github', description: '', icon: 'plug', expands: true, contextValue: 'integration.added', command: undefined },
      { label: '9d8c7b6a…', description: '', icon: 'plug', expands: true, contextValue: 'integration.added', command: undefined },
      {
        label: 'Integration on gitlab.com',
        description: '0a1b2c3d… · discovered',
        icon: 'telescope',
        expands: true,
        contextValue: 'integration.discovered',
        command: undefined,
      },
    ]);
    assert.deepEqual(listed, [], 'repositories load when a row is expanded, not before');
  });

  it('expands an integration into its repositories, sorted, with progress in the view', async () => {
    const { provider } = setUp();
    const acme = await integrationNode(provider, 'acme-github');
    const redrawn: unknown[] = [];
    provider.onDidChangeTreeData((node) => redrawn.push(node));
    assert.deepEqual(await rowsOf(provider, acme), [
      { label: 'api', description: 'acme · develop', icon: 'repo', expands: false, contextValue: 'repository', command: undefined },
      { label: 'web', description: 'acme · main', icon: 'repo', expands: false, contextValue: 'repository', command: undefined },
    ]);
    assert.deepEqual(fake.window.progress.map((p) => p.options.location), [{ viewId: 'deploymentsExplorer.integrations' }]);
    // Once loaded, the integration row is redrawn: it counts them and names the code host.
    await fake.until(() => redrawn.includes(acme), 'the integration row to be redrawn');
    assert.equal(redrawn.includes(undefined), false, 'not the whole tree');
    assert.equal(provider.getTreeItem(acme).description, '2 repositories · github.com');
    assert.equal(provider.getTreeItem(acme).accessibilityInformation?.label, 'Integration acme-github, 2 repositories · github.com');
  });

  it('names an integration without a label by its code host and most common owner once loaded, its short ID beside it', async () => {
    const { provider } = setUp({
      repositories: {
        [ACME]: [],
        [OPS]: [repository('ops-team', 'deploy', OPS, 1), repository('ops-team', 'infra', OPS, 2), repository('someone', 'fork', OPS, 3)],
      },
    });
    const ops = await integrationNode(provider, '9d8c7b6a…');
    await provider.getChildren(ops);
    const item = provider.getTreeItem(ops);
    assert.equal(item.label, 'ops-team on github.com');
    assert.equal(item.description, '9d8c7b6a… · 3 repositories');
    assert.match(String((item.tooltip as fake.MarkdownString).value), /^\*\*ops\\-team on github\\\.com\*\*/);
    assert.equal(provider.getTreeItem(await integrationNode(provider, 'acme-github')).label, 'acme-github', 'a label is kept');
  });

  it('builds a repository row’s tooltip only when it is hovered', async () => {
    const { provider } = setUp();
    const [api] = await provider.getChildren(await integrationNode(provider, 'acme-github'));
    const item = provider.getTreeItem(api);
    assert.equal(item.tooltip, undefined);
    const resolved = provider.resolveTreeItem(item, api);
    const tooltip = resolved.tooltip as fake.MarkdownString;
    assert.match(tooltip.value, /\*\*acme\/api\*\*/);
    assert.match(tooltip.value, /- \*\*Default branch:\*\* develop/);
    assert.match(tooltip.value, /- \*\*Integration ID:\*\* 3f2a9c1e/);
    assert.doesNotMatch(tooltip.value, /default_branch|host_integration_id/, 'the interface’s words, not the API’s names');
    assert.equal(item.accessibilityInformation?.label, 'Repository acme/api, default branch develop');
  });

  it('keeps row IDs unique when the server lists a repository twice', async () => {
    const twice = repository('acme', 'web', ACME, 2);
    const { provider } = setUp({ repositories: { [ACME]: [twice, { ...twice }] } });
    const children = await provider.getChildren(await integrationNode(provider, 'acme-github'));
    const ids = children.map((node) => provider.getTreeItem(node).id);
    assert.equal(new Set(ids).size, 2, JSON.stringify(ids));
  });

  it('says so when an integration shows no repositories', async () => {
    const { provider } = setUp();
    assert.deepEqual(await rowsOf(provider, await integrationNode(provider, '9d8c7b6a…')), [
      {
        label: 'No repositories visible through this integration',
        description: undefined,
        icon: 'info',
        expands: false,
        contextValue: 'empty',
        command: undefined,
      },
    ]);
  });

  it('turns a rejected key into an error row that retries on click, and a Set API Key… row', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new AuthError(401, 'Invalid API key') } });
    const failures: string[] = [];
    provider.onDidFailToLoad(({ integrationId }) => failures.push(integrationId));
    const acme = await integrationNode(provider, 'acme-github');
    const rows = await rowsOf(provider, acme);
    assert.deepEqual(rows, [
      {
        label: 'Not authenticated (HTTP 401): Invalid API key',
        description: 'click to retry',
        icon: 'error',
        expands: false,
        contextValue: 'error',
        command: 'deploymentsExplorer.refreshIntegration',
      },
      { label: 'Set API Key…', description: undefined, icon: 'key', expands: false, contextValue: 'action', command: 'deploymentsExplorer.setApiKey' },
    ]);
    assert.deepEqual(failures, [ACME]);
    assert.equal(provider.getTreeItem(acme).description, 'failed to load');
    // The retry row hands itself to the command, so the command knows which integration to reload.
    const [errorRow] = await provider.getChildren(acme);
    assert.deepEqual(provider.getTreeItem(errorRow).command?.arguments, [errorRow]);
  });

  it('offers Set Tenant ID… first when the server asks for a workspace', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new AuthError(403, 'Organization-scoped key: set the X-Tenant-Id workspace header') } });
    const rows = await rowsOf(provider, await integrationNode(provider, 'acme-github'));
    assert.deepEqual(
      rows.map((row) => [row.label, row.command]),
      [
        ['Access denied (HTTP 403): Organization-scoped key: set the X-Tenant-Id workspace header', 'deploymentsExplorer.refreshIntegration'],
        ['Set Tenant ID…', 'deploymentsExplorer.setTenantId'],
        ['Set API Key…', 'deploymentsExplorer.setApiKey'],
      ],
    );
  });

  it('shows other failures as one error row with the first line of the message', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new NetworkError('https://api.example.com', 'ECONNREFUSED', 'connection refused') } });
    const rows = await rowsOf(provider, await integrationNode(provider, 'acme-github'));
    assert.deepEqual(
      rows.map((row) => [row.label, row.description, row.icon]),
      [['Cannot reach the control plane at https://api.example.com: connection refused (ECONNREFUSED).', 'click to retry', 'error']],
    );
  });

  it('finds a repository row by URL whatever its form, and its parent integration', async () => {
    const { provider } = setUp();
    const found = await provider.findRepositoryNode(ACME.toUpperCase(), 'git@github.com:acme/web.git');
    assert.ok(found, 'found by its ssh URL');
    assert.equal(provider.getTreeItem(found).label, 'web');
    const parent = provider.getParent(found);
    assert.ok(parent);
    assert.equal(provider.getTreeItem(parent).label, 'acme-github');
    assert.equal(await provider.findRepositoryNode(ACME, 'https://github.com/acme/unknown'), undefined);
  });

  it('shows a repository that does not match the API contract marked, in its place, and says why it cannot be used', async () => {
    const { provider } = setUp({
      invalidRepositories: {
        [ACME]: [
          {
            index: 1,
            id: undefined,
            name: 'no-url',
            raw: { id: 3, name: 'no-url', owner: 'acme', default_branch: 'main', host_integration_id: ACME },
            problems: ['url: expected a string, got nothing'],
            usableForCreate: false,
            reason: 'It does not match the API contract (url: expected a string, got nothing), so it cannot be used to create a deployment.',
          },
        ],
      },
    });
    const acme = await integrationNode(provider, 'acme-github');
    const rows = await rowsOf(provider, acme);
    assert.deepEqual(
      rows.map((row) => [row.label, row.icon, row.contextValue]),
      [
        ['api', 'repo', 'repository'],
        ['no-url', 'bracket-error', 'repository.offContract'],
        ['web', 'repo', 'repository'],
      ],
    );
    assert.equal(rows[1].description, 'does not match the API contract (URL)');
    assert.match(String(provider.getTreeItem(acme).description), /1 does not match the API contract/);
    const bad = (await provider.getChildren(acme))[1];
    const tooltip = (provider.getTreeItem(bad).tooltip as fake.MarkdownString).value;
    assert.match(tooltip, /url: expected a string, got nothing/);
    assert.match(tooltip, /cannot be used to create a deployment/);
    // Create Deployment… on it says why.
    const { readCreateArgument } = await import('../../src/model/createArguments');
    assert.throws(() => readCreateArgument(bad), /cannot be used to create a deployment/);
  });

  it('marks a collapsed integration whose last load failed', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new AuthError(401, 'Invalid API key') } });
    const acme = await integrationNode(provider, 'acme-github');
    await provider.getChildren(acme);
    const item = provider.getTreeItem(acme);
    assert.equal((item.iconPath as fake.ThemeIcon).id, 'error');
    assert.match((item.tooltip as fake.MarkdownString).value, /Last load failed: Not authenticated/);
  });
});
