import type { Deployment, DeploymentPage, OffContractDeployment, PageEnd } from '../api';
import { PageWalk } from '../api/pagination';
import { Emitter } from './events';
import { idKey } from './ids';

/** One loaded record and the key the view identifies it by (its ID, or a stand-in when it has none). */
export interface LoadedDeployment {
  readonly key: string;
  readonly deployment: Deployment;
}

/**
 * A loaded record's row, made once: a newer record replaces its `item`, so whatever shows the row keeps
 * its identity (and what it built for it) however many pages follow.
 */
export interface DeploymentRow {
  readonly kind: 'deployment';
  item: LoadedDeployment;
  /** Set when the record does not match the API contract (`item.deployment` is then the record as the server sent it). */
  readonly offContract?: OffContractDeployment;
}

type ListStatus = 'idle' | 'loading' | 'loaded' | 'error';

export type ListChange =
  | { kind: 'reset' }
  /** A page's new rows, in the server's order, those off the contract among them. */
  | { kind: 'appended'; added: readonly DeploymentRow[] }
  /** A row put at the top (see insertFirst). */
  | { kind: 'inserted'; added: readonly DeploymentRow[] }
  /** A loaded record was replaced by a newer one (same key, same place). */
  | { kind: 'updated'; item: LoadedDeployment }
  | { kind: 'status' };

/**
 * The listing's pages from `offset` on (the client's `deploymentPages`), judged by `walk`; each page is requested
 * when the one before was consumed, its response offset passed back verbatim.
 */
export type DeploymentPages = (offset: number, walk: PageWalk, signal: AbortSignal) => AsyncIterator<DeploymentPage>;

/**
 * The paged deployment listing as the view shows it: the pages loaded so far (kept when a later page
 * fails), taken one at a time from the client's page walk, which applies the end rules. A failed page is
 * asked for again by a walk that goes on with the same listing. A refresh supersedes whatever is in flight.
 */
