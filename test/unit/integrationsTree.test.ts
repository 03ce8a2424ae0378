// The Integrations view's rows, from the tree provider over the fake vscode
// module and an in-memory control plane: what a person sees at each level.
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fakeServices, FakeControlPlaneOptions, repository } from './helpers/fakeServices';
import { ControlPlaneError } from '../../src/api';
import type { OffContractRepository, Repository } from '../../src/api';
import type { IntegrationsTreeNode } from '../../src/model/integrationRows';
import { IntegrationsTreeProvider } from '../../src/features/integrations/integrationsTreeProvider';
import { registerIntegrations } from '../../src/features/integrations';
import { registerFindRepository } from '../../src/features/integrations/findRepository';

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

/** `count` repositories of acme, listed out of order; sorted, the one at index i is `service-i`. */
function manyRepositories(count: number): Repository[] {
  return Array.from({ length: count }, (_, i) => {
    const n = (i * 7919) % count;
    return repository('acme', `service-${n}`, ACME, 10_000 + n);
  });
}

/** An off-contract record of acme named `name` (it sorts among the repositories by owner and name). */
function offContract(index: number, name: string): OffContractRepository {
  return {
    index,
    id: undefined,
    name,
    raw: { id: index, name, owner: 'acme', default_branch: 'main', host_integration_id: ACME },
    problems: [{ path: 'url', message: 'expected string, received undefined' }],
    usableForCreate: false,
    reason: 'It does not match the API contract (url: expected string, received undefined), so it cannot be used to create a deployment.',
  };
}

/** The Integrations feature as activation registers it (its commands, its view), over the fake services. */
function setUpFeature(options: FakeControlPlaneOptions = {}) {
  const control = setUp(options);
  const feature = registerIntegrations(control.services);
  providers.push(feature.provider);
  return { ...control, feature, provider: feature.provider, view: feature.view as unknown as fake.FakeTreeView<IntegrationsTreeNode> };
}

