import type { Deployment } from '../api';
import { Emitter } from './events';
import { idKey } from './ids';
import {
  DEFAULT_IN_PROGRESS_STATUSES,
  DEFAULT_STALLED_AFTER_MS,
  entryFields,
  isInProgress,
  PROGRESS_FIELDS,
  stallClockStart,
  WatchEntry,
  WatchOrigin,
} from './watchState';

export interface WatchIntervals {
  /** First tick after watching starts, and the interval after a change. */
  firstMs: number;
  /** The longest interval while something is watched or in progress. */
  maxMs: number;
  /** The interval while only pinned, settled deployments are followed. */
  pinnedMs: number;
}

export const DEFAULT_WATCH_INTERVALS: WatchIntervals = { firstMs: 3000, maxMs: 30_000, pinnedMs: 60_000 };

/** Growth of the interval per tick without a change (and per failure). */
const BACKOFF = 1.5;

/** The contract's limit: one request carries at most this many `deployment_ids`. */
export const MAX_IDS_PER_REQUEST = 100;

/** One `GET /v2/deployments?deployment_ids=…&limit=ids.length`: the records it answers. */
export type FetchRecords = (ids: readonly string[]) => Promise<readonly Deployment[]>;

export type WatchNotice =
  /** Was in progress (or auto-watched), now is not. */
  | { kind: 'settled'; entry: WatchEntry }
  /**
   * In progress without a change for the stall time (a rollout that failed leaves its latest revision never
   * active): no longer watched; dropped unless pinned. `entry` is as it was followed, for keepWatching.
   */
  | { kind: 'stalled'; entry: WatchEntry }
  /** The listing no longer returns it; it is no longer followed. */
  | { kind: 'dropped'; entry: WatchEntry }
  /** A tick failed; `firstInStreak` is true for the first failure after a success. */
  | { kind: 'failed'; error: unknown; firstInStreak: boolean }
  /** A tick succeeded after failures. */
  | { kind: 'recovered' };

/** A record, or a deployment known only by its ID (and name). */
type Followable = Deployment | { id: string; name?: string };

interface WatchSettings {
  intervals: WatchIntervals;
  inProgressStatuses: readonly string[];
  /** In progress without a change this long: stalled (see WatchNotice). */
  stalledAfterMs?: number;
}

/**
 * Follows watched and pinned deployments with one batched request per tick
 * (`deployment_ids`, chunks of 100; nothing when nothing is followed).
 *
 * - While anything is watched or in progress: first tick `firstMs` after
 *   watching starts, then ×1.5 per tick without a change up to `maxMs`,
 *   back to `firstMs` after a change.
 * - Only pinned, settled deployments: every `pinnedMs`.
 * - Paused while the window is not focused; when focus returns, one tick at
 *   once (unless the last one ended less than `firstMs` ago), then the schedule.
 * - A failure keeps every entry as it was, backs off, and is reported once
 *   per streak; a deployment the listing no longer returns is reported and dropped.
 * - A deployment in progress with no change for `stalledAfterMs` (stall clock:
 *   see WatchEntry.quietSince) is reported once as stalled, no longer counts as
 *   in progress and is no longer watched: dropped, or polled as pinned. A later
 *   change makes it a followed deployment like any other again.
 */
export class WatchScheduler {
  private list: WatchEntry[] = [];
  private focused = true;
  private intervals = DEFAULT_WATCH_INTERVALS;
  private inProgressStatuses = DEFAULT_IN_PROGRESS_STATUSES;
  private stalledAfterMs = DEFAULT_STALLED_AFTER_MS;
  private delay = this.intervals.firstMs;
  /** Runs while unfocused too: one that fires then sends nothing, and focus coming back ticks at once. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastTickAt: number | undefined;
  private inFlight: Promise<void> | undefined;
  private failed: { error: unknown; streak: number } | undefined;
  private disposed = false;
  /** Bumped by replaceAll: a tick still out for the entries before (another control plane's) is then ignored. */
  private generation = 0;

  private readonly changed = new Emitter<void>();
  /** Entries, their state or the failure changed: redraw and save. */
  readonly onDidChange = this.changed.event;
  private readonly noticed = new Emitter<WatchNotice>();
  readonly onDidNotice = this.noticed.event;

  /** Saved entries come with replaceAll, the window's focus with setFocused, the settings with configure. */
  constructor(private readonly fetchRecords: FetchRecords) {}

