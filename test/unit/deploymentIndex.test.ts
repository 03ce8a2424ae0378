import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, DeploymentPage } from '../../src/api';
import { ControlPlaneError } from '../../src/api/errors';
import { PageWalk } from '../../src/api/pagination';
import { DeploymentIndex, DeploymentIndexes, IndexConnection, usageWords } from '../../src/model/deploymentIndex';

const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

type RecordFields = { repo?: string; ref?: string; sha?: string | null; type?: string; status?: string; name?: string };

function record(n: number, fields: RecordFields = {}): Deployment {
  return {
    id: id(n),
    name: fields.name ?? `app-${n}`,
    status: fields.status ?? 'READY',
    deployment_type: fields.type,
    source_config: { repo_url: fields.repo ?? 'https://github.com/acme/shop', integration_id: null },
    source_revision_config: { repo_ref: fields.ref ?? 'main', repo_commit_sha: fields.sha },
    secrets: [{ name: 'TOKEN', value: 'secret-value' }],
  } as Deployment;
}

function page(records: Deployment[], offset: number, limit: number, more: boolean, invalid = 0): DeploymentPage {
  return {
    deployments: records,
    offContract: Array.from({ length: invalid }, (_, index) => ({ index, raw: {}, problems: [] })),
    requestedOffset: offset,
    limit,
    nextOffset: offset + records.length + invalid,
    mayHaveMore: more,
  };
}

async function* pages(all: Deployment[], limit: number, from = 0, fail?: Error): AsyncGenerator<DeploymentPage> {
  for (let offset = from; ; offset += limit) {
    if (fail && offset >= limit) throw fail;
    const slice = all.slice(offset, offset + limit);
    yield page(slice, offset, limit, offset + limit < all.length);
    if (offset + limit >= all.length) return;
  }
}

/**
 * The indexes over a control plane (`plane`) whose listing is `listing(offset, signal)`; `limit` is the scan limit
 * setting. `offsets`: the offsets the scan asked for; `log`: what it logged.
 */
function indexesOver(listing: (offset: number, signal: AbortSignal) => AsyncGenerator<DeploymentPage>, plane = () => 'https://a|') {
  const offsets: number[] = [];
  const log: string[] = [];
  const settings = { limit: 5000 };
  const connection = {
    controlPlane: plane,
    onDidChange: () => ({ dispose: () => undefined }),
    getClient: async () => ({
      deploymentPages: ({ offset }: { offset?: number }, { signal }: { signal?: AbortSignal }) => {
        offsets.push(offset ?? 0);
        return listing(offset ?? 0, signal!);
      },
    }),
  } satisfies IndexConnection;
  const write = (level: string) => (message: string) => void log.push(`${level} ${message}`);
  const indexes = new DeploymentIndexes(connection, () => settings.limit, { info: write('info'), warn: write('warn') });
  return { indexes, offsets, log, settings };
}

