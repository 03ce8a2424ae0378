import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Deployment } from '../../src/api';
import { DEFAULT_WATCH_INTERVALS, MAX_IDS_PER_REQUEST, WatchNotice, WatchScheduler } from '../../src/model/watchScheduler';
import { DEFAULT_IN_PROGRESS_STATUSES, formatDuration, isInProgress, readSavedEntries } from '../../src/model/watchState';
import { advance, flushPromises, useMockTimers } from './helpers/mockTimers';

const REV_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const REV_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

function uuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** A fake control plane: records by ID, every request recorded, failures on demand. */
class FakeServer {
  readonly records = new Map<string, Deployment>();
  readonly requests: string[][] = [];
  failWith: Error | undefined;

  add(n: number, fields: Partial<Deployment> = {}): Deployment {
    const record: Deployment = { id: uuid(n), name: `app-${n}`, status: 'READY', latest_revision_id: REV_A, active_revision_id: REV_A, ...fields };
    this.records.set(record.id!, record);
    return record;
  }

  set(n: number, fields: Partial<Deployment>): void {
    const record = this.records.get(uuid(n))!;
    this.records.set(uuid(n), { ...record, ...fields });
  }

  readonly fetch = async (ids: readonly string[]): Promise<Deployment[]> => {
    this.requests.push([...ids]);
    if (this.failWith) throw this.failWith;
    return ids.map((id) => this.records.get(id)).filter((r): r is Deployment => !!r);
  };
}

function setup(options: { focused?: boolean } = {}) {
  const server = new FakeServer();
  const scheduler = new WatchScheduler(server.fetch);
  if (options.focused === false) scheduler.setFocused(false);
  const notices: WatchNotice[] = [];
  scheduler.onDidNotice((notice) => notices.push(notice));
  return { server, scheduler, notices };
}

describe('watch settle rules', () => {
  test('in progress by status (any case) or by a latest revision that is not active', () => {
    const statuses = ['AWAITING_DATABASE'];
    assert.equal(isInProgress({ status: 'AWAITING_DATABASE' }, statuses), true);
    assert.equal(isInProgress({ status: 'awaiting_database' }, statuses), true);
    assert.equal(isInProgress({ status: 'READY', latest_revision_id: REV_A, active_revision_id: REV_A }, statuses), false);
    assert.equal(isInProgress({ status: 'READY', latest_revision_id: REV_B, active_revision_id: REV_A }, statuses), true);
    assert.equal(isInProgress({ status: 'READY', latest_revision_id: REV_B }, statuses), true);
    assert.equal(isInProgress({ status: 'READY' }, statuses), false);
    assert.equal(isInProgress({ status: 'DEPLOYING' }, ['DEPLOYING']), true);
    assert.equal(isInProgress({ status: 'AWAITING_DELETE' }, statuses), false);
    // Being deleted is not deploying, whatever its revisions say.
    assert.equal(isInProgress({ status: 'AWAITING_FINAL_DELETE', latest_revision_id: REV_B, active_revision_id: REV_A }, statuses), false);
    assert.equal(isInProgress({ status: 'AWAITING_DELETE', latest_revision_id: REV_B }, statuses), false);
  });

  test('durations', () => {
    assert.equal(formatDuration(42_000), '42 s');
    assert.equal(formatDuration(5 * 60_000), '5 min');
    assert.equal(formatDuration(3 * 3600_000), '3 h');
  });

  test('saved entries are read back, malformed ones skipped', () => {
    const entries = readSavedEntries([
      { id: uuid(1), name: 'a', status: 'READY', since: 5, pinned: true, inProgress: false },
      { id: uuid(2), watched: 'manual', pinned: false },
      { id: uuid(3), pinned: false },
      { name: 'no id', pinned: true },
      'junk',
    ]);
    assert.deepEqual(entries.map((e) => e.id), [uuid(1), uuid(2)]);
    assert.equal(entries[0].since, 5);
    assert.deepEqual(readSavedEntries(undefined), []);
  });
});

