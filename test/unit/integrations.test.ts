import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Deployment, type Repository, type RepositoryListing } from '../../src/api';
import { ControlPlaneError, isErrorOf } from '../../src/api/errors';
import { ControlPlaneClient } from '../../src/api/client';
import { parseIntegrationId, integrationIdProblem } from '../../src/model/integrationId';
import { discoverIntegrations, integrationsUsedBy } from '../../src/model/integrationDiscovery';
import { DeploymentIndexes } from '../../src/model/deploymentIndex';
import { escapeMarkdown } from '../../src/model/viewText';
import { RepositoryCatalog, sortRepositories } from '../../src/model/repositoryCatalog';
import {
  integrationDescription,
  integrationLabel,
  integrationTooltipMarkdown,
  isLabelFromFacts,
  openableUrl,
  repositoryTooltipMarkdown,
} from '../../src/model/integrationPresentation';
import { isRepositoryNode, integrationIdOf } from '../../src/model/integrationRows';
import { mostCommon } from '../../src/model/remoteUrls';
import { ORPHAN_INTEGRATION_ID, SAMPLE_INTEGRATION_IDS, StandIn } from '../server/standIn';

const VALID = '3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b';

function problemOf(text: string): string {
  const parsed = parseIntegrationId(text);
  assert.ok('problem' in parsed, `expected “${text}” to be refused`);
  return parsed.problem;
}

describe('integration ID input', () => {
  it('accepts a UUID and canonicalises case, spaces, braces and missing dashes', () => {
    assert.deepEqual(parseIntegrationId(VALID), { id: VALID });
    assert.deepEqual(parseIntegrationId(`  ${VALID.toUpperCase()}  `), { id: VALID });
    assert.deepEqual(parseIntegrationId(`{${VALID}}`), { id: VALID });
    assert.deepEqual(parseIntegrationId(`urn:uuid:${VALID}`), { id: VALID });
    assert.deepEqual(parseIntegrationId(VALID.replace(/-/g, '')), { id: VALID });
    assert.equal(integrationIdProblem(VALID), undefined);
  });

  it('names the problem with a bad ID', () => {
    assert.match(problemOf(''), /Enter the integration ID/);
    assert.match(problemOf('3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6g'), /contains “g”/);
    assert.match(problemOf('3f2a9c1e 4b5d-4e6f-8a0b-1c2d3e4f5a6b'), /contains a space/);
    assert.match(problemOf('3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6'), /32 hexadecimal digits .*this has 31/);
    assert.match(problemOf('3f2a9c1e4-b5d-4e6f-8a0b-1c2d3e4f5a6b'), /dashes are misplaced.*9-3-4-4-12/);
    assert.match(integrationIdProblem('acme') ?? '', /contains “m”/);
  });
});

const repository: Repository = {
  host_integration_id: SAMPLE_INTEGRATION_IDS[0],
  id: 42,
  name: 'web_app',
  owner: 'acme',
  url: 'https://github.com/acme/web_app',
  default_branch: 'main',
};

