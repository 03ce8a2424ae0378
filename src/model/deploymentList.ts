import type { Deployment, DeploymentPage, InvalidDeployment, PageEnd } from '../api';
import { PageWalk } from '../api/pagination';
import { idKey } from './ids';

/** One loaded record and the key the view identifies it by (its ID, or a stand-in when it has none). */
export interface LoadedDeployment {
  readonly key: string;
  readonly deployment: Deployment;
}

/**
 * A loaded record that does not match the API contract, kept as the server
 * sent it: the view shows it as "does not match the API contract", naming
 * each field path, and can still open its details and JSON from `record.raw`.
 */
export interface LoadedInvalidDeployment {
  readonly key: string;
  readonly record: InvalidDeployment;
  /** How many valid records were loaded before it (where it sits among `items`). */
  readonly position: number;
}

/** Fetches the page at `offset` with the current filters and page size. */
export type PageFetcher = (offset: number, signal: AbortSignal) => Promise<DeploymentPage>;

export type ListStatus = 'idle' | 'loading' | 'loaded' | 'error';

/** Why the list stopped offering "Load more…". */
export type EndReason =
  | 'end'
  /**
   * Stopped instead of looping: the response offset was one already requested
   * (a cycle), or a full page brought no record not already seen. `endRule`
   * says which.
   */
  | 'offsetStuck';

export type ListChange =
  | { kind: 'reset' }
  | { kind: 'appended'; added: readonly LoadedDeployment[]; addedInvalid: readonly LoadedInvalidDeployment[] }
  | { kind: 'inserted'; item: LoadedDeployment }
  /** A loaded record was replaced by a newer one (same key, same place). */
  | { kind: 'updated'; item: LoadedDeployment }
  | { kind: 'status' };

/**
 * The paged deployment listing as the view shows it: the pages loaded so far
 * (kept when a later page fails), one request at a time, the response offset
 * passed back verbatim (an opaque cursor), and the same end rules as the API
 * client's page iterator (`PageWalk`: empty, short, cycle, no new record).
 * A refresh supersedes whatever is in flight.
 */
export class DeploymentList {
  private loaded: LoadedDeployment[] = [];
  private loadedInvalid: LoadedInvalidDeployment[] = [];
  private walk = new PageWalk();
  private rule: PageEnd | undefined;
  /** key → loaded record: lookups by ID are O(1) however many pages are loaded. */
  private readonly keys = new Map<string, LoadedDeployment>();
  /** Keys of the records that did not match the contract (kept apart from the rows). */
  private readonly invalidKeys = new Set<string>();
  private pages = 0;
  private offset = 0;
  private more = false;
  private state: ListStatus = 'idle';
  private failure: unknown;
  private failedOffset = 0;
  private ended: EndReason | undefined;
  private inFlight: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private generation = 0;
  private anonymous = 0;
  private duplicates = 0;
  private readonly listeners = new Set<(change: ListChange) => void>();

  constructor(private readonly fetchPage: PageFetcher) {}

  get items(): readonly LoadedDeployment[] {
    return this.loaded;
  }
  /** Loaded records that do not match the API contract, in load order. */
  get invalidItems(): readonly LoadedInvalidDeployment[] {
    return this.loadedInvalid;
  }
  /** How many loaded records do not match the API contract. */
  get invalidCount(): number {
    return this.loadedInvalid.length;
  }
  /** The end rule that applied, once no more pages are offered. */
  get endRule(): PageEnd | undefined {
    return this.state === 'loaded' && !this.more ? this.rule : undefined;
  }
  get status(): ListStatus {
    return this.state;
  }
  get isLoading(): boolean {
    return this.state === 'loading';
  }
  /** True while "Load more…" should be offered. */
  get hasMore(): boolean {
    return this.state === 'loaded' && this.more;
  }
  get error(): unknown {
    return this.state === 'error' ? this.failure : undefined;
  }
  /** Pages appended so far. */
  get pageCount(): number {
    return this.pages;
  }
  /** The 1-based page number being loaded, or that failed. */
  get pendingPage(): number {
    return this.pages + 1;
  }
  get nextOffset(): number {
    return this.offset;
  }
  get endReason(): EndReason | undefined {
    return this.state === 'loaded' && !this.more ? this.ended : undefined;
  }
  /** Records skipped because an earlier page already had them (the listing shifted between pages). */
  get duplicateCount(): number {
    return this.duplicates;
  }
  /** Loaded, no more pages, and nothing in them. */
  get isEmpty(): boolean {
    return this.state === 'loaded' && !this.more && this.loaded.length === 0;
  }

  find(deploymentId: string): LoadedDeployment | undefined {
    return this.keys.get(idKey(deploymentId));
  }