/** Runs the command a row runs when clicked (or Enter is pressed on it), as VS Code does: with the row's arguments. */
async function activate(provider: IntegrationsTreeProvider, row: IntegrationsTreeNode): Promise<unknown> {
  const command = provider.getTreeItem(row).command;
  assert.ok(command, `row “${String(provider.getTreeItem(row).label)}” has no command`);
  return fake.commands.executeCommand(command.command, ...(command.arguments ?? []));
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

  it('turns a rejected key into an error row that retries on click, a Set API Key… row, and one notification', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new ControlPlaneError('auth', { status: 401, detail: 'Invalid API key' }) } });
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
      { label: 'Set API Key…', description: undefined, icon: 'key', expands: false, contextValue: 'fix', command: 'deploymentsExplorer.setApiKey' },
    ]);
    assert.deepEqual(
      fake.window.messages.map(({ level, message, actions }) => [level, message, actions]),
      [['error', 'Not authenticated (HTTP 401): Invalid API key', ['Set API Key…']]],
      'a rejected key is said once, with its fix, beside the rows',
    );
    assert.equal(provider.getTreeItem(acme).description, 'failed to load');
    // The retry row hands itself to the command, so the command knows which integration to reload.
    const [errorRow] = await provider.getChildren(acme);
    assert.deepEqual(provider.getTreeItem(errorRow).command?.arguments, [errorRow]);
  });

  it('offers Set Tenant ID… first when the server asks for a workspace', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new ControlPlaneError('auth', { status: 403, detail: 'Organization-scoped key: set the X-Tenant-Id workspace header' }) } });
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

  it('gives a settings fix a gear, as the Deployments view does, a key fix a key, and Check Connection a pulse', async () => {
    const untrusted = new ControlPlaneError('network', { target: 'https://api.example.com', code: 'SELF_SIGNED_CERT_IN_CHAIN', reason: 'self-signed certificate in certificate chain' });
    const { provider } = setUp({ repositories: { [ACME]: untrusted } });
    const rows = await rowsOf(provider, await integrationNode(provider, 'acme-github'));
    assert.deepEqual(
      rows.slice(1).map((row) => [row.icon, row.contextValue]),
      [
        ['gear', 'fix'],
        ['pulse', 'fix'],
      ],
      JSON.stringify(rows),
    );
  });

  it('shows other failures as one error row with the first line of the message, and Check Connection beside a network failure', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new ControlPlaneError('network', { target: 'https://api.example.com', code: 'ECONNREFUSED', reason: 'connection refused' }) } });
    const rows = await rowsOf(provider, await integrationNode(provider, 'acme-github'));
    assert.deepEqual(
      rows.map((row) => [row.label, row.description, row.icon]),
      [
        ['Cannot reach the control plane at https://api.example.com: connection refused (ECONNREFUSED).', 'click to retry', 'error'],
        ['Check Connection', undefined, 'pulse'],
      ],
    );
  });

  it('an error row of a failure worded on several lines says the reason, not a line ending in “:”', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new ControlPlaneError('schema', { what: 'The repository listing', problems: [{ path: '', message: 'expected an array, got an object' }] }) } });
    const rows = await rowsOf(provider, await integrationNode(provider, 'acme-github'));
    assert.equal(rows[0].label, 'The repository listing does not match the API contract: (the whole answer): expected an array, got an object');
  });

  it('finds a repository row by URL whatever its form, and its parent integration', async () => {
    const { provider } = setUp();
    const found = await provider.findRepositoryNode(ACME.toUpperCase(), 'git@github.com:acme/web.git');
    assert.ok(found, 'found by its ssh URL');
    assert.equal(provider.getTreeItem(found).label, 'web');
    const parent = provider.getParent(found);
    assert.ok(parent);
    assert.equal(provider.getTreeItem(parent).label, 'acme-github');
    for (const form of ['https://GitHub.COM/acme/web.git', ' https://github.com/acme/web/ ', 'ssh://git@github.com/acme/web']) {
      assert.equal(await provider.findRepositoryNode(ACME, form), found, form);
    }
    assert.equal(await provider.findRepositoryNode(ACME, 'https://github.com/acme/unknown'), undefined);
    assert.equal(await provider.findRepositoryNode(ACME, 'https://github.com/acme/website'), undefined);
    assert.equal(await provider.findRepositoryNode(ACME, 'https://gitlab.com/acme/web'), undefined);
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
            problems: [{ path: 'url', message: 'expected a string, got nothing' }],
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

  describe('an integration with more than one page of repositories', () => {
    const many = manyRepositories(2500);

    it('shows 1,000 rows and a row that shows 1,000 more, until all 2,500 are shown', async () => {
      const { provider } = setUpFeature({ repositories: { [ACME]: many } });
      const acme = await integrationNode(provider, 'acme-github');
      const first = await provider.getChildren(acme);
      assert.equal(first.length, 1001);
      assert.deepEqual(
        first.slice(0, 3).map((row) => provider.getTreeItem(row).label),
        ['service-0', 'service-1', 'service-2'],
        'the first rows of the sorted listing',
      );
      const rows = await rowsOf(provider, acme);
      assert.equal(rows[999].label, 'service-999');
      assert.deepEqual(rows[1000], {
        label: 'Show 1,000 more…',
        description: '1,000 of 2,500 shown',
        icon: 'ellipsis',
        expands: false,
        contextValue: 'moreRepositories',
        command: 'deploymentsExplorer.showMoreRepositories',
      });
      const more = provider.getTreeItem(first[1000]);
      assert.equal(more.accessibilityInformation?.label, 'Show 1,000 more repositories, 1,000 of 2,500 shown');
      assert.deepEqual(more.command?.arguments, [first[1000]], 'the row hands itself to its command');
      assert.equal(provider.getParent(first[1000]), acme);

      // Activating it shows the next page in place, and redraws only that integration's branch.
      const redrawn: unknown[] = [];
      provider.onDidChangeTreeData((node) => redrawn.push(node));
      assert.equal(await activate(provider, first[1000]), true);
      await fake.until(() => redrawn.includes(acme), 'the integration’s branch to be redrawn');
      assert.deepEqual(redrawn, [acme], 'that branch only, once');
      const second = await provider.getChildren(acme);
      assert.equal(second.length, 2001);
      assert.equal(provider.getTreeItem(second[1999]).label, 'service-1999');
      assert.equal(provider.getTreeItem(second[2000]).label, 'Show 500 more…', 'never more than remain');
      assert.equal(provider.getTreeItem(second[2000]).description, '2,000 of 2,500 shown');
      assert.equal(second[2000].kind === 'more' && second[2000].id, first[1000].kind === 'more' && first[1000].id, 'the more row keeps its ID');

      // The rows shown before are the same objects, with the same IDs: VS Code keeps selection and focus.
      for (let i = 0; i < 1000; i++) assert.equal(second[i], first[i], `row ${i} was rebuilt`);
      assert.deepEqual(
        second.slice(0, 1000).map((row) => provider.getTreeItem(row).id),
        first.slice(0, 1000).map((row) => provider.getTreeItem(row).id),
      );

      await activate(provider, second[2000]);
      const all = await provider.getChildren(acme);
      assert.equal(all.length, 2500, 'every repository and no more row');
      assert.ok(all.every((row) => row.kind === 'repository'));
      assert.equal(provider.getTreeItem(all[2499]).label, 'service-2499');
      for (let i = 0; i < 2000; i++) assert.equal(all[i], second[i], `row ${i} was rebuilt`);
      assert.equal(new Set(all.map((row) => provider.getTreeItem(row).id)).size, 2500, 'unique IDs');
      assert.equal(await fake.commands.executeCommand('deploymentsExplorer.showMoreRepositories', second[2000]), false, 'nothing more to show');
    });

    it('shows every row at once with Show All Repositories (the more row’s inline action)', async () => {
      const { provider } = setUpFeature({ repositories: { [ACME]: many } });
      const acme = await integrationNode(provider, 'acme-github');
      const first = await provider.getChildren(acme);
      assert.equal(await fake.commands.executeCommand('deploymentsExplorer.showAllRepositories', first[1000]), true);
      assert.equal((await provider.getChildren(acme)).length, 2500);
    });

    it('writes the counts as the user’s language does', async () => {
      const { provider } = setUpFeature({ repositories: { [ACME]: many } });
      const language = fake.env.language;
      fake.env.language = 'de';
      try {
        const rows = await rowsOf(provider, await integrationNode(provider, 'acme-github'));
        assert.equal(rows[1000].label, 'Show 1.000 more…');
        assert.equal(rows[1000].description, '1.000 of 2.500 shown');
      } finally {
        fake.env.language = language;
      }
    });

    it('reveals a repository beyond the shown rows: shows the rows up to its page first, then reveals it', async () => {
      const { provider, feature, view } = setUpFeature({ repositories: { [ACME]: many } });
      const acme = await integrationNode(provider, 'acme-github');
      const before = await provider.getChildren(acme);
      const redrawn: unknown[] = [];
      provider.onDidChangeTreeData((node) => redrawn.push(node));

      const target = many.find((candidate) => candidate.name === 'service-2400');
      assert.ok(target);
      assert.equal(await feature.revealRepository(ACME, `${target.url.replace('github.com', 'GitHub.com')}.git`), true);
      const children = await provider.getChildren(acme);
      assert.equal(children.length, 2500, 'shown up to its page (all 2,500 here)');
      const row = children[2400];
      assert.ok(row.kind === 'repository' && row.repository === target, 'it is at its place among the rows');
      assert.deepEqual(view.revealed.at(-1), { element: row, options: { select: true, focus: true } });
      assert.ok(redrawn.includes(acme), 'the branch was redrawn before the reveal');
      assert.equal(children[0], before[0], 'the rows shown before are kept');

      // A repository already shown changes nothing.
      redrawn.length = 0;
      assert.equal(await feature.revealRepository(ACME, many.find((candidate) => candidate.name === 'service-5')!.url), true);
      // Changes reach VS Code as they happen (none is held back): nothing was redrawn.
      assert.deepEqual(redrawn, []);
      assert.equal(await feature.revealRepository(ACME, 'https://github.com/acme/service-9999'), false);
    });

    it('names one repository left as one', async () => {
      const { provider } = setUpFeature({ repositories: { [ACME]: many.slice(0, 1001) } });
      const first = await provider.getChildren(await integrationNode(provider, 'acme-github'));
      const more = provider.getTreeItem(first[1000]);
      assert.equal(more.label, 'Show 1 more…');
      assert.equal(more.accessibilityInformation?.label, 'Show 1 more repository, 1,000 of 1,001 shown');
      assert.equal(more.tooltip, 'Show the last of this integration’s 1,001 repositories. Find Repository… searches them all.');
    });

    it('extends by whole pages to reveal a repository: 1,500 shows 2,000 and the more row', async () => {
      const { provider } = setUp({ repositories: { [ACME]: many } });
      const node = await provider.findRepositoryNode(ACME, 'https://github.com/acme/service-1500');
      assert.ok(node && node.repository.name === 'service-1500');
      const children = await provider.getChildren(await integrationNode(provider, 'acme-github'));
      assert.equal(children.length, 2001);
      assert.equal(children[1500], node);
      assert.equal(provider.getTreeItem(children[2000]).description, '2,000 of 2,500 shown');
    });

    it('starts again at one page when the integration is refreshed; a more row from before does nothing', async () => {
      const { provider, services } = setUpFeature({ repositories: { [ACME]: many } });
      const acme = await integrationNode(provider, 'acme-github');
      const old = await provider.getChildren(acme);
      await activate(provider, old[1000]);
      assert.equal((await provider.getChildren(acme)).length, 2001);

      await fake.commands.executeCommand('deploymentsExplorer.refreshIntegration', acme);
      const fresh = await provider.getChildren(acme);
      assert.equal(fresh.length, 1001, 'one page of the new listing');
      assert.equal(provider.getTreeItem(fresh[1000]).description, '1,000 of 2,500 shown');
      assert.equal(await activate(provider, old[1000]), false, 'the row of the old listing');
      assert.equal((await provider.getChildren(acme)).length, 1001);

      // Another integration's rows are its own.
      assert.equal(services.catalog.state(OPS).status, 'idle');
    });

    it('counts off-contract rows as rows of the page', async () => {
      const { provider } = setUpFeature({
        repositories: { [ACME]: many },
        invalidRepositories: { [ACME]: [offContract(3, 'service-10a'), offContract(7, 'service-500a'), offContract(9, 'service-2000a')] },
      });
      const acme = await integrationNode(provider, 'acme-github');
      const first = await provider.getChildren(acme);
      assert.equal(first.length, 1001);
      const marked = first.filter((row) => row.kind === 'message' && row.role === 'offContract');
      assert.deepEqual(
        marked.map((row) => provider.getTreeItem(row).label),
        ['service-10a', 'service-500a'],
      );
      assert.equal(provider.getTreeItem(first[11]).label, 'service-10a', 'after service-10, before service-11');
      assert.equal(provider.getTreeItem(first[999]).label, 'service-997', '998 repositories and 2 marked rows');
      assert.equal(provider.getTreeItem(first[1000]).description, '1,000 of 2,503 shown');
      await activate(provider, first[1000]);
      const second = await provider.getChildren(acme);
      assert.equal(provider.getTreeItem(second[2000]).label, 'Show 503 more…');
      assert.equal(provider.getTreeItem(second[2000]).description, '2,000 of 2,503 shown');
      await activate(provider, second[2000]);
      const all = await provider.getChildren(acme);
      assert.equal(all.length, 2503);
      assert.equal(provider.getTreeItem(all[2003]).label, 'service-2000a', 'after service-2000');
      assert.equal(new Set(all.map((row) => provider.getTreeItem(row).id)).size, 2503, 'unique IDs');
      // A reveal counts them too: service-2400 is row 2,403.
      const found = await provider.findRepositoryNode(ACME, 'https://github.com/acme/service-2400');
      assert.equal(found, all[2403]);
    });
  });

  it('Add Integration…: a failed check offers Add Anyway, Edit (the inputs again, with what was typed) and the connection’s fixes', async () => {
    const NEW = '11111111-2222-4333-8444-555555555555';
    const { services } = setUpFeature({ repositories: { [NEW]: new ControlPlaneError('auth', { status: 403, detail: 'Forbidden' }) } });
    const typed: Array<string | undefined> = [];
    Object.assign(fake.window, {
      showInputBox: async (options: { value?: string }) => {
        typed.push(options.value);
        return undefined;
      },
    });
    fake.window.answer = () => 'Edit';
    assert.equal(await fake.commands.executeCommand('deploymentsExplorer.addIntegration', NEW, 'new'), undefined);
    const [asked] = fake.window.messages;
    assert.equal(asked.level, 'error');
    assert.match(asked.message, /^Integration 11111111-2222-4333-8444-555555555555 could not be checked: Access denied \(HTTP 403\)/);
    assert.deepEqual(asked.actions, ['Add Anyway', 'Edit', 'Set API Key…', 'Set Tenant ID…']);
    assert.deepEqual(typed, [NEW], 'Edit asks for the ID again, filled with what was given; closing it adds nothing');
    assert.deepEqual(services.connection.profiles.integrations(), [], 'nothing saved');

    fake.window.answer = () => 'Add Anyway';
    assert.deepEqual(await fake.commands.executeCommand('deploymentsExplorer.addIntegration', NEW, 'new'), { id: NEW, label: 'new', verified: false });
    assert.deepEqual(services.connection.profiles.integrations(), [{ id: NEW, label: 'new' }]);
  });

  it('marks a collapsed integration whose last load failed', async () => {
    const { provider } = setUp({ repositories: { [ACME]: new ControlPlaneError('auth', { status: 401, detail: 'Invalid API key' }) } });
    const acme = await integrationNode(provider, 'acme-github');
    await provider.getChildren(acme);
    const item = provider.getTreeItem(acme);
    assert.equal((item.iconPath as fake.ThemeIcon).id, 'error');
    assert.match((item.tooltip as fake.MarkdownString).value, /Last load failed: Not authenticated/);
  });
});