describe('DeploymentIndex: its update rules', () => {
  it('keeps id, name, status, type, repository, ref and commit of a record, and never its secrets', () => {
    const index = new DeploymentIndex();
    index.update([record(1, { type: 'prod', sha: 'abc' })]);
    const entries = index.ofRemotes([{ name: 'origin', url: 'https://github.com/acme/shop' }]).deployments;
    assert.deepEqual(entries, [
      {
        id: id(1),
        name: 'app-1',
        status: 'READY',
        type: 'prod',
        repoUrl: 'https://github.com/acme/shop',
        ref: 'main',
        commit: 'abc',
      },
    ]);
    assert.doesNotMatch(JSON.stringify(entries), /secret-value/);
  });

  it('a newer record of the same ID replaces the entry, whatever the ID’s case; a missing field is gone', () => {
    const index = new DeploymentIndex();
    index.update([record(1, { sha: 'abc', status: 'AWAITING_DATABASE' })]);
    const newer = { ...record(1, { sha: null }), id: id(1).toUpperCase() };
    index.update([newer]);
    assert.equal(index.size, 1);
    const [entry] = index.ofRemotes([{ name: 'origin', url: 'https://github.com/acme/shop' }]).deployments;
    assert.equal(entry.commit, undefined);
    assert.equal(entry.status, 'READY');
  });

  it('skips records without an ID, and announces a change only when something changed', () => {
    const index = new DeploymentIndex();
    let changes = 0;
    index.onDidChange(() => changes++);
    assert.equal(index.update([{ name: 'no-id' } as Deployment]), false);
    assert.equal(index.update([record(1)]), true);
    assert.equal(index.update([record(1)]), false, 'the same record again (a watch tick) changes nothing');
    assert.equal(changes, 1);
    assert.equal(index.remove([id(1).toUpperCase()]), true);
    assert.equal(index.size, 0);
    assert.equal(changes, 2);
  });

  it('counts the records of a server that ignores offset once: the repeated page that ends the scan adds none', async () => {
    const same = Array.from({ length: 100 }, (_, n) => record(n));
    const { indexes } = indexesOver(async function* () {
      // What the client's page iterator does: one walk of the end rules over the listing.
      const walk = new PageWalk();
      for (let offset = 0; ; offset += 100) {
        const listed = page(same, offset, 100, true);
        listed.end = walk.endOfPage(listed);
        listed.mayHaveMore = listed.end === undefined;
        yield listed;
        if (!listed.mayHaveMore) return;
      }
    });
    await indexes.scan(true);
    const index = indexes.current();
    assert.deepEqual({ phase: index.scanState.phase, looked: index.scanState.looked, size: index.size }, { phase: 'complete', looked: 100, size: 100 });
  });

  it('a fresh scan drops the old entries; going on keeps them and continues at the response offset', async () => {
    const all = Array.from({ length: 250 }, (_, n) => record(n));
    const { indexes, offsets, settings } = indexesOver((offset) => pages(all, 100, offset));
    const index = indexes.current();
    index.update([record(999, { repo: 'https://github.com/acme/old' })]);
    settings.limit = 100;
    await indexes.scan(true);
    assert.deepEqual(index.scanState, { phase: 'capped', looked: 100, nextOffset: 100, error: undefined });
    assert.equal(index.usage('https://github.com/acme/old'), undefined);
    assert.equal(index.built, true);
    settings.limit = 200;
    await indexes.scan(false);
    assert.equal(index.scanState.phase, 'complete');
    assert.equal(index.size, 250);
    assert.equal(index.scanState.looked, 250);
    assert.deepEqual(offsets, [0, 100]);
  });

  it('indexes what it can place of a record off the contract, marked with its problems; one without an ID is only looked at', async () => {
    const problems = [{ path: 'status', message: 'expected a string' }];
    const offContract = {
      index: 1,
      raw: {
        id: 'legacy-7',
        name: 'old-shop',
        status: 7,
        deployment_type: ['prod'],
        source_config: { repo_url: 'https://github.com/acme/shop', resource_spec: 'big' },
        source_revision_config: { repo_ref: 'main', repo_commit_sha: 42 },
        secrets: [{ name: 'TOKEN', value: 'secret-value' }],
      },
      problems,
      id: 'legacy-7',
    };
    const { indexes } = indexesOver(async function* () {
      yield { ...page([record(1)], 0, 100, false), offContract: [offContract, { index: 2, raw: { status: 'READY' }, problems }, { index: 3, raw: null, problems }] };
    });
    await indexes.scan(true);
    assert.equal(indexes.current().scanState.looked, 4);
    assert.equal(indexes.current().size, 2);
    const shown = indexes.current().ofRemotes([{ name: 'origin', url: 'https://github.com/acme/shop' }]).deployments;
    assert.deepEqual(
      shown.find((entry) => entry.id === 'legacy-7'),
      { id: 'legacy-7', name: 'old-shop', status: undefined, type: undefined, repoUrl: 'https://github.com/acme/shop', ref: 'main', commit: undefined, problems },
    );
    assert.doesNotMatch(JSON.stringify(shown), /secret-value/);
  });

  it('a record that comes back off the contract is marked, and unmarked once it matches again', () => {
    const index = new DeploymentIndex();
    const problems = [{ path: 'name', message: 'expected a string' }];
    const entry = () => index.ofRemotes([{ name: 'origin', url: 'https://github.com/acme/shop' }]).deployments[0];
    index.update([record(1)]);
    assert.equal(index.update([], [{ index: 0, raw: { ...record(1), name: 5 }, problems, id: id(1) }]), true);
    assert.deepEqual(entry().problems, problems);
    assert.equal(entry().name, undefined);
    assert.equal(index.update([], [{ index: 0, raw: { ...record(1), name: 5 }, problems: [{ ...problems[0] }], id: id(1) }]), false, 'the same problems again change nothing');
    assert.equal(index.update([record(1)]), true);
    assert.equal(entry().problems, undefined);
  });

  it('a scan that fails keeps what it found and where to go on, and logs why', async () => {
    const all = Array.from({ length: 250 }, (_, n) => record(n));
    const { indexes, log } = indexesOver((offset) => pages(all, 100, offset, new Error('boom')));
    await indexes.scan(true);
    const index = indexes.current();
    assert.equal(index.scanState.phase, 'failed');
    assert.equal((index.scanState.error as Error).message, 'boom');
    assert.equal(index.built, false);
    assert.equal(index.size, 100);
    assert.equal(index.scanState.nextOffset, 100);
    assert.deepEqual(log, ['info This Workspace: looked at 100 deployments (failed), 100 indexed', 'warn This Workspace: the scan failed: boom']);
  });

  it('a scan that is stopped keeps what it found, and goes on from there', async () => {
    const all = Array.from({ length: 250 }, (_, n) => record(n));
    let hold = true;
    const { indexes, offsets } = indexesOver(async function* (offset, signal) {
      for (; offset < all.length; offset += 100) {
        if (offset > 0 && hold) {
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
          throw new ControlPlaneError('cancelled');
        }
        yield page(all.slice(offset, offset + 100), offset, 100, offset + 100 < all.length);
      }
    });
    const index = indexes.current();
    const scanned = indexes.scan(true);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(index.scanState.phase, 'scanning');
    indexes.stopScan();
    await scanned;
    assert.deepEqual({ phase: index.scanState.phase, looked: index.scanState.looked, size: index.size }, { phase: 'stopped', looked: 100, size: 100 });
    hold = false;
    await indexes.scan(false);
    assert.deepEqual({ phase: index.scanState.phase, looked: index.scanState.looked, size: index.size }, { phase: 'complete', looked: 250, size: 250 });
    assert.deepEqual(offsets, [0, 100]);
  });

  it('finds the deployments of workspace remotes by the same URL matching as Deploy This Workspace, owner and name in any case', () => {
    const index = new DeploymentIndex();
    index.update([
      record(1, { repo: 'https://github.com/acme/shop' }),
      record(2, { repo: 'git@github.com:acme/shop.git' }),
      record(3, { repo: 'https://GitHub.com/acme/shop/' }),
      record(4, { repo: 'https://github.com/acme/other' }),
      record(5, { repo: 'https://gitlab.com/acme/shop' }),
      record(6, { repo: 'https://github.com/Acme/Shop' }),
    ]);
    const found = index.ofRemotes([
      { name: 'origin', url: 'ssh://git@github.com/acme/shop.git' },
      { name: 'mirror', url: 'https://example.org/acme/shop' },
    ]);
    assert.deepEqual(found.deployments.map((d) => d.id).sort(), [id(1), id(2), id(3), id(6)]);
    assert.deepEqual(found.remotes.map((remote) => remote.name), ['origin']);
  });

  it('counts a repository’s deployments by type', () => {
    const index = new DeploymentIndex();
    index.update([
      record(1, { type: 'dev' }),
      record(2, { type: 'prod', repo: 'git@github.com:acme/shop.git' }),
      record(3, { type: 'dev' }),
      record(4),
      record(5, { type: 'dev', repo: 'https://github.com/acme/other' }),
    ]);
    const usage = index.usage('https://github.com/ACME/shop.git');
    assert.equal([...usage!.values()].reduce((sum, count) => sum + count), 4);
    assert.equal(usageWords(usage!), 'prod, 2 dev, 1 without a type');
    assert.equal(index.usage('https://github.com/acme/none'), undefined);
  });
});

describe('DeploymentIndexes: one index per control plane', () => {
  it('keeps each control plane’s index for the window, and answers usage only once built', async () => {
    let plane = 'https://a|';
    const { indexes } = indexesOver(() => pages([record(1, { type: 'prod' })], 100), () => plane);
    indexes.current().update([record(1, { type: 'prod' })]);
    assert.equal(indexes.usage('https://github.com/acme/shop'), undefined, 'not built: no scan has run');
    await indexes.scan(true);
    assert.equal(usageWords(indexes.usage('https://github.com/acme/shop')!), 'prod');
    plane = 'https://b|';
    assert.equal(indexes.current().size, 0);
    assert.equal(indexes.usage('https://github.com/acme/shop'), undefined);
    plane = 'https://a|';
    assert.equal(indexes.current().size, 1);
  });

  it('announces changes of the control plane in effect only', () => {
    let plane = 'a';
    const { indexes } = indexesOver(() => pages([], 100), () => plane);
    const a = indexes.current();
    plane = 'b';
    indexes.current();
    let changes = 0;
    indexes.onDidChange(() => changes++);
    a.update([record(1)]);
    assert.equal(changes, 0);
    indexes.current().update([record(2)]);
    assert.equal(changes, 1);
  });
});