describe('WatchScheduler', () => {
  beforeEach(() => useMockTimers());
  afterEach(() => mock.timers.reset());

  /** Asserts that the next request goes out exactly `gap` ms from now, not a millisecond before. */
  async function nextRequestAfter(server: FakeServer, gap: number): Promise<void> {
    const sent = server.requests.length;
    await advance(gap - 1);
    assert.equal(server.requests.length, sent, `no request before ${gap} ms`);
    await advance(1);
    assert.equal(server.requests.length, sent + 1, `a request at ${gap} ms`);
  }

  test('nothing followed: no timer, no request', async () => {
    const { server } = setup();
    await advance(120_000);
    assert.equal(server.requests.length, 0);
  });

  test('first tick 3 s after watching, then ×1.5 while unchanged, up to 30 s', async () => {
    const { server, scheduler } = setup();
    scheduler.watch(server.add(1), 'manual');
    for (const gap of [3000, 4500, 6750, 10125, 15187.5, 22781.25, 30000, 30000, 30000, 30000]) await nextRequestAfter(server, gap);
  });

  test('back to 3 s after a change', async () => {
    const { server, scheduler } = setup();
    scheduler.watch(server.add(1), 'manual');
    await advance(3000 + 4500 + 6750);
    assert.equal(server.requests.length, 3);
    server.set(1, { updated_at: '2026-01-01T00:00:00Z' });
    await nextRequestAfter(server, 10125);
    await nextRequestAfter(server, 3000);
  });

  test('one request per tick for everything followed, chunks of 100 beyond that', async () => {
    const { server, scheduler } = setup();
    for (let n = 1; n <= 3; n++) scheduler.watch(server.add(n), 'manual');
    scheduler.pin(server.add(4));
    await advance(3000);
    assert.deepEqual(server.requests, [[uuid(1), uuid(2), uuid(3), uuid(4)]]);

    const big = setup();
    for (let n = 1; n <= 250; n++) big.scheduler.watch(big.server.add(n), 'manual');
    await advance(3000);
    assert.deepEqual(big.server.requests.map((ids) => ids.length), [MAX_IDS_PER_REQUEST, MAX_IDS_PER_REQUEST, 50]);
  });

  test('paused while unfocused, one immediate tick when focus returns', async () => {
    const { server, scheduler } = setup();
    scheduler.watch(server.add(1), 'manual');
    await advance(3000);
    assert.equal(server.requests.length, 1);
    scheduler.setFocused(false);
    await advance(120_000);
    assert.equal(server.requests.length, 1, 'no request while unfocused');
    scheduler.setFocused(true);
    await flushPromises();
    assert.equal(server.requests.length, 2, 'one tick at once on focus');
    await advance(1000);
    assert.equal(server.requests.length, 2);
  });

  test('focus coming back right after a tick does not send another at once', async () => {
    const { server, scheduler } = setup();
    scheduler.watch(server.add(1), 'manual');
    await advance(3000);
    scheduler.setFocused(false);
    await advance(500);
    scheduler.setFocused(true);
    await flushPromises();
    assert.equal(server.requests.length, 1);
    await advance(4000);
    assert.equal(server.requests.length, 2, 'the schedule goes on');
  });

  test('watching starts unfocused: nothing until focus', async () => {
    const { server, scheduler } = setup({ focused: false });
    scheduler.watch(server.add(1), 'manual');
    await advance(60_000);
    assert.equal(server.requests.length, 0);
    scheduler.setFocused(true);
    await flushPromises();
    assert.equal(server.requests.length, 1);
  });

  test('an auto watch settles: one notice, then it is dropped and nothing more is requested', async () => {
    const { server, scheduler, notices } = setup();
    const created = server.add(1, { status: 'AWAITING_DATABASE', latest_revision_id: REV_B, active_revision_id: null });
    scheduler.watch(created, 'auto');
    assert.equal(scheduler.inProgress.length, 1);
    await advance(3000);
    assert.equal(notices.length, 0);
    server.set(1, { status: 'READY' }); // status done, revision not active yet
    await advance(3000);
    assert.equal(notices.length, 0, 'still in progress: the latest revision is not active');
    server.set(1, { active_revision_id: REV_B });
    await advance(3000);
    assert.equal(notices.length, 1);
    assert.equal(notices[0].kind, 'settled');
    assert.equal(notices[0].kind === 'settled' && notices[0].entry.status, 'READY');
    assert.equal(scheduler.entries.length, 0);
    const sent = server.requests.length;
    await advance(600_000);
    assert.equal(server.requests.length, sent, 'no more requests');
  });

  test('a manual watch stays after settling; a pinned auto watch stays pinned (slow polling)', async () => {
    const { server, scheduler, notices } = setup();
    scheduler.watch(server.add(1, { status: 'AWAITING_DATABASE' }), 'manual');
    const second = server.add(2, { status: 'AWAITING_DATABASE' });
    scheduler.watch(second, 'auto');
    scheduler.pin(second);
    server.set(1, { status: 'READY' });
    server.set(2, { status: 'UNUSED' });
    await advance(3000);
    assert.deepEqual(notices.map((n) => n.kind), ['settled', 'settled']);
    assert.equal(scheduler.find(uuid(1))?.watched, 'manual');
    assert.equal(scheduler.find(uuid(2))?.watched, undefined);
    assert.equal(scheduler.find(uuid(2))?.pinned, true);
    scheduler.unwatch(uuid(1));
    const sent = server.requests.length;
    await advance(59_999);
    assert.equal(server.requests.length, sent, 'pinned only: 60 s');
    await advance(1);
    assert.equal(server.requests.length, sent + 1);
  });

  test('failures keep the last status, back off, and are reported once per streak', async () => {
    const { server, scheduler, notices } = setup();
    scheduler.watch(server.add(1, { status: 'AWAITING_DATABASE' }), 'manual');
    server.failWith = new Error('503 Service Unavailable');
    await advance(3000 + 4500 + 6750);
    assert.equal(server.requests.length, 3);
    assert.equal(scheduler.failure?.streak, 3);
    assert.equal(scheduler.find(uuid(1))?.status, 'AWAITING_DATABASE');
    assert.deepEqual(
      notices.map((n) => (n.kind === 'failed' ? `failed:${n.firstInStreak}` : n.kind)),
      ['failed:true', 'failed:false', 'failed:false'],
    );
    server.failWith = undefined;
    await nextRequestAfter(server, 10125);
    assert.equal(scheduler.failure, undefined);
    assert.equal(notices.at(-1)?.kind, 'recovered');
    server.failWith = new Error('again');
    await nextRequestAfter(server, 15187.5);
    assert.equal(notices.filter((n) => n.kind === 'failed' && n.firstInStreak).length, 2, 'a new streak is reported again');
  });

  test('a deployment no longer listed is reported once and dropped', async () => {
    const { server, scheduler, notices } = setup();
    scheduler.watch(server.add(1), 'manual');
    scheduler.watch(server.add(2), 'manual');
    server.records.delete(uuid(2));
    await advance(3000);
    assert.deepEqual(notices.map((n) => n.kind), ['dropped']);
    assert.deepEqual(scheduler.entries.map((e) => e.id), [uuid(1)]);
    await advance(30_000);
    assert.equal(notices.length, 1);
    assert.deepEqual(server.requests.at(-1), [uuid(1)]);
  });

  test('restored entries resume with a first tick 3 s later; the status keeps its since', async () => {
    const server = new FakeServer();
    server.add(1, { status: 'READY' });
    const since = Date.now() - 3600_000;
    const scheduler = new WatchScheduler(server.fetch);
    scheduler.replaceAll([{ id: uuid(1), name: 'app-1', status: 'READY', since, pinned: true, inProgress: false }]);
    await advance(3000);
    assert.equal(server.requests.length, 1);
    assert.equal(scheduler.find(uuid(1))?.since, since);
    scheduler.dispose();
  });

  test('a tick still out when the entries are replaced (a profile switch cancels it) reports no failure', async () => {
    let cancel: (error: Error) => void = () => undefined;
    const fetch = () => new Promise<Deployment[]>((_, reject) => (cancel = reject));
    const scheduler = new WatchScheduler(fetch);
    const notices: WatchNotice[] = [];
    scheduler.onDidNotice((notice) => notices.push(notice));
    scheduler.watch({ id: uuid(1), name: 'app-1', status: 'AWAITING_DATABASE' }, 'manual');
    const tick = scheduler.tick();
    scheduler.replaceAll([{ id: uuid(2), name: 'other control plane', status: 'READY', since: Date.now(), pinned: true, inProgress: false }]);
    cancel(new Error('The request was cancelled.'));
    await tick;
    assert.deepEqual(notices, []);
    assert.equal(scheduler.failure, undefined);
    assert.deepEqual(scheduler.entries.map((entry) => entry.id), [uuid(2)]);
    scheduler.dispose();
  });

  test('unwatching the last deployment stops the timer', async () => {
    const { server, scheduler } = setup();
    scheduler.watch(server.add(1), 'manual');
    scheduler.unwatch(uuid(1));
    await advance(60_000);
    assert.equal(server.requests.length, 0);
  });
});

