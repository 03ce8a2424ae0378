import { isErrorOf, messageOf, type ControlPlaneClient, type Deployment, type DeploymentPage, type OffContractDeployment } from '../api';
import type { RecordProblem } from '../api/errors';
import type { ListChange } from './deploymentList';
import { Emitter, Event } from './events';
import { deploymentType } from './deploymentType';
import { idKey } from './ids';
import { GitRemote, remoteKey } from './remoteUrls';
import { trimmedText } from './viewText';
import { integrationsOf, type IntegrationsUsed } from './integrationDiscovery';
import * as l10n from '@vscode/l10n';

/**
 * What the index keeps of a deployment: what telling deployments apart, comparing commits and discovering
 * integrations needs, never secrets.
 * Of a record off the API contract, what could be placed (its fields that are strings), and `problems`.
 */
export interface IndexedDeployment {
  readonly id: string;
  readonly name?: string;
  readonly status?: string;
  /** The record's type, read where deploymentType reads it; any text a server sends. */
  readonly type?: string;
  readonly repoUrl?: string;
  readonly ref?: string;
  readonly commit?: string;
  /** `source_config.integration_id`, when the record has one. */
  readonly integrationId?: string;
  /** Where the record departs from the API contract; undefined when it matches. */
  readonly problems?: readonly RecordProblem[];
}

/**
 * How far the scan got: `none` before the first; `capped` stopped at the limit with more to see;
 * `stopped` cancelled (by the user, or a switch to another control plane); `failed` with `error`.
 */
export type ScanPhase = 'none' | 'scanning' | 'complete' | 'capped' | 'stopped' | 'failed';

export interface ScanState {
  readonly phase: ScanPhase;
  /** Records the scan looked at, off-contract ones included. */
  readonly looked: number;
  /** Where the scan goes on: the last response's offset, verbatim. */
  readonly nextOffset: number;
  readonly error?: unknown;
}

/** A repository's deployments by type, for "deployed: prod, 2 dev": count per type (deploymentType), '' for none. */
export type RepositoryUsage = ReadonlyMap<string, number>;

/** The entry of a record, or undefined for a record without an ID (it cannot be kept up to date). */
function indexEntry(record: Deployment, problems?: readonly RecordProblem[]): IndexedDeployment | undefined {
  const id = trimmedText(record.id);
  if (!id) return undefined;
  const integrationId = trimmedText(record.source_config?.integration_id);
  return {
    id,
    name: trimmedText(record.name),
    status: trimmedText(record.status),
    type: deploymentType(record),
    repoUrl: trimmedText(record.source_config?.repo_url),
    ref: trimmedText(record.source_revision_config?.repo_ref),
    commit: trimmedText(record.source_revision_config?.repo_commit_sha),
    ...(integrationId && { integrationId }),
    ...(problems && { problems }),
  };
}

/** One control plane's index. Changes are announced once per update that changed something. */
export class DeploymentIndex {
  private readonly entries = new Map<string, IndexedDeployment>();
  private state: ScanState = { phase: 'none', looked: 0, nextOffset: 0 };
  /** Entries by repository (remoteKey), built when first asked after a change. */
  private byRepository: Map<string, IndexedDeployment[]> | undefined;
  private usageChanges = 0;
  /** What `integrations` answers, until an entry's integration changes. */
  private integrationsUsed: IntegrationsUsed | undefined;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  get scanState(): ScanState {
    return this.state;
  }

  /** A scan finished or stopped at the limit: the index answers for the control plane (or its first records). */
  get built(): boolean {
    return this.state.phase === 'complete' || this.state.phase === 'capped';
  }

