import type { InvalidRepository, Repository } from '../api';
import * as l10n from '@vscode/l10n';
import { idKey as key } from './ids';
import type { IntegrationsTreeNode, MessageNode, RepositoryNode } from './integrationNodes';
import { normaliseRepositoryUrl } from './integrationPresentation';
import { repositoryCollator } from './repositoryCatalog';

/**
 * How many rows an expanded integration shows at first, and how many each "Show … more" row adds.
 * VS Code builds and sends a TreeItem for every child of an expanded branch to the renderer at
 * once, and keeps them all. 1,000 rows are a few milliseconds on both sides, yet more than anyone
 * reads by scrolling (Find Repository… searches them all); a much smaller page would make scrolling
 * a long list a click every screen or two.
 */
export const REPOSITORY_PAGE_SIZE = 1_000;

/**
 * The rows of one integration's listing (sorted repositories, with its off-contract records among
 * them), shown a page at a time. A row's node is built the first time it is shown and kept, so the
 * rows already shown are the same objects with the same IDs when a page is added (VS Code keeps
 * selection and focus), and nothing is built for rows not shown. One per listing: a refreshed
 * listing gets a new one, which starts again at one page.
 */
export class RepositoryRows {
  /** Rows in all: every repository and every off-contract record. */
  readonly total: number;
  private shownCount: number;
  /** The first rows, built so far, in order. */
  private readonly built: Array<RepositoryNode | MessageNode> = [];
  private nextRepository = 0;
  /** The off-contract records in row order, each with the index of the repository it comes before (repositories.length: after all). */
  private readonly placed: Array<{ record: InvalidRepository; before: number }>;
  private readonly prefix: string;
  /** How often each repository ID was built: tree-item IDs must be unique, so a repeat gets `#2`, `#3`… */
  private readonly idCounts = new Map<number, number>();
  private urlIndex: Map<string, number> | undefined;
  private answer: IntegrationsTreeNode[] | undefined;

  constructor(
    readonly integrationId: string,
    readonly repositories: readonly Repository[],
    invalid: readonly InvalidRepository[] = [],
    readonly pageSize = REPOSITORY_PAGE_SIZE,
  ) {
    this.total = repositories.length + invalid.length;
    this.shownCount = Math.min(pageSize, this.total);
    this.prefix = `${key(integrationId)}/`;
    this.placed = placeInvalid(repositories, invalid);
  }

  /** Rows shown now. */
  get shown(): number {
    return this.shownCount;
  }

  /**
   * What the integration's branch shows: the shown rows, then a "more" row while rows remain (or a
   * note that there are none). The same array until the shown count changes.
   */
  children(): IntegrationsTreeNode[] {
    if (this.answer) return this.answer;
    if (this.total === 0) {
      const message = l10n.t('No repositories visible through this integration');
      return (this.answer = [{ kind: 'message', role: 'empty', integrationId: this.integrationId, message, id: `${this.prefix}empty` }]);
    }
    this.build(this.shownCount);
    const answer: IntegrationsTreeNode[] = this.built.slice(0, this.shownCount);
    if (this.shownCount < this.total) {
      const next = Math.min(this.pageSize, this.total - this.shownCount);
      const { integrationId, total, repositories: listing } = this;
      answer.push({ kind: 'more', integrationId, id: `${this.prefix}more`, shown: this.shownCount, next, total, listing });
    }
    return (this.answer = answer);
  }

  /** Shows the next page, or (`all`) every row; answers how many rows were added (0: all were shown). */
  showMore(all = false): number {
    return this.showUpTo(all ? this.total : this.shownCount + this.pageSize);
  }

  /**
   * The row of the repository with this URL (host case, `.git`, slashes ignored); when it is beyond
   * the shown rows, the shown rows are first extended, by whole pages, to include it.
   */
  find(repositoryUrl: string): RepositoryNode | undefined {
    if (!this.urlIndex) {
      this.urlIndex = new Map();
      for (const [index, repository] of this.repositories.entries()) {
        const url = normaliseRepositoryUrl(repository.url);
        if (!this.urlIndex.has(url)) this.urlIndex.set(url, index);
      }
    }
    const index = this.urlIndex.get(normaliseRepositoryUrl(repositoryUrl));
    if (index === undefined) return undefined;
    const row = index + this.placed.filter((entry) => entry.before <= index).length;
    if (row >= this.shownCount) this.showUpTo(Math.ceil((row + 1) / this.pageSize) * this.pageSize);
    this.build(row + 1);
    return this.built[row] as RepositoryNode;
  }

  private showUpTo(count: number): number {
    const added = Math.min(this.total, count) - this.shownCount;
    if (added <= 0) return 0;
    this.shownCount += added;
    this.answer = undefined;
    return added;
  }

  /** Builds the nodes of the first `count` rows (or of all, when there are fewer). */
  private build(count: number): void {
    for (let row = this.built.length; row < Math.min(count, this.total); row++) {
      // Rows so far: `nextRepository` repositories, the rest off-contract records.
      const invalid = this.placed[row - this.nextRepository];
      this.built.push(
        invalid && invalid.before <= this.nextRepository
          ? this.offContractNode(invalid.record)
          : this.repositoryNode(this.repositories[this.nextRepository++]),
      );
    }
  }

  private repositoryNode(repository: Repository): RepositoryNode {
    const seen = (this.idCounts.get(repository.id) ?? 0) + 1;
    this.idCounts.set(repository.id, seen);
    const id = `${this.prefix}repo/${repository.id}${seen > 1 ? `#${seen}` : ''}`;
    return { kind: 'repository', integrationId: this.integrationId, repository, id };
  }

  private offContractNode(record: InvalidRepository): MessageNode {
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

/**
 * Where each off-contract record goes among the sorted repositories: where its owner/name sorts (the
 * catalog sorts the listing that way, so a binary search finds the place), after the repositories
 * of the same owner and name; a record without an owner or name goes last. Records at the same
 * place keep the listing's order.
 */
function placeInvalid(repositories: readonly Repository[], invalid: readonly InvalidRepository[]): Array<{ record: InvalidRepository; before: number }> {
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
  return placed.sort((a, b) => a.before - b.before || a.record.index - b.record.index);
}