describe('integration and repository presentation', () => {
  it('labels an integration by its label or a short ID', () => {
    assert.equal(integrationLabel({ id: VALID, label: 'acme-github' }), 'acme-github');
    assert.equal(integrationLabel({ id: VALID }), '3f2a9c1e…');
  });

  it('describes the repository count once loaded and marks discovered ones', () => {
    assert.equal(integrationDescription({ id: VALID, origin: 'added' }, undefined, false), '');
    assert.equal(integrationDescription({ id: VALID, origin: 'added' }, 60, false), '60 repositories');
    assert.equal(integrationDescription({ id: VALID, origin: 'added' }, 1, false), '1 repository');
    assert.equal(integrationDescription({ id: VALID, origin: 'added' }, 100_000, false, {}, 'en'), '100,000 repositories');
    assert.equal(integrationDescription({ id: VALID, origin: 'added' }, 100_000, false, {}, 'de'), '100.000 repositories');
    assert.equal(integrationDescription({ id: VALID, origin: 'discovered' }, 0, false), '0 repositories · discovered');
    assert.equal(integrationDescription({ id: VALID, origin: 'discovered' }, undefined, true), 'failed to load · discovered');
    assert.equal(integrationDescription({ id: VALID, origin: 'added', label: 'acme' }, undefined, false, { codeHost: 'github.com' }), 'github.com');
    assert.equal(integrationDescription({ id: VALID, origin: 'added', label: 'acme' }, 3, false, { codeHost: 'gitlab.com', owner: 'g' }), '3 repositories · gitlab.com');
  });

  it('names an integration without a label by its code host and most common owner, the short ID beside it', () => {
    const facts = { codeHost: 'github.com', owner: 'acme' };
    assert.equal(integrationLabel({ id: VALID }, facts), 'acme on github.com');
    assert.equal(integrationLabel({ id: VALID }, { codeHost: 'github.com' }), 'Integration on github.com', 'before its repositories load');
    assert.equal(integrationLabel({ id: VALID }, {}), '3f2a9c1e…', 'nothing known: the short ID');
    assert.equal(integrationLabel({ id: VALID, label: 'acme-github' }, facts), 'acme-github', 'a label wins');
    assert.equal(integrationLabel({ id: VALID, label: '  ' }, facts), 'acme on github.com', 'a blank label is none');
    assert.equal(isLabelFromFacts({ id: VALID }, facts), true);
    assert.equal(isLabelFromFacts({ id: VALID }, {}), false);
    assert.equal(isLabelFromFacts({ id: VALID, label: 'x' }, facts), false);
    assert.equal(integrationDescription({ id: VALID, origin: 'discovered' }, 60, false, facts), '3f2a9c1e… · 60 repositories · discovered');
    assert.equal(integrationDescription({ id: VALID, origin: 'discovered' }, undefined, false, { codeHost: 'github.com' }), '3f2a9c1e… · discovered');
    assert.equal(integrationDescription({ id: VALID, origin: 'added' }, undefined, true, {}), 'failed to load');
    assert.match(integrationTooltipMarkdown({ id: VALID, origin: 'added' }, 60, undefined, facts), /^\*\*acme on github\\\.com\*\*\n\nIntegration ID: 3f2a9c1e\\-4b5d/);
  });

  it('finds the most common owner of the repositories', () => {
    assert.equal(mostCommon(['a', 'b', 'b', 'c']), 'b');
    assert.equal(mostCommon(['a', 'b']), 'a', 'a tie: the first');
    assert.equal(mostCommon(['', ' ', undefined, 'x']), 'x', 'blank owners do not count');
    assert.equal(mostCommon([]), undefined);
  });

  it('the catalog knows the facts once an integration’s repositories are loaded', async () => {
    const repositories = [
      { ...repository, id: 1, owner: 'acme', url: 'https://gitlab.com/acme/a' },
      { ...repository, id: 2, owner: 'acme', url: 'https://gitlab.com/acme/b' },
      { ...repository, id: 3, owner: 'other', url: 'https://gitlab.com/other/c' },
    ];
    const catalog = new RepositoryCatalog({
      client: async () => ({ listRepositories: async () => ({ repositories, offContract: [] }) }) as never,
      addedIntegrations: () => [{ id: VALID }],
    });
    assert.deepEqual(catalog.facts(VALID), { codeHost: undefined, owner: undefined });
    catalog.addDiscovered([], { [VALID]: 'gitlab.com' });
    assert.equal(integrationLabel(catalog.find(VALID)!, catalog.facts(VALID)), 'Integration on gitlab.com', 'the host its deployments name');
    await catalog.repositories(VALID);
    assert.deepEqual(catalog.facts(VALID.toUpperCase()), { codeHost: 'gitlab.com', owner: 'acme' });
    assert.equal(integrationLabel(catalog.find(VALID)!, catalog.facts(VALID)), 'acme on gitlab.com');
    catalog.invalidate(VALID);
    assert.equal(catalog.facts(VALID).owner, undefined, 'forgotten with the repositories');
  });

  /** A catalog whose listing answers when `release` is called, or fails as cancelled when its signal aborts. */
  function heldCatalog() {
    const signals: AbortSignal[] = [];
    let release = () => undefined as void;
    const listRepositories = (_id: string, { signal }: { signal: AbortSignal }) =>
      new Promise<RepositoryListing>((resolve, reject) => {
        signals.push(signal);
        release = () => resolve({ repositories: [repository], offContract: [] });
        signal.addEventListener('abort', () => reject(new ControlPlaneError('cancelled')));
      });
    const catalog = new RepositoryCatalog({ client: async () => ({ listRepositories }) as never, addedIntegrations: () => [{ id: VALID }] });
    const states: string[] = [];
    catalog.onDidChange(() => states.push(catalog.state(VALID).status));
    return { catalog, signals, states, release: () => release() };
  }

  it('a load shared by a picker and the tree goes on when the picker closes, and the tree gets its repositories', async () => {
    const { catalog, signals, states, release } = heldCatalog();
    const picker = new AbortController();
    const picked = catalog.repositories(VALID, picker.signal);
    const tree = catalog.repositories(VALID);
    await new Promise((resolve) => setImmediate(resolve));
    picker.abort();
    await assert.rejects(picked, (error: unknown) => isErrorOf(error, 'cancelled'), 'the picker stops waiting');
    assert.equal(signals.length, 1, 'one request for both');
    assert.equal(signals[0].aborted, false, 'the tree still waits for it');
    release();
    assert.deepEqual(await tree, [repository]);
    assert.deepEqual(states, ['loading', 'loaded'], 'no flicker back to idle, no second load');
  });

  it('a shared load is cancelled once every caller has gone, and asked again afresh', async () => {
    const { catalog, signals, release } = heldCatalog();
    const [first, second] = [new AbortController(), new AbortController()];
    const loads = [catalog.repositories(VALID, first.signal), catalog.repositories(VALID, second.signal)];
    await new Promise((resolve) => setImmediate(resolve));
    first.abort();
    assert.equal(signals[0].aborted, false);
    second.abort();
    assert.equal(signals[0].aborted, true, 'nobody waits for it any more');
    for (const load of loads) await assert.rejects(load, (error: unknown) => isErrorOf(error, 'cancelled'));
    const again = catalog.repositories(VALID);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(signals.length, 2);
    release();
    assert.deepEqual(await again, [repository]);
    assert.equal(catalog.state(VALID).status, 'loaded');
  });

  it('shows all six fields in the tooltip in the interface’s words, escaped', () => {
    const tooltip = repositoryTooltipMarkdown(repository);
    assert.deepEqual(
      tooltip.split('\n').filter((line) => line.startsWith('- ')),
      [
        '- **Name:** web\\_app',
        '- **Owner:** acme',
        '- **Default branch:** main',
        `- **URL:** ${escapeMarkdown(repository.url)}`,
        '- **ID:** 42',
        `- **Integration ID:** ${escapeMarkdown(repository.host_integration_id)}`,
      ],
    );
    assert.doesNotMatch(tooltip, /default_branch|host_integration_id/, 'no raw API names');
    assert.ok(tooltip.includes('web\\_app'));
    assert.ok(tooltip.includes('42'));
    assert.equal(escapeMarkdown('[x](javascript:alert(1))'), '\\[x\\]\\(javascript:alert\\(1\\)\\)');
  });

  it('sorts repositories by owner, then name, then ID, as a base, numeric Intl.Collator orders them', () => {
    const names = ['repo10', 'Repo2', 'repo-2', 'Ärger', 'zeta', 'alpha', 'repo02', 'émile', 'Zeta', '_tools', 'repo2'];
    const owners = ['org', 'Org', 'örg', 'b-team', 'B-Team'];
    const repositories: Repository[] = names.flatMap((name, i) =>
      owners.map((owner, j) => ({ ...repository, id: (i * 7 + j * 3) % 11, name, owner, url: `https://example.com/${owner}/${name}` })),
    );
    const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
    const expected = [...repositories].sort((a, b) => collator.compare(a.owner, b.owner) || collator.compare(a.name, b.name) || a.id - b.id);
    assert.deepEqual(sortRepositories(repositories), expected);
    assert.deepEqual(
      sortRepositories(repositories.filter((r) => r.owner === 'org')).map((r) => r.name).slice(0, 4),
      ['_tools', 'alpha', 'Ärger', 'émile'],
    );
  });

  it('opens only http(s) repository URLs', () => {
    assert.deepEqual(openableUrl('https://github.com/acme/web'), { url: 'https://github.com/acme/web' });
    assert.match((openableUrl('javascript:alert(1)') as { problem: string }).problem, /not an http\(s\) address/);
    assert.match((openableUrl('file:///etc/passwd') as { problem: string }).problem, /not an http\(s\) address/);
    assert.match((openableUrl('git@github.com:acme/web.git') as { problem: string }).problem, /not a valid address/);
  });

  it('recognises tree elements by shape', () => {
    const node = { kind: 'repository', integrationId: VALID, repository, id: 'x' };
    assert.ok(isRepositoryNode(node));
    assert.equal(isRepositoryNode({ kind: 'repository' }), false);
    assert.equal(isRepositoryNode(undefined), false);
    assert.equal(isRepositoryNode(repository), false);
    assert.equal(integrationIdOf({ kind: 'integration', integration: { id: VALID, origin: 'added' } }), VALID);
    assert.equal(integrationIdOf(node), VALID);
    assert.equal(integrationIdOf(VALID), VALID, 'a plain ID');
    assert.equal(integrationIdOf(42), undefined);
    assert.equal(integrationIdOf(null), undefined);
  });
});

