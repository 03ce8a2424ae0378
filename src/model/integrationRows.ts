/** The Integrations tree's rows without vscode: what each row is, and the rows of one listing, shown a page at a time. */
import type { OffContractRepository, Repository } from '../api';
import * as l10n from '@vscode/l10n';
import type { FixRow } from './fixActions';
import { idKey as key } from './ids';
import { type KnownIntegration, repositoryCollator } from './repositoryCatalog';
import { remoteKey } from './remoteUrls';

/** The elements of the Integrations tree. Each row below an integration names it (`integrationId`): its parent. */
export type IntegrationsTreeNode = IntegrationNode | RepositoryNode | MessageNode | MoreNode | FixNode;

export interface IntegrationNode {
  readonly kind: 'integration';
  integration: KnownIntegration;
}

export interface RepositoryNode {
  readonly kind: 'repository';
  readonly integrationId: string;
  readonly repository: Repository;
  /** Stable tree-item ID, so TreeView.reveal finds the row again. */
  readonly id: string;
}

/**
 * A row that is not data: a load failure (`error`, retried on click), an informative note (`empty`),
 * or a listed repository that does not match the API contract (`offContract`).
 */
export interface MessageNode {
  readonly kind: 'message';
  readonly role: 'error' | 'empty' | 'offContract';
  readonly integrationId: string;
  readonly message: string;
  readonly id: string;
  readonly error?: unknown;
  /** For `offContract`: the record as listed, what is wrong with it and why it cannot be used to create a deployment. */
  readonly offContract?: OffContractRepository;
}

/** A fix beside an integration's error row (Set API Key…), as in every tree. */
export type FixNode = FixRow & { readonly integrationId: string };

/** The last row of an integration whose rows are not all shown (RepositoryRows): "Show 1,000 more…". */
export interface MoreNode {
  readonly kind: 'more';
  readonly integrationId: string;
  readonly id: string;
  /** Rows shown above it, rows the next page adds, rows in all. */
  readonly shown: number;
  readonly next: number;
  readonly total: number;
  /** The listing it pages through: activating a row left from before a refresh does nothing. */
  readonly listing: readonly Repository[];
}

/** True for a repository row (what menu commands on repositories receive as their argument). */
export function isRepositoryNode(value: unknown): value is RepositoryNode {
  const node = value as Partial<RepositoryNode> | undefined;
  return node?.kind === 'repository' && typeof node.integrationId === 'string' && typeof node.repository === 'object' && node.repository !== null;
}

/** A command's argument → the integration ID: a plain ID (tests, other features), or the integration of a row. */
export function integrationIdOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const node = value as { kind?: unknown; integration?: { id?: unknown }; integrationId?: unknown } | null | undefined;
  const id = node?.kind === 'integration' ? node.integration?.id : node?.integrationId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * How many rows an expanded integration shows at first, and how many each "Show … more" row adds.
 * VS Code builds, sends and keeps a TreeItem for every child of an expanded branch: 1,000 are cheap,
 * yet more than anyone reads by scrolling (Find Repository… searches them all), and a smaller page
 * would make scrolling a long list a click every screen or two.
 */
export const REPOSITORY_PAGE_SIZE = 1_000;

/**
 * The rows of one integration's listing, shown a page at a time. A row's node is built when first
 * shown and kept: rows already shown stay the same objects with the same IDs when a page is added
 * (VS Code keeps selection and focus). One per listing: a refreshed listing starts at one page.
 */
export class RepositoryRows {
  /** Every repository, with the off-contract records in their places among them. */
  private readonly entries: ReadonlyArray<Repository | OffContractRepository>;
  private readonly shownRows: Array<RepositoryNode | MessageNode> = [];
  private readonly prefix: string;
  /** How often each repository ID was built: tree-item IDs must be unique, so a repeat gets `#2`, `#3`… */
  private readonly idCounts = new Map<number, number>();
  private urlIndex: Map<string, number> | undefined;
  private answer: IntegrationsTreeNode[] | undefined;

  constructor(
    readonly integrationId: string,
    readonly repositories: readonly Repository[],
    invalid: readonly OffContractRepository[],
  ) {
    this.entries = withOffContract(repositories, invalid);
    this.prefix = `${key(integrationId)}/`;
    this.showUpTo(REPOSITORY_PAGE_SIZE);
  }

  get shown(): number {
    return this.shownRows.length;
  }

