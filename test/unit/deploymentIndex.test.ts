import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, DeploymentPage } from '../../src/api';
import { CancelledError } from '../../src/api/errors';
import { DeploymentIndex, DeploymentIndexes, scanDeployments, usageWords } from '../../src/model/deploymentIndex';

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
    invalid: Array.from({ length: invalid }, (_, index) => ({ index, raw: {}, problems: [] })),
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

  it('a fresh scan drops the old entries; going on keeps them and continues at the response offset', async () => {
    const index = new DeploymentIndex();
    index.update([record(999, { repo: 'https://github.com/acme/old' })]);
    const all = Array.from({ length: 250 }, (_, n) => record(n));
    index.startScan(true);
    assert.equal(await scanDeployments(index, pages(all, 100), 100), 'capped');
    index.endScan('capped');
    assert.deepEqual(index.scan, { phase: 'capped', looked: 100, nextOffset: 100, error: undefined });
    assert.equal(index.usage('https://github.com/acme/old'), undefined);
    assert.equal(index.built, true);
    index.startScan(false);
    assert.equal(await scanDeployments(index, pages(all, 100, index.scan.nextOffset), 300), 'complete');
    assert.equal(index.size, 250);
    assert.equal(index.scan.looked, 250);
  });

  it('counts records off the contract as looked at, without indexing them', async () => {
    const index = new DeploymentIndex();
    index.startScan(true);
    async function* one() {
      yield page([record(1)], 0, 100, false, 2);
    }
    await scanDeployments(index, one(), 5000);
    assert.equal(index.scan.looked, 3);
    assert.equal(index.size, 1);
  });

  it('a scan that fails or is cancelled throws, keeping what it found and where to go on', async () => {
    const all = Array.from({ length: 250 }, (_, n) => record(n));
    const stopped = new DeploymentIndex();
    stopped.startScan(true);
    await assert.rejects(scanDeployments(stopped, pages(all, 100, 0, new CancelledError()), 5000), CancelledError);
    assert.equal(stopped.size, 100);
    assert.equal(stopped.scan.nextOffset, 100);
    assert.equal(stopped.scan.phase, 'scanning', 'the caller ends it: it may go on with another client first');
    stopped.endScan('failed', new Error('boom'));
    assert.equal(stopped.built, false);
    assert.equal(stopped.scan.nextOffset, 100);
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
    const indexes = new DeploymentIndexes(() => plane);
    indexes.recordsListed([record(1, { type: 'prod' })]);
    assert.equal(indexes.usage('https://github.com/acme/shop'), undefined, 'not built: no scan has run');
    indexes.current().startScan(true);
    await scanDeployments(indexes.current(), pages([record(1, { type: 'prod' })], 100), 5000);
    indexes.current().endScan('complete');
    assert.equal(usageWords(indexes.usage('https://github.com/acme/shop')!), 'prod');
    plane = 'https://b|';
    assert.equal(indexes.current().size, 0);
    assert.equal(indexes.usage('https://github.com/acme/shop'), undefined);
    plane = 'https://a|';
    assert.equal(indexes.current().size, 1);
  });

  it('announces changes of the control plane in effect only', () => {
    let plane = 'a';
    const indexes = new DeploymentIndexes(() => plane);
    const a = indexes.current();
    plane = 'b';
    indexes.current();
    let changes = 0;
    indexes.onDidChange(() => changes++);
    a.update([record(1)]);
    assert.equal(changes, 0);
    indexes.recordsListed([record(2)]);
    assert.equal(changes, 1);
  });
});
