/**
 * Why a page is the last. The response has no total and no "last page" flag,
 * and its `offset` is an opaque cursor (it need not grow: 0 → 5000 → 300 is
 * legal), so a listing ends on:
 * - `empty`: a page with no records;
 * - `short`: fewer records than the limit;
 * - `cycle`: the response offset is one this listing already requested;
 * - `noNewRecords`: a full page holding no record the listing has not seen
 *   already (a server that ignores `offset`).
 */
export type PageEnd = 'empty' | 'short' | 'cycle' | 'noNewRecords';

export interface PageFacts {
  requestedOffset: number;
  limit: number;
  /** Records in the page, matching the contract or not. */
  count: number;
  nextOffset: number;
}

/**
 * The end rules one page shows on its own (empty, short, or a response
 * offset equal to the one requested). Undefined while more pages may exist.
 */
export function pageEnd(page: PageFacts): PageEnd | undefined {
  if (page.count === 0) return 'empty';
  if (page.count < page.limit) return 'short';
  return page.nextOffset === page.requestedOffset ? 'cycle' : undefined;
}

/**
 * The end rules across the pages of one listing: remembers the offsets
 * requested and the records seen. One per listing (a refresh starts anew).
 * The client's page iterator and the view's list both use it.
 */
export class PageWalk {
  private readonly requested = new Set<number>();
  private readonly seen = new Set<string>();

  /** Applies every end rule to a page just received; `keys` are its records' `recordKey`s. */
  end(page: PageFacts, keys: Iterable<string | undefined>): PageEnd | undefined {
    this.requested.add(page.requestedOffset);
    let fresh = false;
    for (const key of keys) {
      if (key === undefined) fresh = true;
      else if (!this.seen.has(key)) {
        this.seen.add(key);
        fresh = true;
      }
    }
    const single = pageEnd(page);
    if (single) return single;
    if (this.requested.has(page.nextOffset)) return 'cycle';
    return fresh ? undefined : 'noNewRecords';
  }

  /** `end` for a listed page of deployments: its facts and record keys (valid or not) taken from the page. */
  endOfPage(page: ListedPage): PageEnd | undefined {
    const { requestedOffset, limit, nextOffset, deployments, invalid } = page;
    return this.end({ requestedOffset, limit, count: deployments.length + invalid.length, nextOffset }, pageKeys(page));
  }
}

/**
 * What identifies a listed record for the "no new record" rule: its `id`,
 * else its name and creation time; undefined (always counted as new) when it
 * has neither. Reads two or three fields; no serialisation.
 */
function recordKey(record: unknown): string | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const { id, name, created_at: createdAt } = record as Record<string, unknown>;
  if (typeof id === 'string' && id) return `id:${id.trim().toLowerCase()}`;
  if (typeof name === 'string' && name) return `name:${name}\u0000${typeof createdAt === 'string' ? createdAt : ''}`;
  return undefined;
}

/** What `PageWalk.endOfPage` reads of a page. */
interface ListedPage {
  requestedOffset: number;
  limit: number;
  nextOffset: number;
  deployments: readonly unknown[];
  invalid: ReadonlyArray<{ raw: unknown }>;
}

/** The keys of every record of a page, matching the contract or not, for the "no new record" rule. */
function pageKeys(page: Pick<ListedPage, 'deployments' | 'invalid'>): (string | undefined)[] {
  const keys: (string | undefined)[] = [];
  for (const deployment of page.deployments) keys.push(recordKey(deployment));
  for (const record of page.invalid) keys.push(recordKey(record.raw));
  return keys;
}