describe('integration discovery', () => {
  it('collects distinct integration IDs from deployments, skipping missing and malformed ones', () => {
    const deployments = [
      { source_config: { integration_id: VALID.toUpperCase() } },
      { source_config: { integration_id: VALID } },
      { source_config: null },
      {},
      { source_config: { integration_id: 'not-a-uuid' } },
    ] as unknown as Deployment[];
    assert.deepEqual(integrationsUsedBy(deployments), { integrationIds: [VALID], codeHosts: {} });
  });

  let standIn: StandIn;
  let client: ControlPlaneClient;
  before(async () => {
    standIn = await StandIn.start();
    client = new ControlPlaneClient({ baseUrl: standIn.url, apiKey: standIn.apiKey ?? undefined });
  });
  after(async () => {
    await client.dispose();
    await standIn.close();
  });

  /** The deployment indexes of one control plane, the stand-in, over the real client. */
  const indexesOver = (listing: ControlPlaneClient) =>
    new DeploymentIndexes({ controlPlane: () => 'stand-in', onDidChange: () => ({ dispose: () => undefined }), getClient: async () => listing }, () => 5000, {
      info: () => undefined,
      warn: () => undefined,
    });
  const listingOffsets = () => standIn.requests.filter((r) => r.path === '/v2/deployments').map((r) => r.query.offset ?? '0');

  it('finds every integration the stand-in deployments use, including the unknown one', async () => {
    const expected = new Set<string>();
    for (const deployment of standIn.deployments) {
      const id = (deployment as { source_config?: { integration_id?: string } }).source_config?.integration_id;
      if (id) expected.add(id.toLowerCase());
    }
    standIn.requests.length = 0;
    const progress: number[] = [];
    const result = await discoverIntegrations(indexesOver(client), { onProgress: (p) => progress.push(p.deployments) });
    assert.deepEqual(new Set(result.integrationIds), expected);
    assert.ok(result.integrationIds.includes(ORPHAN_INTEGRATION_ID));
    assert.equal(result.codeHosts[ORPHAN_INTEGRATION_ID], 'github.com', 'the host its deployments’ repository URLs name');
    assert.equal(result.codeHosts[standIn.integrations[1].id], new URL(standIn.integrations[1].repositories[0].url).host);
    assert.equal(result.deployments, standIn.deployments.length);
    assert.equal(result.truncated, false);
    const listings = standIn.requests.filter((r) => r.path === '/v2/deployments');
    assert.equal(progress.length, Math.ceil(standIn.deployments.length / 100), 'one report per page that brought records');
    assert.ok(listings.every((r) => r.query.limit === '100'), 'pages of 100');
  });

  it('stops at its limit and says so', async () => {
    const result = await discoverIntegrations(indexesOver(client), { limit: 200 });
    assert.equal(result.deployments, 200);
    assert.equal(result.truncated, true);
  });

  it('scans only what the deployment index has not seen', async () => {
    const indexes = indexesOver(client);
    await indexes.scan(true, 100);
    const seen = indexes.current().scanState.nextOffset;
    standIn.requests.length = 0;
    const result = await discoverIntegrations(indexes);
    assert.equal(result.deployments, standIn.deployments.length);
    assert.equal(listingOffsets()[0], String(seen), 'goes on where the index stopped');
    assert.ok(!listingOffsets().includes('0'), 'the first page is not asked for again');
    standIn.requests.length = 0;
    const again = await discoverIntegrations(indexes);
    assert.deepEqual(listingOffsets(), [], 'a built index answers without a request');
    assert.deepEqual(again.integrationIds, result.integrationIds);
  });

  it('reads the integrations of records a listing, Create or watch tick gave the index', async () => {
    const indexes = indexesOver(client);
    await indexes.scan(true);
    standIn.requests.length = 0;
    const created = { id: '00000000-0000-4000-8000-00000000abcd', name: 'created', source_config: { integration_id: VALID, repo_url: 'https://example.com/acme/x' } };
    indexes.current().update([created as Deployment]);
    const result = await discoverIntegrations(indexes);
    assert.ok(result.integrationIds.includes(VALID));
    assert.deepEqual(listingOffsets(), []);
  });

  it('can be cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(discoverIntegrations(indexesOver(client), { signal: controller.signal }), (e: unknown) => isErrorOf(e, 'cancelled'));
  });
});