  get entries(): readonly WatchEntry[] {
    return this.list;
  }
  get watched(): readonly WatchEntry[] {
    return this.list.filter((entry) => entry.watched);
  }
  get pinned(): readonly WatchEntry[] {
    return this.list.filter((entry) => entry.pinned);
  }
  /** In progress and not stalled: what counts as deploying. */
  get inProgress(): readonly WatchEntry[] {
    return this.list.filter((entry) => entry.inProgress && !entry.stalled);
  }
  get failure() {
    return this.failed;
  }

  find(id: string): WatchEntry | undefined {
    return this.list.find((entry) => idKey(entry.id) === idKey(id));
  }

  /** Starts watching (or upgrades an auto watch to a manual one); the first tick comes `firstMs` later. */
  watch(deployment: Followable, origin: WatchOrigin): WatchEntry | undefined {
    const entry = this.upsert(deployment);
    if (!entry) return undefined;
    if (entry.watched !== 'manual') entry.watched = origin;
    if (entry.stalled) this.restartStallClock(entry);
    this.delay = this.intervals.firstMs;
    this.schedule(this.intervals.firstMs);
    this.changed.fire();
    return entry;
  }

  /** Keep Watching a stalled deployment: followed as it was before it stalled, its stall clock started again now. */
  keepWatching(stalled: WatchEntry): WatchEntry {
    let entry = this.find(stalled.id);
    if (!entry) {
      entry = { ...stalled };
      this.list.push(entry);
    }
    if (stalled.watched && entry.watched !== 'manual') entry.watched = stalled.watched;
    this.restartStallClock(entry);
    this.delay = this.intervals.firstMs;
    this.schedule(this.intervals.firstMs);
    this.changed.fire();
    return entry;
  }

  private restartStallClock(entry: WatchEntry): void {
    entry.stalled = false;
    entry.quietSince = Date.now();
  }

  unwatch(id: string): boolean {
    return this.stopFollowing(id, 'watched');
  }

  pin(deployment: Followable): WatchEntry | undefined {
    const entry = this.upsert(deployment);
    if (!entry) return undefined;
    const wasFollowed = this.list.length > 1 || entry.watched;
    entry.pinned = true;
    // A first pinned deployment, or one known only by ID, gets its first look soon; otherwise the schedule stands.
    if (!wasFollowed || this.timer === undefined || !entry.status) this.schedule(this.intervals.firstMs);
    this.changed.fire();
    return entry;
  }

  unpin(id: string): boolean {
    return this.stopFollowing(id, 'pinned');
  }

  /** Stops watching or pinning; an entry neither watched nor pinned is no longer followed. */
  private stopFollowing(id: string, how: 'watched' | 'pinned'): boolean {
    const entry = this.find(id);
    if (!entry?.[how]) return false;
    Object.assign(entry, how === 'watched' ? { watched: undefined } : { pinned: false });
    if (!entry.watched && !entry.pinned) this.remove(entry);
    this.schedule();
    this.changed.fire();
    return true;
  }

  /** Replaces everything: the saved state at start, or another connection's. */
  replaceAll(entries: readonly WatchEntry[]): void {
    this.generation++;
    this.list = entries.map((entry) => ({ ...entry }));
    this.failed = undefined;
    this.delay = this.intervals.firstMs;
    this.schedule(this.intervals.firstMs);
    this.changed.fire();
  }

  setFocused(focused: boolean): void {
    if (focused === this.focused) return;
    this.focused = focused;
    if (!focused || this.list.length === 0) return;
    const recent = this.lastTickAt !== undefined && Date.now() - this.lastTickAt < this.intervals.firstMs;
    if (this.timer === undefined || !recent) void this.tick();
  }

  /** A pending tick is rescheduled with the new intervals. */
  configure({ intervals, inProgressStatuses, stalledAfterMs = DEFAULT_STALLED_AFTER_MS }: WatchSettings): void {
    this.intervals = intervals;
    this.inProgressStatuses = inProgressStatuses;
    this.stalledAfterMs = stalledAfterMs;
    this.delay = Math.min(Math.max(this.delay, intervals.firstMs), intervals.maxMs);
    if (this.timer !== undefined) this.schedule();
  }

