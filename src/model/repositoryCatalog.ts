import type { ControlPlaneClient, OffContractRepository, Repository } from '../api';
import { ControlPlaneError, isErrorOf } from '../api/errors';
import { Emitter } from './events';
import { idKey as key } from './ids';
import { mostCommon, mostCommonHost } from './remoteUrls';
import { IntegrationFacts, integrationLabel } from './integrationPresentation';

/** An integration the user added (a settings entry). */
export interface IntegrationSetting {
  id: string;
  label?: string;
}

/** What is kept of the discovered integrations of one connection between sessions. */
export interface DiscoveredSnapshot {
  /** Lower-case integration IDs, in order of discovery. */
  ids: string[];
  /** Integration ID → the code host its deployments' repository URLs name. */
  hosts: Record<string, string>;
  /** When the list last changed (ms since the epoch). */
  refreshedAt?: number;
  /** When "Discover Integrations from Deployments" last read every deployment. */
  scannedAt?: number;
}

export type DiscoveryAge = Pick<DiscoveredSnapshot, 'refreshedAt' | 'scannedAt'>;

interface RepositoryCatalogSource {
  client(): Promise<Pick<ControlPlaneClient, 'listRepositories'>>;
  addedIntegrations(): IntegrationSetting[];
  /**
   * Keeps the discovered integrations of the connection in effect (base URL + tenant): read on every use,
   * it answers for another connection as soon as that is in effect. None: kept in memory only.
   */
  discoveredStore?: DiscoveredStore;
}

interface DiscoveredStore {
  load(): DiscoveredSnapshot | undefined;
  save(snapshot: DiscoveredSnapshot): void;
}

export interface KnownIntegration extends IntegrationSetting {
  origin: 'added' | 'discovered';
}

export type RepositoryState =
  | { status: 'idle' }
  | { status: 'loading' }
  | {
      status: 'loaded';
      repositories: readonly Repository[];
      /** Records that do not match the API contract (not usable to create a deployment; each says why). */
      offContract: readonly OffContractRepository[];
      facts?: IntegrationFacts;
    }
  | { status: 'error'; error: unknown };

/**
 * The integrations the user knows of (added in settings, or discovered from deployments) and their
 * repositories, each fetched once and cached until invalidated. Shared by the tree, Find Repository
 * and the create flow.
 */
export class RepositoryCatalog {
  private readonly states = new Map<string, RepositoryState>();
  /** The load of each integration in flight: how many callers wait for it (one without a signal never leaves), and its stop. */
  private readonly inFlight = new Map<string, { done: Promise<readonly Repository[]>; callers: number; abort: AbortController }>();
  private readonly store: DiscoveredStore;
  private readonly changed = new Emitter<string | undefined>();
  /** Fires with an integration ID when its repositories changed, or undefined when the list did. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly source: RepositoryCatalogSource) {
    let kept: DiscoveredSnapshot | undefined;
    this.store = source.discoveredStore ?? { load: () => kept, save: (snapshot) => (kept = snapshot) };
  }

  addedIntegrationsChanged(): void {
    this.changed.fire(undefined);
  }

  /** Added ones first, in settings order, then discovered ones. */
  integrations(): KnownIntegration[] {
    const added = this.source.addedIntegrations().map((entry): KnownIntegration => ({ ...entry, origin: 'added' }));
    const addedIds = new Set(added.map((entry) => key(entry.id)));
    const discovered = this.found().ids.filter((id) => !addedIds.has(id));
    return [...added, ...discovered.map((id): KnownIntegration => ({ id, origin: 'discovered' }))];
  }

  find(integrationId: string): KnownIntegration | undefined {
    return this.integrations().find((entry) => key(entry.id) === key(integrationId));
  }

  /**
   * Records integrations seen in deployments, with the code host their repository URLs name where
   * known; answers how many were new. `scan`: from a full scan of every deployment (its time is kept).
   */
  addDiscovered(ids: Iterable<string>, codeHosts: Record<string, string> = {}, options: { scan?: boolean } = {}): number {
    const found = this.found();
    const known = new Set(this.integrations().map((entry) => key(entry.id)));
    const added = [...new Set([...ids].map(key))].filter((id) => !known.has(id));
    const hosts = { ...found.hosts, ...Object.fromEntries(Object.entries(codeHosts).map(([id, host]) => [key(id), host])) };
    const refreshed = added.length > 0 || options.scan;
    if (!refreshed && JSON.stringify(hosts) === JSON.stringify(found.hosts)) return 0;
    const now = Date.now();
    this.store.save({
      ids: [...found.ids, ...added],
      hosts,
      refreshedAt: refreshed ? now : found.refreshedAt,
      scannedAt: options.scan ? now : found.scannedAt,
    });
    if (refreshed) this.changed.fire(undefined);
    return added.length;
  }

  forgetDiscovered(integrationId: string): void {
    const found = this.found();
    const id = key(integrationId);
    if (!found.ids.includes(id)) return;
    const { [id]: _host, ...hosts } = found.hosts;
    this.store.save({ ...found, ids: found.ids.filter((other) => other !== id), hosts });
    this.changed.fire(undefined);
  }

  discoveryAge(): DiscoveryAge {
    const { refreshedAt, scannedAt } = this.found();
    return { refreshedAt, scannedAt };
  }

