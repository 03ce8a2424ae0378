import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment, DeploymentPage } from '../../src/api';
import { pageEnd } from '../../src/api/pagination';
import { DeploymentList, ListChange } from '../../src/model/deploymentList';
import { pagesOf } from './helpers/pagesOf';

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const records = (from: number, count: number): Deployment[] =>
  Array.from({ length: count }, (_, i) => ({ id: uuid(from + i), name: `d-${from + i}` }));

function page(offset: number, limit: number, deployments: Deployment[], nextOffset = offset + deployments.length): DeploymentPage {
  const end = pageEnd({ requestedOffset: offset, limit, count: deployments.length, nextOffset });
  return { deployments, offContract: [], requestedOffset: offset, limit, nextOffset, mayHaveMore: end === undefined, end };
}

/** A fetcher over `total` records that records every offset it was asked for. */
function server(total: number, limit: number) {
  const offsets: number[] = [];
  let failAt: number | undefined;
  const fetch = async (offset: number) => {
    offsets.push(offset);
    await new Promise((r) => setImmediate(r));
    if (offset === failAt) throw new Error(`boom at ${offset}`);
    return page(offset, limit, records(offset, Math.max(0, Math.min(limit, total - offset))));
  };
  return { offsets, fetch, failAt: (o: number | undefined) => (failAt = o) };
}

