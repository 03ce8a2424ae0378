import type { InvalidRepository, Repository } from '../api';
import * as l10n from '@vscode/l10n';
import { idKey as key } from './ids';
import type { IntegrationsTreeNode, MessageNode, MoreNode, RepositoryNode } from './integrationNodes';
import { normaliseRepositoryUrl } from './integrationPresentation';
import { repositoryCollator } from './repositoryCatalog';

/**
 * How many rows an expanded integration shows at first, and how many each "Show … more" row adds.
 * VS Code builds and sends a TreeItem for every child of an expanded branch to the renderer at
 * once, and keeps them all: 100k children cost the extension ~100 ms and the workbench much more.
 * 1,000 rows are a few milliseconds on both sides, yet more than anyone reads by scrolling (Find
 * Repository… searches them all); a much smaller page would make scrolling a long list a click
 * every screen or two.
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
  private readonly built: IntegrationsTreeNode[] = [];
  private nextRepository = 0;
  private nextInvalid = 0;
  /** The off-contract records in row order, each with the index of the repository it comes before (repositories.length: after all). */
  private readonly placed: { record: InvalidRepository; before: number }[];
  private readonly prefix: string;
  // Tree-item IDs must be unique; a server repeating a repository must not break the view.
  // Repeats get `#2`, `#3`…; the set holds numbers (cheap), and strings only for repeats.
  private readonly seenIds = new Set<unknown>();
  private readonly repeats = new Set<string>();
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

  /** How many rows the next "Show … more" adds: a page, or what remains. */
  get next(): number {
    return Math.min(this.pageSize, this.total - this.shownCount);
  }

  /**
   * What the integration's branch shows: the shown rows, then a "more" row while rows remain.
   * The same array until the shown count changes.
   */
  children(): IntegrationsTreeNode[] {
    if (this.answer) return this.answer;
    this.build(this.shownCount);
    const answer = this.built.slice(0, this.shownCount);
    if (this.shownCount < this.total) {
      const more: MoreNode = {
        kind: 'more',
        integrationId: this.integrationId,
        id: `${this.prefix}more`,
        shown: this.shownCount,
        next: this.next,
        total: this.total,
        listing: this.repositories,
      };
      answer.push(more);
    }
    return (this.answer = answer);
  }

  /** Shows the next page; answers how many rows were added (0: all were shown). */
  showMore(): number {
    return this.showUpTo(this.shownCount + this.pageSize);
  }

  /** Shows every row; answers how many were added. */
  showAll(): number {
    return this.showUpTo(this.total);
  }

  /**
   * The row of the repository with this URL (host case, `.git`, slashes ignored); when it is beyond
   * the shown rows, the shown rows are first extended, by whole pages, to include it.
   */
  find(repositoryUrl: string): RepositoryNode | undefined {
    const index = this.indexOfUrl(normaliseRepositoryUrl(repositoryUrl));
    if (index === undefined) return undefined;
    const row = index + this.invalidBefore(index);
    if (row >= this.shownCount) this.showUpTo(Math.ceil((row + 1) / this.pageSize) * this.pageSize);
    this.build(row + 1);
    return this.built[row] as RepositoryNode;
  }

  private showUpTo(count: number): number {
    const shown = Math.min(this.total, Math.max(this.shownCount, count));
    const added = shown - this.shownCount;
    if (added > 0) {
      this.shownCount = shown;
      this.answer = undefined;
    }
    return added;
  }

  private indexOfUrl(normalised: string): number | undefined {
    if (!this.urlIndex) {
      this.urlIndex = new Map();
      for (let i = 0; i < this.repositories.length; i++) {
        const url = normaliseRepositoryUrl(this.repositories[i].url);
        if (!this.urlIndex.has(url)) this.urlIndex.set(url, i);
      }
    }
    return this.urlIndex.get(normalised);
  }

  /** How many off-contract rows come before the repository at `index`. */
  private invalidBefore(index: number): number {
    let low = 0;
    let high = this.placed.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.placed[middle].before <= index) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Builds the nodes of the first `count` rows (or of all, when there are fewer). */
  private build(count: number): void {
    const { built, repositories, placed } = this;
    while (built.length < count) {
      const invalid = placed[this.nextInvalid];
      if (invalid && invalid.before <= this.nextRepository) {
        built.push(this.offContractNode(invalid.record));
        this.nextInvalid++;
      } else if (this.nextRepository < repositories.length) {
        built.push(this.repositoryNode(repositories[this.nextRepository++]));
      } else {
        break;
      }
    }
  }

  private repositoryNode(repository: Repository): RepositoryNode {
    let id = `${this.prefix}repo/${repository.id}`;
    if (this.seenIds.has(repository.id)) {
      let n = 2;
      while (this.repeats.has(`${id}#${n}`)) n++;
      id = `${id}#${n}`;
      this.repeats.add(id);
    }
    this.seenIds.add(repository.id);
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
function placeInvalid(repositories: readonly Repository[], invalid: readonly InvalidRepository[]): { record: InvalidRepository; before: number }[] {
  if (invalid.length === 0) return [];
  // The order sortRepositories sorted in, so the search follows it.
  const collator = repositoryCollator();
  const placed = invalid.map((record) => {
    const raw = record.raw;
    const owner = raw && typeof raw === 'object' ? (raw as { owner?: unknown }).owner : undefined;
    const name = record.name;
    if (typeof owner !== 'string' || !name) return { record, before: repositories.length };
    let low = 0;
    let high = repositories.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const repository = repositories[middle];
      const order = collator.compare(repository.owner, owner) || collator.compare(repository.name, name);
      if (order <= 0) low = middle + 1;
      else high = middle;
    }
    return { record, before: low };
  });
  return placed.sort((a, b) => a.before - b.before || a.record.index - b.record.index);
}