  onDidChange(listener: (change: ListChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Loads the first page unless something is loaded, loading or failed already. */
  ensureLoaded(): Promise<void> {
    if (this.state === 'idle') return this.load();
    return this.inFlight ?? Promise.resolve();
  }

  /** Drops every page and loads the first again. */
  reload(): Promise<void> {
    this.clear();
    this.emit({ kind: 'reset' });
    return this.load();
  }

  /** Drops every page without loading (the next ensureLoaded() loads page 1). */
  reset(): void {
    this.clear();
    this.emit({ kind: 'reset' });
  }

  /**
   * The next page, requested with the last response's offset. While a page is
   * loading this returns that load and sends nothing. After a failure it
   * retries the page that failed.
   */
  loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.state === 'error' || this.state === 'idle') return this.load();
    if (!this.more) return Promise.resolve();
    return this.load();
  }

  /** Puts a record at the top (e.g. one just created that the loaded pages do not hold). */
  insertFirst(deployment: Deployment): LoadedDeployment {
    const existing = typeof deployment.id === 'string' ? this.find(deployment.id) : undefined;
    if (existing) return existing;
    const item = this.toItem(deployment);
    this.keys.set(item.key, item);
    this.loaded.unshift(item);
    this.emit({ kind: 'inserted', item });
    return item;
  }

  /**
   * Replaces the loaded record with the same ID by `deployment` (a change is
   * announced only when the record differs); undefined when it is not loaded.
   */
  update(deployment: Deployment): LoadedDeployment | undefined {
    if (typeof deployment.id !== 'string') return undefined;
    const key = idKey(deployment.id);
    const existing = this.keys.get(key);
    if (!existing) return undefined;
    if (JSON.stringify(existing.deployment) === JSON.stringify(deployment)) return existing;
    // Only a changed record looks for its place: the watcher hands every record of every tick here.
    const index = this.loaded.indexOf(existing);
    if (index < 0) return undefined;
    const item = { key, deployment };
    this.loaded[index] = item;
    this.keys.set(key, item);
    this.emit({ kind: 'updated', item });
    return item;
  }

  /** Resolves once nothing is loading (a load started meanwhile is waited for too). */
  async settled(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  dispose(): void {
    this.controller?.abort();
    this.listeners.clear();
  }

  private clear(): void {
    this.generation++;
    this.controller?.abort();
    this.controller = undefined;
    this.inFlight = undefined;
    this.loaded = [];
    this.loadedInvalid = [];
    this.walk = new PageWalk();
    this.rule = undefined;
    this.keys.clear();
    this.invalidKeys.clear();
    this.pages = 0;
    this.offset = 0;
    this.more = false;
    this.state = 'idle';
    this.failure = undefined;
    this.ended = undefined;
    this.duplicates = 0;
  }

  private load(): Promise<void> {
    const generation = ++this.generation;
    const controller = new AbortController();
    this.controller = controller;
    const offset = this.state === 'error' ? this.failedOffset : this.offset;
    this.state = 'loading';
    this.emit({ kind: 'status' });
    const run = (async () => {
      try {
        const page = await this.fetchPage(offset, controller.signal);
        if (generation !== this.generation) return;
        const invalid = page.invalid ?? [];
        const rule = this.walk.endOfPage({ ...page, requestedOffset: offset, invalid }) ?? (page.mayHaveMore ? undefined : (page.end ?? 'short'));
        const added = this.append(page.deployments);
        const addedInvalid = this.appendInvalid(invalid);
        this.pages++;
        this.offset = page.nextOffset;
        this.more = rule === undefined;
        this.rule = rule;
        if (rule) this.ended = rule === 'cycle' || rule === 'noNewRecords' ? 'offsetStuck' : 'end';
        this.state = 'loaded';
        this.emit({ kind: 'appended', added, addedInvalid });
      } catch (error) {
        if (generation !== this.generation) return;
        this.failure = error;
        this.failedOffset = offset;
        this.state = 'error';
        this.emit({ kind: 'status' });
        throw error;
      } finally {
        if (generation === this.generation) {
          this.inFlight = undefined;
          this.controller = undefined;
        }
      }
    })();
    this.inFlight = run.catch(() => undefined);
    return run;
  }

  private append(records: readonly Deployment[]): LoadedDeployment[] {
    const added: LoadedDeployment[] = [];
    for (const deployment of records) {
      const item = this.toItem(deployment);
      if (this.keys.has(item.key)) {
        this.duplicates++;
        continue;
      }
      this.keys.set(item.key, item);
      added.push(item);
    }
    // push (not concat) keeps appending a page O(page size), whatever is loaded already.
    for (const item of added) this.loaded.push(item);
    return added;
  }

  private appendInvalid(records: readonly InvalidDeployment[]): LoadedInvalidDeployment[] {
    const added: LoadedInvalidDeployment[] = [];
    for (const record of records) {
      const key = record.id ? idKey(record.id) : `#${++this.anonymous}`;
      if (this.keys.has(key) || this.invalidKeys.has(key)) {
        this.duplicates++;
        continue;
      }
      this.invalidKeys.add(key);
      const item = { key, record, position: this.loaded.length };
      this.loadedInvalid.push(item);
      added.push(item);
    }
    return added;
  }

  private toItem(deployment: Deployment): LoadedDeployment {
    const key = typeof deployment.id === 'string' && deployment.id ? idKey(deployment.id) : `#${++this.anonymous}`;
    return { key, deployment };
  }

  private emit(change: ListChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