  /** The shown rows, then a "more" row while rows remain (or a note that there are none). The same array until more are shown. */
  children(): IntegrationsTreeNode[] {
    if (this.answer) return this.answer;
    const { integrationId, prefix, repositories: listing } = this;
    const [shown, total] = [this.shownRows.length, this.entries.length];
    if (total === 0) {
      const message = l10n.t('No repositories visible through this integration');
      return (this.answer = [{ kind: 'message', role: 'empty', integrationId, message, id: `${prefix}empty` }]);
    }
    const next = Math.min(REPOSITORY_PAGE_SIZE, total - shown);
    const more: MoreNode[] = next > 0 ? [{ kind: 'more', integrationId, id: `${prefix}more`, shown, next, total, listing }] : [];
    return (this.answer = [...this.shownRows, ...more]);
  }

  /** Shows the next page, or (`all`) every row; answers how many rows were added (0: all were shown). */
  showMore(all = false): number {
    return this.showUpTo(all ? this.entries.length : this.shownRows.length + REPOSITORY_PAGE_SIZE);
  }

  /**
   * The row of the repository with this URL (scheme, user, host case, `.git` and slashes ignored: remoteKey); when it
   * is beyond the shown rows, the shown rows are first extended, by whole pages, to include it.
   */
  find(repositoryUrl: string): RepositoryNode | undefined {
    const urlKey = (url: string) => remoteKey(url) ?? url.trim();
    if (!this.urlIndex) {
      const index = (this.urlIndex = new Map());
      this.entries.forEach((entry, row) => {
        const url = isOffContract(entry) ? undefined : urlKey(entry.url);
        if (url !== undefined && !index.has(url)) index.set(url, row);
      });
    }
    const row = this.urlIndex.get(urlKey(repositoryUrl));
    if (row === undefined) return undefined;
    this.showUpTo(Math.ceil((row + 1) / REPOSITORY_PAGE_SIZE) * REPOSITORY_PAGE_SIZE);
    return this.shownRows[row] as RepositoryNode;
  }

  /** Builds the nodes of the rows up to `count` (or of all, when there are fewer); answers how many were added. */
  private showUpTo(count: number): number {
    const before = this.shownRows.length;
    for (const entry of this.entries.slice(before, count)) {
      this.shownRows.push(isOffContract(entry) ? this.offContractNode(entry) : this.repositoryNode(entry));
    }
    if (this.shownRows.length > before) this.answer = undefined;
    return this.shownRows.length - before;
  }

  private repositoryNode(repository: Repository): RepositoryNode {
    const seen = (this.idCounts.get(repository.id) ?? 0) + 1;
    this.idCounts.set(repository.id, seen);
    const id = `${this.prefix}repo/${repository.id}${seen > 1 ? `#${seen}` : ''}`;
    return { kind: 'repository', integrationId: this.integrationId, repository, id };
  }

  private offContractNode(record: OffContractRepository): MessageNode {
    return {
      kind: 'message',
      role: 'offContract',
      integrationId: this.integrationId,
      message: record.name || record.id || l10n.t('Record {0} of the listing', record.index + 1),
      offContract: record,
      id: `${this.prefix}offContract/${record.index}`,
    };
  }
}

const isOffContract = (entry: Repository | OffContractRepository): entry is OffContractRepository => 'usableForCreate' in entry;

/**
 * The repositories with each off-contract record where its owner/name sorts (binary search: the catalog
 * sorted the listing so), after equal ones; one without owner or name goes last. Ties keep listing order.
 */
function withOffContract(repositories: readonly Repository[], invalid: readonly OffContractRepository[]): ReadonlyArray<Repository | OffContractRepository> {
  if (invalid.length === 0) return repositories;
  const { compare } = repositoryCollator();
  const placed = invalid.map((record) => {
    const owner = (record.raw as { owner?: unknown } | null)?.owner;
    const name = record.name;
    if (typeof owner !== 'string' || !name) return { record, before: repositories.length };
    let [low, high] = [0, repositories.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((compare(repositories[middle].owner, owner) || compare(repositories[middle].name, name)) <= 0) low = middle + 1;
      else high = middle;
    }
    return { record, before: low };
  });
  const entries: Array<Repository | OffContractRepository> = [...repositories];
  // From the last place back, so that the places still to fill keep their index.
  placed.sort((a, b) => b.before - a.before || b.record.index - a.record.index);
  for (const { record, before } of placed) entries.splice(before, 0, record);
  return entries;
}