  /** Bumped whenever what `usage` answers may have changed (not by a status change, say). */
  get usageVersion(): number {
    return this.usageChanges;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Records just listed, created or checked by a watch tick, those off the contract (`offContract`) among them:
   * each replaces the entry of its ID (a field the newer record lacks is gone), or is added. Records without an ID
   * are skipped. Answers whether anything changed.
   */
  update(records: Iterable<Deployment>, offContract: Iterable<OffContractDeployment> = []): boolean {
    let changed = false;
    for (const record of records) changed = this.put(indexEntry(record)) || changed;
    // The record as the server sent it: anything JSON can hold.
    for (const { raw, problems } of offContract) changed = this.put(indexEntry((raw ?? {}) as Deployment, problems)) || changed;
    if (changed) this.touch();
    return changed;
  }

  /** The integrations the indexed deployments use (what `integrationsUsedBy` answers of their records). */
  integrations(): IntegrationsUsed {
    return (this.integrationsUsed ??= integrationsOf(this.entries.values()));
  }

  /** Keeps `entry` unless it says what the entry of its ID says already; false when nothing changed. */
  private put(entry: IndexedDeployment | undefined): boolean {
    if (!entry) return false;
    const key = idKey(entry.id);
    const known = this.entries.get(key);
    // indexEntry writes every field in one order, strings and problems of strings: their JSON says the same when they do.
    if (known && JSON.stringify(known) === JSON.stringify(entry)) return false;
    if (known?.repoUrl !== entry.repoUrl || known?.type !== entry.type) this.usageChanges++;
    if (known?.integrationId !== entry.integrationId) this.integrationsUsed = undefined;
    this.entries.set(key, entry);
    return true;
  }

  remove(ids: Iterable<string>): boolean {
    let changed = false;
    for (const id of ids) changed = this.entries.delete(idKey(id)) || changed;
    if (changed) {
      this.usageChanges++;
      this.integrationsUsed = undefined;
      this.touch();
    }
    return changed;
  }

  /** A scan starts: from nothing (`fresh`, the entries are dropped), or where the last one stopped. */
  startScan(fresh: boolean): void {
    if (fresh) this.entries.clear();
    if (fresh) this.integrationsUsed = undefined;
    // Unbuilt while it scans: usage answers nothing.
    this.usageChanges++;
    this.state = fresh ? { phase: 'scanning', looked: 0, nextOffset: 0 } : { ...this.state, phase: 'scanning', error: undefined };
    this.touch();
  }

  /** A page of the scan: its records, and where the next one starts. A page of records seen already (its `end`) adds none to the count. */
  addPage(page: Pick<DeploymentPage, 'deployments' | 'offContract' | 'nextOffset' | 'end'>): void {
    const fresh = page.end === 'noNewRecords' ? 0 : page.deployments.length + page.offContract.length;
    this.state = { ...this.state, looked: this.state.looked + fresh, nextOffset: page.nextOffset };
    if (!this.update(page.deployments, page.offContract)) this.changed.fire();
  }

  endScan(phase: Exclude<ScanPhase, 'none' | 'scanning'>, error?: unknown): void {
    this.state = { ...this.state, phase, error };
    this.usageChanges++;
    this.changed.fire();
  }

  /** The deployments whose repository URL names the same repository as one of `remotes` (remoteKey), and the remotes that do. */
  ofRemotes<G extends GitRemote>(remotes: readonly G[]): { deployments: IndexedDeployment[]; remotes: G[] } {
    const named = remotes.filter((remote) => this.repositories().has(remoteKey(remote.url) ?? ''));
    const repositories = new Set(named.map((remote) => remoteKey(remote.url)!));
    return { deployments: [...repositories].flatMap((key) => this.repositories().get(key)!), remotes: named };
  }

  /** How many deployments use the repository at `url`, by type; undefined when none does. No request: the index as it is. */
  usage(url: string): RepositoryUsage | undefined {
    const deployments = this.repositories().get(remoteKey(url) ?? '');
    if (!deployments) return undefined;
    const types = new Map<string, number>();
    for (const deployment of deployments) types.set(deployment.type ?? '', (types.get(deployment.type ?? '') ?? 0) + 1);
    return types;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private repositories(): Map<string, IndexedDeployment[]> {
    if (this.byRepository) return this.byRepository;
    this.byRepository = new Map();
    // Many deployments share a URL: each URL is read once.
    const keys = new Map<string, string | undefined>();
    for (const entry of this.entries.values()) {
      // Built from an image or a tarball (`repo_url` null): no repository's deployment.
      if (!entry.repoUrl) continue;
      if (!keys.has(entry.repoUrl)) keys.set(entry.repoUrl, remoteKey(entry.repoUrl));
      const key = keys.get(entry.repoUrl);
      if (!key) continue;
      const group = this.byRepository.get(key);
      if (group) group.push(entry);
      else this.byRepository.set(key, [entry]);
    }
    return this.byRepository;
  }

  private touch(): void {
    this.byRepository = undefined;
    this.changed.fire();
  }
}

/** "prod, 2 dev, 1 without a type": the types users know first, then any other a server sends. */
export function usageWords(usage: RepositoryUsage): string {
  const order = ['prod', 'dev', 'dev_free'];
  const types = [...usage.keys()].sort((a, b) => {
    const rank = (type: string) => (type === '' ? order.length + 1 : order.includes(type) ? order.indexOf(type) : order.length);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  return types
    .map((type) => {
      const count = usage.get(type)!;
      if (type === '') return count === 1 ? l10n.t('1 without a type') : l10n.t('{0} without a type', count);
      return count === 1 ? type : `${count} ${type}`;
    })
    .join(', ');
}

/** What the index needs of the connection (ConnectionManager has it). */
export interface IndexConnection {
  /** The control plane in effect: the key of every per-control-plane state. */
  controlPlane(): string;
  /** The client in effect. A connection change ends its requests (a `cancelled` error), then is announced (onDidChange). */
  getClient(): Promise<Pick<ControlPlaneClient, 'deploymentPages'>>;
  onDidChange: Event<void>;
}

/** The scan asks for the largest page the contract allows. */
const SCAN_PAGE_SIZE = 100;

/**
 * The index of each control plane's deployments, kept in memory for the window: switching back to a control plane
 * finds its index as it was. The contract has no repository filter, so the deployments of a repository are found by
 * a scan that pages through all of them once (This Workspace starts and stops it, Deploy This Branch… waits for it);
 * every listing, Create and watch tick updates it afterwards; the Integrations tree reads it.
 */
export class DeploymentIndexes {
  private readonly byPlane = new Map<string, DeploymentIndex>();
  private readonly changed = new Emitter<void>();
  /** The index of the control plane in effect changed, or another control plane came into effect. */
  readonly onDidChange = this.changed.event;
  private readonly scanStarted = new Emitter<Promise<void>>();
  /** A scan started; its promise settles when it ends (the view shows its progress meanwhile). */
  readonly onDidStartScan = this.scanStarted.event;
  private readonly subscription: { dispose(): void };
  /** The last scan started, ended or not: its stop, and its run. */
  private scanning: { abort: AbortController; run: Promise<void> } | undefined;

  constructor(
    private readonly connection: IndexConnection,
    /** How many records a scan looks at before it asks to go on (the setting `workspace.scanLimit`). */
    private readonly scanLimit: () => number,
    private readonly log: { info(message: string): void; warn(message: string): void },
  ) {
    this.subscription = connection.onDidChange(() => this.changed.fire());
  }

  current(): DeploymentIndex {
    const plane = this.connection.controlPlane();
    let index = this.byPlane.get(plane);
    if (!index) {
      index = new DeploymentIndex();
      index.onDidChange(() => {
        if (this.byPlane.get(this.connection.controlPlane()) === index) this.changed.fire();
      });
      this.byPlane.set(plane, index);
    }
    return index;
  }

  /**
   * Scans the current control plane's deployments for `limit` more (the scan limit setting): `fresh`, from the first (a scan in
   * flight is stopped first); otherwise from where the last scan stopped, or the scan in flight is answered.
   * Never rejects: how it ended is the index's `scan`.
   */
  async scan(fresh: boolean, limit = this.scanLimit()): Promise<void> {
    if (fresh && this.scanning) {
      this.scanning.abort.abort();
      await this.scanning.run;
    }
    const index = this.current();
    if (index.scanState.phase === 'scanning') return this.scanning?.run;
    const abort = new AbortController();
    index.startScan(fresh);
    const run = this.run(index, index.scanState.looked + limit, abort);
    this.scanning = { abort, run };
    this.scanStarted.fire(run);
    return run;
  }

  /** Stops the scan in flight; what it found stays, and it can go on from there. */
  stopScan(): void {
    this.scanning?.abort.abort();
  }

  /** The current control plane's index, scanned first when no scan has built it. */
  async builtIndex(): Promise<DeploymentIndex> {
    let index: DeploymentIndex;
    // Again when another control plane came into effect meanwhile (its settings settling as the window starts).
    do {
      index = this.current();
      // A scan in flight is waited for (scan answers its run).
      if (!index.built) await this.scan(index.scanState.phase === 'none');
    } while (index !== this.current());
    return index;
  }

  /**
   * Pages through the listing into `index` (limit, offsets verbatim and end rules are the client's) until it ends
   * or `until` records were looked at. A connection change ends the client's requests: on the same control plane
   * the scan goes on with the next client; another control plane stops it (its index stays for when it is back).
   */
  private async run(index: DeploymentIndex, until: number, abort: AbortController): Promise<void> {
    const { signal } = abort;
    let connectionChanged: () => void = () => undefined;
    const subscription = this.connection.onDidChange(() => {
      if (index !== this.current()) abort.abort();
      connectionChanged();
    });
    signal.addEventListener('abort', () => connectionChanged());
    for (;;) {
      const changed = new Promise<void>((resolve) => (connectionChanged = resolve));
      try {
        const client = await this.connection.getClient();
        index.endScan(await this.pages(index, client.deploymentPages({ limit: SCAN_PAGE_SIZE, offset: index.scanState.nextOffset }, { signal }), until));
      } catch (error) {
        const cancelled = isErrorOf(error, 'cancelled');
        if (cancelled && !signal.aborted) {
          await changed;
          if (!signal.aborted) continue;
        }
        // No client (no key for this control plane, say): the view shows why, with its fixes.
        index.endScan(cancelled ? 'stopped' : 'failed', cancelled ? undefined : error);
      }
      subscription.dispose();
      this.log.info(`This Workspace: looked at ${index.scanState.looked} deployments (${index.scanState.phase}), ${index.size} indexed`);
      if (index.scanState.phase === 'failed') this.log.warn(`This Workspace: the scan failed: ${messageOf(index.scanState.error)}`);
      return;
    }
  }

  /** The pages into `index`; a failure or cancellation is thrown, the index keeping what was found and where to go on. */
  private async pages(index: DeploymentIndex, pages: AsyncIterable<DeploymentPage>, until: number): Promise<'complete' | 'capped'> {
    for await (const page of pages) {
      index.addPage(page);
      if (!page.mayHaveMore) return 'complete';
      if (index.scanState.looked >= until) return 'capped';
    }
    return 'complete';
  }

  /** What the Deployments view's list loaded or changed. */
  listChanged(change: ListChange): void {
    if (change.kind === 'appended' || change.kind === 'inserted') {
      const offContract = change.added.flatMap((row) => (row.offContract ? [row.offContract] : []));
      this.current().update(change.added.filter((row) => !row.offContract).map((row) => row.item.deployment), offContract);
    } else if (change.kind === 'updated') this.current().update([change.item.deployment]);
  }

  /** The deployments of a repository, by type, once the current control plane's index is built; no request. */
  usage(url: string): RepositoryUsage | undefined {
    const index = this.current();
    return index.built ? index.usage(url) : undefined;
  }

  /** Changes whenever what `usage` answers may have changed, on this control plane or by a switch to another. */
  usageVersion(): string {
    return `${this.connection.controlPlane()} ${this.current().usageVersion}`;
  }

  dispose(): void {
    this.stopScan();
    for (const index of this.byPlane.values()) index.dispose();
    this.subscription.dispose();
    this.changed.dispose();
    this.scanStarted.dispose();
  }
}