describe('WatchScheduler: a rollout that never lands', () => {
  beforeEach(() => useMockTimers());
  afterEach(() => mock.timers.reset());

  const STALL_MS = 5 * 60_000;
  /** READY with a latest revision that never becomes active, last updated `agoMs` before now. */
  const stuck = (agoMs = 0): Partial<Deployment> => ({
    status: 'READY',
    latest_revision_id: REV_B,
    active_revision_id: REV_A,
    updated_at: new Date(Date.now() - agoMs).toISOString(),
  });
  function stallSetup() {
    const context = setup();
    context.scheduler.configure({ intervals: DEFAULT_WATCH_INTERVALS, inProgressStatuses: DEFAULT_IN_PROGRESS_STATUSES, stalledAfterMs: STALL_MS });
    return context;
  }
  const stalledNotices = (notices: WatchNotice[]) => notices.filter((n) => n.kind === 'stalled');

  test('no change for the configured time: one stalled notice, no longer counted, an unpinned one no longer requested', async () => {
    const { server, scheduler, notices } = stallSetup();
    scheduler.watch(server.add(1, stuck()), 'auto');
    scheduler.pin(server.add(2));
    assert.equal(scheduler.inProgress.length, 1);
    await advance(STALL_MS - 1000);
    assert.deepEqual(stalledNotices(notices), [], 'not before the stall time');
    assert.equal(scheduler.inProgress.length, 1);
    await advance(30_000 + 1000); // the next tick after the stall time
    const stalled = stalledNotices(notices);
    assert.equal(stalled.length, 1);
    assert.equal(stalled[0].entry.id, uuid(1));
    assert.equal(stalled[0].entry.watched, 'auto', 'the notice carries how it was followed');
    assert.equal(scheduler.inProgress.length, 0, 'no longer counted as deploying');
    assert.equal(scheduler.find(uuid(1)), undefined, 'unpinned: no longer followed');
    const before = server.requests.length;
    await advance(STALL_MS * 3);
    assert.ok(server.requests.length > before, 'the other one is still polled');
    assert.ok(server.requests.slice(before).every((ids) => !ids.includes(uuid(1))), 'the stalled one is not');
    assert.equal(stalledNotices(notices).length, 1, 'one notice only');
    assert.ok(!notices.some((n) => n.kind === 'settled'), 'it did not settle');
  });

  test('a change restarts the stall clock', async () => {
    const { server, scheduler, notices } = stallSetup();
    scheduler.watch(server.add(1, stuck()), 'manual');
    await advance(STALL_MS - 60_000);
    server.set(1, { updated_at: new Date(Date.now()).toISOString() });
    await advance(STALL_MS - 30_000);
    assert.deepEqual(stalledNotices(notices), [], 'counted from the change');
    await advance(60_000);
    assert.equal(stalledNotices(notices).length, 1);
  });

  test('stuck since before it was followed (updated_at long ago): stalled at the first tick; a future or unreadable updated_at does not count', async () => {
    const { server, scheduler, notices } = stallSetup();
    scheduler.watch(server.add(1, stuck(3600_000)), 'manual');
    scheduler.watch(server.add(2, { ...stuck(), updated_at: new Date(Date.now() + 3600_000).toISOString() }), 'manual');
    scheduler.watch(server.add(3, { ...stuck(), updated_at: 'yesterday' }), 'manual');
    await advance(3000);
    assert.equal(server.requests.length, 1);
    assert.deepEqual(stalledNotices(notices).map((n) => n.entry.id), [uuid(1)]);
    await advance(STALL_MS);
    assert.deepEqual(stalledNotices(notices).map((n) => n.entry.id), [uuid(1), uuid(2), uuid(3)], 'from when they were first seen');
  });

  test('a restored entry keeps its stall clock (a reload does not restart it)', async () => {
    const server = new FakeServer();
    server.add(1, stuck());
    const scheduler = new WatchScheduler(server.fetch);
    scheduler.configure({ intervals: DEFAULT_WATCH_INTERVALS, inProgressStatuses: DEFAULT_IN_PROGRESS_STATUSES, stalledAfterMs: STALL_MS });
    const notices: WatchNotice[] = [];
    scheduler.onDidNotice((notice) => notices.push(notice));
    // As saved before the reload: unchanged since it was first seen, a stall time ago (its updated_at is newer).
    const { updated_at } = server.records.get(uuid(1))!;
    const earlier = Date.now() - STALL_MS;
    const saved = { id: uuid(1), status: 'READY', latestRevisionId: REV_B, activeRevisionId: REV_A, updatedAt: updated_at, since: earlier, quietSince: earlier, watched: 'manual', pinned: false, inProgress: true };
    scheduler.replaceAll(readSavedEntries(JSON.parse(JSON.stringify([saved]))));
    await advance(3000);
    assert.equal(stalledNotices(notices).length, 1);
    scheduler.dispose();
  });

  test('pinned: stays at the pinned interval, marked stalled; its activation later is reported', async () => {
    const { server, scheduler, notices } = stallSetup();
    const record = server.add(1, stuck(3600_000));
    scheduler.watch(record, 'manual');
    scheduler.pin(record);
    await advance(3000);
    assert.equal(stalledNotices(notices).length, 1);
    const entry = scheduler.find(uuid(1));
    assert.equal(entry?.pinned, true);
    assert.equal(entry?.stalled, true);
    assert.equal(entry?.watched, undefined, 'no longer watched');
    assert.equal(scheduler.inProgress.length, 0);
    await nextRequestAfter(server, 60_000);
    await nextRequestAfter(server, 60_000);
    assert.equal(stalledNotices(notices).length, 1, 'one notice only');
    server.set(1, { active_revision_id: REV_B, updated_at: new Date(Date.now()).toISOString() });
    await advance(60_000);
    const settled = notices.filter((n) => n.kind === 'settled');
    assert.equal(settled.length, 1, 'the activation is reported');
    assert.equal(settled[0].kind === 'settled' && settled[0].entry.activeRevisionId, REV_B);
    assert.equal(scheduler.find(uuid(1))?.stalled, false);
  });

  test('Keep Watching follows it again as before, with the stall clock started again', async () => {
    const { server, scheduler, notices } = stallSetup();
    scheduler.watch(server.add(1, stuck(3600_000)), 'auto');
    await advance(3000);
    const [stalled] = stalledNotices(notices);
    assert.equal(scheduler.entries.length, 0);
    scheduler.keepWatching(stalled.entry);
    assert.equal(scheduler.find(uuid(1))?.watched, 'auto');
    assert.equal(scheduler.inProgress.length, 1, 'counted as deploying again');
    await nextRequestAfter(server, 3000);
    await advance(STALL_MS - 3000 - 30_000);
    assert.equal(stalledNotices(notices).length, 1, 'the clock started again at Keep Watching');
    await advance(30_000 + 30_000);
    assert.equal(stalledNotices(notices).length, 2, 'stalled again after the full time');
  });

  /** Asserts that the next request goes out exactly `gap` ms from now, not a millisecond before. */
  async function nextRequestAfter(server: FakeServer, gap: number): Promise<void> {
    const sent = server.requests.length;
    await advance(gap - 1);
    assert.equal(server.requests.length, sent, `no request before ${gap} ms`);
    await advance(1);
    assert.equal(server.requests.length, sent + 1, `a request at ${gap} ms`);
  }
});