  /** One tick now (a tick in flight is answered instead). Failures are reported, never thrown. */
  tick(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.disposed) return Promise.resolve();
    this.cancelTimer();
    const requested = this.list.map((entry) => entry.id);
    if (requested.length === 0) return Promise.resolve();
    this.inFlight = this.run(requested).finally(() => {
      this.inFlight = undefined;
      this.lastTickAt = Date.now();
      this.schedule();
    });
    return this.inFlight;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    this.changed.dispose();
    this.noticed.dispose();
  }

  private async run(requested: readonly string[]): Promise<void> {
    const records: Deployment[] = [];
    const generation = this.generation;
    const stale = () => this.disposed || generation !== this.generation;
    try {
      for (let i = 0; i < requested.length; i += MAX_IDS_PER_REQUEST) {
        records.push(...(await this.fetchRecords(requested.slice(i, i + MAX_IDS_PER_REQUEST))));
      }
    } catch (error) {
      // A switch of control plane cancels the request: no failure of the entries followed now.
      if (stale()) return;
      const streak = (this.failed?.streak ?? 0) + 1;
      this.failed = { error, streak };
      this.delay = Math.min(this.delay * BACKOFF, this.intervals.maxMs);
      this.noticed.fire({ kind: 'failed', error, firstInStreak: streak === 1 });
      this.changed.fire();
      return;
    }
    if (stale()) return;
    this.apply(requested, records);
  }

  private apply(requested: readonly string[], records: readonly Deployment[]): void {
    const byId = new Map<string, Deployment>();
    for (const record of records) if (typeof record.id === 'string') byId.set(idKey(record.id), record);
    const notices: WatchNotice[] = [];
    let changed = false;
    for (const id of requested) {
      const entry = this.find(id);
      if (!entry) continue; // stopped following while the request was out
      const record = byId.get(idKey(id));
      if (!record) {
        this.remove(entry);
        notices.push({ kind: 'dropped', entry });
        changed = true;
        continue;
      }
      const wasInProgress = entry.inProgress;
      changed = this.take(entry, record) || changed;
      if (entry.inProgress) {
        if (!entry.stalled && Date.now() - (entry.quietSince ?? entry.since) >= this.stalledAfterMs) {
          entry.stalled = true;
          notices.push({ kind: 'stalled', entry: { ...entry } });
          entry.watched = undefined;
          if (!entry.pinned) this.remove(entry);
        }
        continue;
      }
      if (!wasInProgress && entry.watched !== 'auto') continue;
      notices.push({ kind: 'settled', entry: { ...entry } });
      if (entry.watched === 'auto') {
        entry.watched = undefined;
        if (!entry.pinned) this.remove(entry);
      }
    }
    if (this.failed) {
      this.failed = undefined;
      notices.unshift({ kind: 'recovered' });
    }
    this.delay = changed ? this.intervals.firstMs : Math.min(this.delay * BACKOFF, this.intervals.maxMs);
    for (const notice of notices) this.noticed.fire(notice);
    this.changed.fire();
  }

  /** The record's fields into its entry; true when something happened (a progress field changed). */
  private take(entry: WatchEntry, record: Deployment): boolean {
    const now = Date.now();
    const fields = entryFields(record);
    if (fields.status !== entry.status) entry.since = now;
    const changed = PROGRESS_FIELDS.some((field) => fields[field] !== entry[field]);
    if (entry.quietSince === undefined) {
      entry.quietSince = stallClockStart(fields.updatedAt, now);
    } else if (changed) {
      // An `updated_at` left as it was by the change says nothing of when it happened.
      entry.quietSince = fields.updatedAt !== entry.updatedAt ? stallClockStart(fields.updatedAt, now) : now;
      entry.stalled = false;
    }
    Object.assign(entry, fields, { inProgress: isInProgress(record, this.inProgressStatuses) });
    return changed;
  }

  private upsert(deployment: Followable): WatchEntry | undefined {
    const id = typeof deployment.id === 'string' ? deployment.id.trim() : '';
    if (!id) return undefined;
    let entry = this.find(id);
    if (!entry) {
      entry = { id, since: Date.now(), pinned: false, inProgress: false };
      this.list.push(entry);
    }
    if ('status' in deployment || 'latest_revision_id' in deployment) this.take(entry, deployment);
    else if (typeof deployment.name === 'string' && deployment.name) entry.name = deployment.name;
    return entry;
  }

  private remove(entry: WatchEntry): void {
    this.list = this.list.filter((candidate) => candidate !== entry);
  }

  /** The next tick in `ms` (default: the interval for what is followed); nothing while idle. */
  private schedule(ms?: number): void {
    this.cancelTimer();
    if (this.disposed || this.list.length === 0 || this.inFlight) return; // the tick in flight schedules the next
    const fast = this.list.some((entry) => entry.watched || (entry.inProgress && !entry.stalled));
    const wait = ms ?? (fast ? this.delay : Math.max(this.intervals.pinnedMs, this.failed ? this.delay : 0));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.focused) void this.tick();
    }, wait);
  }

  private cancelTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