describe('DeploymentList', () => {
  it('update() replaces a loaded record in place, announces only a real change, and ignores records not loaded', async () => {
    const s = server(25, 10);
    const list = new DeploymentList(pagesOf(s.fetch));
    await list.ensureLoaded();
    const changes: ListChange[] = [];
    list.onDidChange((change) => changes.push(change));
    const before = list.rows.map((row) => row.item.key);
    const row = list.row(uuid(3));
    const updated = list.update({ id: uuid(3), name: 'd-3', status: 'READY' });
    assert.equal(updated?.deployment.status, 'READY');
    assert.deepEqual(list.rows.map((row) => row.item.key), before, 'same rows, same order');
    assert.equal(list.row(uuid(3)), row, 'the row keeps its identity');
    assert.equal(list.rows[3], row);
    assert.equal(row?.item, updated);
    assert.equal(list.find(uuid(3))?.deployment.status, 'READY');
    assert.deepEqual(changes.map((c) => c.kind), ['updated']);
    list.update({ id: uuid(3), name: 'd-3', status: 'READY' });
    assert.equal(changes.length, 1, 'the same record again is no change');
    assert.equal(list.update({ id: uuid(99), name: 'elsewhere' }), undefined);
    assert.equal(changes.length, 1);
  });

  it('takes a page far larger than the limit from a server that ignores it (200,000 records), every row once', async () => {
    const list = new DeploymentList(pagesOf(async (offset) => page(offset, 20, offset === 0 ? records(0, 200_000) : [])));
    await list.ensureLoaded();
    assert.equal(list.rows.length, 200_000);
    assert.equal(list.rows[199_999].item.deployment.name, 'd-199999');
  });

  it('loads the first page, then appends pages with the returned offset until a short page', async () => {
    const s = server(25, 10);
    const list = new DeploymentList(pagesOf(s.fetch));
    await list.ensureLoaded();
    assert.equal(list.rows.length, 10);
    assert.equal(list.hasMore, true);
    await list.loadMore();
    await list.loadMore();
    assert.equal(list.rows.length, 25);
    assert.equal(list.hasMore, false);
    assert.equal(list.endReason, 'end');
    await list.loadMore();
    assert.deepEqual(s.offsets, [0, 10, 20]);
  });

  it('passes the response offset verbatim, not offset + limit', async () => {
    const offsets: number[] = [];
    const list = new DeploymentList(pagesOf(async (offset) => {
      offsets.push(offset);
      return offset === 0 ? page(0, 2, records(0, 2), 7) : page(offset, 2, records(offset, 1));
    }));
    await list.ensureLoaded();
    await list.loadMore();
    assert.deepEqual(offsets, [0, 7]);
  });

  it('sends one request when load more is asked twice while loading', async () => {
    const s = server(100, 10);
    const list = new DeploymentList(pagesOf(s.fetch));
    await list.ensureLoaded();
    const first = list.loadMore();
    const second = list.loadMore();
    assert.equal(list.isLoading, true);
    await Promise.all([first, second]);
    assert.deepEqual(s.offsets, [0, 10]);
    assert.equal(list.rows.length, 20);
  });

  it('stops when the offset does not advance and says why', async () => {
    let calls = 0;
    const list = new DeploymentList(pagesOf(async (offset) => {
      calls++;
      return page(offset, 5, records(offset + calls * 100, 5), offset === 0 ? 5 : offset);
    }));
    await list.ensureLoaded();
    await list.loadMore();
    assert.equal(list.hasMore, false);
    assert.equal(list.endReason, 'offsetStuck');
    await list.loadMore();
    assert.equal(calls, 2);
  });

  it('keeps earlier pages when a later page fails, and retries the failed page', async () => {
    const s = server(100, 10);
    const list = new DeploymentList(pagesOf(s.fetch));
    await list.ensureLoaded();
    await list.loadMore();
    s.failAt(20);
    await assert.rejects(list.loadMore(), /boom at 20/);
    assert.equal(list.status, 'error');
    assert.equal(list.rows.length, 20);
    assert.equal(list.pageCount, 2, 'the failed page is the third');
    s.failAt(undefined);
    await list.loadMore();
    assert.equal(list.status, 'loaded');
    assert.equal(list.rows.length, 30);
    assert.deepEqual(s.offsets, [0, 10, 20, 20]);
  });

  it('reload starts over from offset 0 and ignores the superseded answer', async () => {
    const s = server(100, 10);
    const list = new DeploymentList(pagesOf(s.fetch));
    await list.ensureLoaded();
    const stale = list.loadMore();
    const fresh = list.reload();
    const changes: ListChange[] = [];
    list.onDidChange((c) => changes.push(c));
    await list.reload();
    assert.equal(changes[0]?.kind, 'reset', 'views drop their rows before the new first page');
    await Promise.all([stale, fresh]);
    assert.equal(list.rows.length, 10);
    assert.deepEqual(list.rows.map((row) => row.item.deployment.name), records(0, 10).map((d) => d.name));
  });

  it('skips records an earlier page already had and keeps records without an id', async () => {
    const list = new DeploymentList(pagesOf(async (offset) =>
      offset === 0 ? page(0, 2, [{ id: uuid(1) }, { name: 'no-id' }]) : page(offset, 2, [{ id: uuid(1).toUpperCase() }]),
    ));
    await list.ensureLoaded();
    await list.loadMore();
    assert.deepEqual(list.rows.map((row) => row.item.deployment.id ?? row.item.deployment.name), [uuid(1), 'no-id']);
    assert.ok(list.find(uuid(1).toUpperCase()));
  });

  it('reports empty only once loaded with nothing', async () => {
    const list = new DeploymentList(pagesOf(async (offset) => page(offset, 10, [])));
    assert.equal(list.isEmpty, false);
    await list.ensureLoaded();
    assert.equal(list.isEmpty, true);
  });

  it('appends in time linear in the page, not the whole list (thousands of rows)', async () => {
    const s = server(5000, 100);
    const list = new DeploymentList(pagesOf(s.fetch));
    const changes: ListChange[] = [];
    list.onDidChange((c) => changes.push(c));
    await list.ensureLoaded();
    while (list.hasMore) await list.loadMore();
    assert.equal(list.rows.length, 5000);
    const appended = changes.filter((c) => c.kind === 'appended');
    assert.equal(appended.length, 51);
    assert.ok(appended.every((c) => c.kind === 'appended' && c.added.length <= 100));
  });

  it('inserts a record at the top once', () => {
    const list = new DeploymentList(pagesOf(async (offset) => page(offset, 10, [])));
    list.insertFirst({ id: uuid(9), name: 'new' });
    list.insertFirst({ id: uuid(9), name: 'new' });
    assert.equal(list.rows.length, 1);
    assert.equal(list.find(uuid(9))?.deployment.name, 'new');
  });

  it('inserts a record off the contract at the top marked, counted, and announced as such', () => {
    const list = new DeploymentList(pagesOf(async (offset) => page(offset, 10, [])));
    const changes: ListChange[] = [];
    list.onDidChange((c) => changes.push(c));
    const raw = { id: 'legacy-1', name: 'old', status: 7 };
    list.insertFirst(raw as never, { index: 0, raw, problems: [{ path: 'status', message: 'expected a string' }], id: 'legacy-1', name: 'old' });
    assert.equal(list.row('legacy-1')?.offContract?.problems[0].path, 'status');
    assert.equal(list.find('legacy-1'), undefined, 'find answers records on the contract only');
    assert.equal(list.offContractCount, 1);
    assert.deepEqual(changes.map((c) => (c.kind === 'inserted' ? c.added.map((row) => Boolean(row.offContract)) : c.kind)), [[true]]);
  });

  it('keeps paging opaque cursors 0 → 5000 → 300 → 9000 → 70 until the short page', async () => {
    const cursors: Record<number, number> = { 0: 5000, 5000: 300, 300: 9000, 9000: 70 };
    const offsets: number[] = [];
    const list = new DeploymentList(pagesOf(async (offset) => {
      offsets.push(offset);
      const next = cursors[offset];
      return next === undefined ? page(offset, 2, records(offset, 1), 71) : page(offset, 2, records(offset, 2), next);
    }));
    await list.ensureLoaded();
    for (let i = 0; i < 10 && list.hasMore; i++) await list.loadMore();
    assert.deepEqual(offsets, [0, 5000, 300, 9000, 70]);
    assert.equal(list.rows.length, 9);
    assert.equal(list.endReason, 'end');
  });

  it('stops on a cycle of cursors, and on a full page with nothing new (a server ignoring offset)', async () => {
    const cycle = new DeploymentList(pagesOf(async (offset) => page(offset, 2, records(offset + 1, 2), offset === 0 ? 5000 : 0)));
    await cycle.ensureLoaded();
    for (let i = 0; i < 10 && cycle.hasMore; i++) await cycle.loadMore();
    assert.equal(cycle.pageCount, 2);
    assert.equal(cycle.endReason, 'offsetStuck');

    let calls = 0;
    const same = new DeploymentList(pagesOf(async (offset) => {
      calls++;
      return page(offset, 2, records(0, 2), offset + 2);
    }));
    await same.ensureLoaded();
    for (let i = 0; i < 30 && same.hasMore; i++) await same.loadMore();
    assert.equal(calls, 2);
    assert.equal(same.endReason, 'offsetStuck');
    assert.equal(same.rows.length, 2);
  });

  it('puts off-contract records in their place among the others, with their problems, and counts them in a full page', async () => {
    const problems = [{ path: 'id', message: 'expected a UUID' }, { path: 'created_at', message: 'expected a string, got a number' }];
    const list = new DeploymentList(pagesOf(async (offset) => {
      const good = records(offset, 2);
      const id = offset === 0 ? 'odd' : `odd-${offset}`;
      const invalid = [{ index: 1, raw: { id, created_at: 5 }, problems, id }];
      return { ...page(offset, 3, good, offset + 3), offContract: invalid, mayHaveMore: true, end: undefined };
    }));
    const changes: ListChange[] = [];
    list.onDidChange((change) => changes.push(change));
    await list.ensureLoaded();
    const appended = changes.find((change) => change.kind === 'appended');
    assert.ok(appended?.kind === 'appended');
    assert.deepEqual(appended.added.map((row) => row.item.deployment.id), [uuid(0), 'odd', uuid(1)], 'in the server’s order');
    assert.deepEqual(appended.added[1].offContract?.problems, problems);
    assert.deepEqual(appended.added[1].item.deployment, { id: 'odd', created_at: 5 }, 'the record as the server sent it');
    assert.deepEqual(list.rows, appended.added);
    assert.equal(list.offContractCount, 1);
    assert.equal(list.row('odd'), appended.added[1]);
    assert.equal(list.find('odd'), undefined, 'find: records that match the contract');
    assert.equal(list.find(uuid(1)), appended.added[2].item);
    assert.equal(list.hasMore, true, 'two good and one bad record make a full page of 3');
    await list.loadMore();
    assert.equal(list.offContractCount, 2);
    await list.reload();
    assert.equal(list.offContractCount, 1, 'counted again from the first page');
  });
});