export class DeploymentList {
  /** In order; a record an earlier page already had is not loaded again. */
  private loaded: DeploymentRow[] = [];
  /** Lookups by ID are O(1) however many pages are loaded. */
  private readonly keys = new Map<string, DeploymentRow>();
  /** The page walk of this listing, while it goes on (none before the first page, and after a failed one). */
  private pageWalk: AsyncIterator<DeploymentPage> | undefined;
  private walk = new PageWalk();
  /** Aborts this listing's requests: a reset supersedes them. */
  private controller = new AbortController();
  /** The end rule of the last page, once one applied. */
  private rule: PageEnd | undefined;
  private pages = 0;
  private offContract = 0;
  private offset = 0;
  private state: ListStatus = 'idle';
  private failure: unknown;
  /** The load in flight: its end (never a rejection). */
  private inFlight: { done: Promise<void> } | undefined;
  private anonymous = 0;
  private readonly changed = new Emitter<ListChange>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly openPages: DeploymentPages) {}

  get rows(): readonly DeploymentRow[] {
    return this.loaded;
  }
  get offContractCount(): number {
    return this.offContract;
  }
  get status(): ListStatus {
    return this.state;
  }
  get isLoading(): boolean {
    return this.state === 'loading';
  }
  /** True while "Load more…" should be offered. */
  get hasMore(): boolean {
    return this.state === 'loaded' && this.rule === undefined;
  }
  get error(): unknown {
    return this.state === 'error' ? this.failure : undefined;
  }
  get pageCount(): number {
    return this.pages;
  }
  get nextOffset(): number {
    return this.offset;
  }
  /**
   * Why the list stopped offering "Load more…": `offsetStuck` when it stopped instead of looping (the
   * response offset was one already requested, or a full page brought no record not already seen).
   */
  get endReason(): 'end' | 'offsetStuck' | undefined {
    if (this.state !== 'loaded' || this.rule === undefined) return undefined;
    return this.rule === 'cycle' || this.rule === 'noNewRecords' ? 'offsetStuck' : 'end';
  }
  /** Loaded, no more pages, and nothing in them. */
  get isEmpty(): boolean {
    return this.endReason !== undefined && this.loaded.length === 0;
  }

  /** The row of `deploymentId` (or of a row's `item.key`). */
  row(deploymentId: string): DeploymentRow | undefined {
    return this.keys.get(idKey(deploymentId));
  }

  /** The loaded record of `deploymentId`, unless it is off the contract. */
  find(deploymentId: string): LoadedDeployment | undefined {
    const row = this.row(deploymentId);
    return row?.offContract ? undefined : row?.item;
  }

  /** The first page, unless something is loaded, loading or failed already. */
  ensureLoaded(): Promise<void> {
    if (this.state === 'idle') return this.load();
    return this.inFlight?.done ?? Promise.resolve();
  }

  reload(): Promise<void> {
    this.reset();
    return this.load();
  }

  reset(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.pageWalk = undefined;
    this.inFlight = undefined;
    this.loaded = [];
    this.keys.clear();
    this.walk = new PageWalk();
    this.rule = undefined;
    this.pages = 0;
    this.offContract = 0;
    this.offset = 0;
    this.state = 'idle';
    this.failure = undefined;
    this.changed.fire({ kind: 'reset' });
  }

  /** With the last response's offset; while a page is loading, that load. After a failure, the page that failed. */
  loadMore(): Promise<void> {
    if (this.inFlight) return this.inFlight.done;
    if (this.state === 'loaded' && !this.hasMore) return Promise.resolve();
    return this.load();
  }

  /** A record the loaded pages do not hold, at the top (e.g. one just created); `invalid` when it is off the contract. */
  insertFirst(deployment: Deployment, invalid?: OffContractDeployment): void {
    const row: DeploymentRow = { kind: 'deployment', item: { key: this.keyOf(deployment.id), deployment }, offContract: invalid };
    if (!this.add(row)) return;
    this.loaded.unshift(row);
    this.changed.fire({ kind: 'inserted', added: [row] });
  }

  /**
   * Replaces the loaded record with the same ID (announced only when it differs); not one loaded off
   * the contract (that row stays as the listing showed it). Undefined when nothing was replaced.
   */
  update(deployment: Deployment): LoadedDeployment | undefined {
    if (typeof deployment.id !== 'string') return undefined;
    const key = idKey(deployment.id);
    const row = this.keys.get(key);
    if (!row || row.offContract) return undefined;
    if (JSON.stringify(row.item.deployment) === JSON.stringify(deployment)) return row.item;
    const item = { key, deployment };
    row.item = item;
    this.changed.fire({ kind: 'updated', item });
    return item;
  }

  /** Resolves once nothing is loading (a load started meanwhile is waited for too). */
  async settled(): Promise<void> {
    while (this.inFlight) await this.inFlight.done;
  }

  dispose(): void {
    this.controller.abort();
    this.changed.dispose();
  }

  /** The next page of the walk (one that goes on from the last page loaded when there is none). */
  private load(): Promise<void> {
    const { controller } = this;
    const pages = (this.pageWalk ??= this.openPages(this.offset, this.walk, controller.signal));
    this.state = 'loading';
    this.changed.fire({ kind: 'status' });
    const flight = { done: Promise.resolve() };
    const run = (async () => {
      try {
        const next = await pages.next();
        if (controller.signal.aborted) return;
        // The walk ends after its last page, which set the rule; one that ends without a page has nothing more either.
        if (next.done) this.rule ??= 'empty';
        const added = next.done ? [] : this.append(next.value);
        if (!next.done) {
          this.rule = next.value.end;
          this.pages++;
          this.offset = next.value.nextOffset;
        }
        this.state = 'loaded';
        this.changed.fire({ kind: 'appended', added });
      } catch (error) {
        if (controller.signal.aborted) return;
        this.pageWalk = undefined;
        this.failure = error;
        this.state = 'error';
        this.changed.fire({ kind: 'status' });
        throw error;
      } finally {
        if (this.inFlight === flight) this.inFlight = undefined;
      }
    })();
    flight.done = run.catch(() => undefined);
    this.inFlight = flight;
    return run;
  }

  /** In the server's order: each off-contract record goes back to its index among the others. */
  private append(page: DeploymentPage): DeploymentRow[] {
    const rows: DeploymentRow[] = page.deployments.map((deployment) => ({ kind: 'deployment', item: { key: this.keyOf(deployment.id), deployment } }));
    for (const invalid of page.offContract) {
      rows.splice(invalid.index, 0, { kind: 'deployment', item: { key: this.keyOf(invalid.id), deployment: offContractRecord(invalid) }, offContract: invalid });
    }
    const added = rows.filter((row) => this.add(row));
    // push (not concat) keeps appending a page O(page size), whatever is loaded already; one at a time, as a
    // server that ignores `limit` may send more records than a call can take as arguments.
    for (const row of added) this.loaded.push(row);
    return added;
  }

  /** Counts a row in unless one with its key is loaded already; true when it was. */
  private add(row: DeploymentRow): boolean {
    if (this.keys.has(row.item.key)) return false;
    this.keys.set(row.item.key, row);
    if (row.offContract) this.offContract++;
    return true;
  }

  private keyOf(id: unknown): string {
    return typeof id === 'string' && id ? idKey(id) : `#${++this.anonymous}`;
  }
}

/** What a row holds of a record off the contract: the record as the server sent it (a value that is no object, wrapped). */
export function offContractRecord({ raw }: OffContractDeployment): Deployment {
  return (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : { value: raw }) as Deployment;
}