describe('Discover Integrations from Deployments', () => {
  beforeEach(() => fake.resetFake());

  it('counts one deployment as one, in the progress and in the result', async () => {
    const control = fakeServices({ apiKey: 'sk-test' });
    const record = { id: '00000000-0000-4000-8000-000000000001', name: 'only', source_config: { integration_id: DISCOVERED, repo_url: 'https://github.com/acme/only' } };
    const client = {
      async *deploymentPages() {
        yield { deployments: [record], offContract: [], requestedOffset: 0, limit: 100, nextOffset: 1, mayHaveMore: false, end: 'short' as const };
      },
    };
    Object.assign(control.services.connection, { getClient: async () => client });
    const progress: string[] = [];
    fake.window.withProgress = (_options, task) =>
      Promise.resolve(task({ report: (value: unknown) => void progress.push((value as { message: string }).message) }, new fake.CancellationTokenSource().token));
    const { registerDiscoverIntegrations } = await import('../../src/features/integrations/discoverIntegrations');
    registerDiscoverIntegrations(control.services);
    await fake.commands.executeCommand('deploymentsExplorer.discoverIntegrations');
    assert.deepEqual(progress, ['1 deployment read, 1 integration found']);
    assert.deepEqual(
      fake.window.messages.map((m) => m.message),
      ['Found 1 integration in 1 deployment; 1 new, shown as discovered.'],
    );
  });
});

describe('Find Repository', () => {
  beforeEach(() => fake.resetFake());

  it('says when the integrations list no repository, rather than an empty pick', async () => {
    const { services } = fakeServices({ apiKey: 'sk-test', integrations: [{ id: ACME, label: 'acme' }, { id: OPS, label: 'ops' }], repositories: { [ACME]: [], [OPS]: [] } });
    registerFindRepository(services, async () => true);
    const done = fake.commands.executeCommand('deploymentsExplorer.findRepository');
    const pick = await (await fake.window.nextQuickPick()).loaded();
    assert.deepEqual(pick.labels, []);
    assert.equal(pick.placeholder, 'The integrations list no repositories. Add another integration, or Refresh one that should have some.');
    pick.escape();
    await done;
  });
});