  /** The discovered integrations of the connection in effect, as stored (entries of another shape skipped). */
  private found(): DiscoveredSnapshot {
    const stored = this.store.load();
    const ids = (stored?.ids ?? []).filter((id) => typeof id === 'string').map(key);
    const hosts = Object.entries(stored?.hosts ?? {}).filter(([, host]) => typeof host === 'string');
    const { refreshedAt, scannedAt } = stored ?? {};
    return { ids: [...new Set(ids)], hosts: Object.fromEntries(hosts.map(([id, host]) => [key(id), host])), refreshedAt, scannedAt };
  }

  /**
   * What names an integration without a label (integrationLabel): once its repositories are loaded,
   * the code host and the owner most of them have; before, the code host its deployments name.
   */
  facts(integrationId: string): IntegrationFacts {
    const state = this.state(integrationId);
    if (state.status === 'loaded' && !state.facts) {
      const { repositories } = state;
      state.facts = { codeHost: mostCommonHost(repositories.map(({ url }) => url)), owner: mostCommon(repositories.map(({ owner }) => owner)) };
    }
    const loaded = state.status === 'loaded' ? state.facts : undefined;
    return { codeHost: loaded?.codeHost ?? this.found().hosts[key(integrationId)], owner: loaded?.owner };
  }

  /** An integration's name as shown: its label, else what the catalog knows of it (see facts). */
  label(integration: { id: string; label?: string }): string {
    return integrationLabel(integration, this.facts(integration.id));
  }

  state(integrationId: string): RepositoryState {
    return this.states.get(key(integrationId)) ?? { status: 'idle' };
  }

  cached(integrationId: string): readonly Repository[] | undefined {
    const state = this.state(integrationId);
    return state.status === 'loaded' ? state.repositories : undefined;
  }

  /**
   * The repositories, sorted by owner/name; fetched once, then from the cache. Callers asking while it loads share the
   * load: `signal` cancels this caller's wait, and the load itself only once every caller has gone.
   */
  repositories(integrationId: string, signal?: AbortSignal): Promise<readonly Repository[]> {
    const id = key(integrationId);
    const cached = this.cached(id);
    if (cached) return Promise.resolve(cached);
    if (signal?.aborted) return Promise.reject(new ControlPlaneError('cancelled'));
    let load = this.inFlight.get(id);
    if (!load || load.abort.signal.aborted) this.inFlight.set(id, (load = this.load(id, integrationId)));
    const shared = load;
    shared.callers++;
    if (!signal) return shared.done;
    return new Promise((resolve, reject) => {
      const leave = () => {
        reject(new ControlPlaneError('cancelled'));
        if (--shared.callers === 0) shared.abort.abort();
      };
      signal.addEventListener('abort', leave, { once: true });
      shared.done.then(
        (repositories) => (signal.removeEventListener('abort', leave), resolve(repositories)),
        (error: unknown) => (signal.removeEventListener('abort', leave), reject(error)),
      );
    });
  }

  private load(id: string, integrationId: string): { done: Promise<readonly Repository[]>; callers: number; abort: AbortController } {
    const abort = new AbortController();
    const load = { done: Promise.resolve<readonly Repository[]>([]), callers: 0, abort };
    // What a load that was superseded (every caller gone, then a new one asked) finds out is no longer the integration's state.
    const current = () => this.inFlight.get(id) === load;
    load.done = (async () => {
      this.setState(id, { status: 'loading' });
      try {
        const listing = await (await this.source.client()).listRepositories(integrationId, { signal: abort.signal });
        const repositories = sortRepositories(listing.repositories);
        if (current()) this.setState(id, { status: 'loaded', repositories, offContract: listing.offContract });
        return repositories;
      } catch (error) {
        if (current()) this.setState(id, isErrorOf(error, 'cancelled') ? undefined : { status: 'error', error });
        throw error;
      } finally {
        if (current()) this.inFlight.delete(id);
      }
    })();
    // Every caller may have gone: the load's own rejection is theirs to handle, not an unhandled one.
    load.done.catch(() => undefined);
    return load;
  }

  /** Drops the repositories of one integration, or of all. */
  invalidate(integrationId?: string): void {
    if (integrationId) return this.setState(key(integrationId), undefined);
    this.states.clear();
    this.changed.fire(undefined);
  }

  private setState(id: string, state: RepositoryState | undefined): void {
    if (state) this.states.set(id, state);
    else this.states.delete(id);
    this.changed.fire(id);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** How repositories are ordered: case and accents aside, numbers by value (`repo2` before `repo10`). */
export function repositoryCollator(): Intl.Collator {
  return new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
}

/**
 * By owner, then name, then ID (see repositoryCollator). Done once per fetch. Owners repeat across
 * many repositories, so the distinct owners are sorted once and each owner's repositories among
 * themselves: owners that collate as equal ("Acme", "acme") share one group.
 */
export function sortRepositories(repositories: readonly Repository[]): Repository[] {
  const { compare } = repositoryCollator();
  const owners = [...new Set(repositories.map((repository) => repository.owner))].sort(compare);
  const groups = new Map<string, Repository[]>();
  let group: Repository[] = [];
  owners.forEach((owner, index) => {
    if (index > 0 && compare(owners[index - 1], owner) !== 0) group = [];
    groups.set(owner, group);
  });
  for (const repository of repositories) groups.get(repository.owner)!.push(repository);
  return [...new Set(groups.values())].flatMap((members) => members.sort((a, b) => compare(a.name, b.name) || a.id - b.id));
}
