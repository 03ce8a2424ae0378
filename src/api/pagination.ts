import type { DeploymentPage } from './client';

/**
 * Why a page is the last. The response has no total and no "last page" flag, and its `offset` is an
 * opaque cursor (it need not grow: 0 → 5000 → 300 is legal), so a listing ends on:
 * - `empty`: a page with no records;
 * - `short`: fewer records than the limit;
 * - `cycle`: the response offset is one this listing already requested;
 * - `noNewRecords`: a full page holding no record the listing has not seen (a server that ignores `offset`).
 */
export type PageEnd = 'empty' | 'short' | 'cycle' | 'noNewRecords';

/**
 * The end rules one page shows on its own (empty, short, or the offset it was requested with); `count`
 * counts its records matching the contract or not. Undefined while more may exist.
 */
export function pageEnd(page: { requestedOffset: number; limit: number; count: number; nextOffset: number }): PageEnd | undefined {
  if (page.count === 0) return 'empty';
  if (page.count < page.limit) return 'short';
  return page.nextOffset === page.requestedOffset ? 'cycle' : undefined;
}

/**
 * The end rules across the pages of one listing: remembers the offsets requested and the records
 * seen. One per listing (a refresh starts anew); `walkPages` applies it.
 */
export class PageWalk {
  private readonly requested = new Set<number>();
  private readonly seen = new Set<string>();

  /** Applies every end rule to a page just received, its records matching the contract or not. */
  endOfPage(page: Pick<DeploymentPage, 'requestedOffset' | 'limit' | 'nextOffset' | 'deployments' | 'offContract'>): PageEnd | undefined {
    this.requested.add(page.requestedOffset);
    let fresh = false;
    for (const record of [...page.deployments, ...page.offContract.map((invalid) => invalid.raw)]) {
      const key = recordKey(record);
      if (key === undefined || !this.seen.has(key)) fresh = true;
      if (key !== undefined) this.seen.add(key);
    }
    const end = pageEnd({ ...page, count: page.deployments.length + page.offContract.length });
    if (end) return end;
    if (this.requested.has(page.nextOffset)) return 'cycle';
    return fresh ? undefined : 'noNewRecords';
  }
}

/**
 * The pages of one listing, one request per page asked for, until an end rule applies; `walk` judges every page
 * (pass the walk of a listing whose page failed to go on with it). `fetchPage` answers the first page (`previous`
 * undefined), then the page after `previous`: at its response offset, verbatim. The client's `deploymentPages` is
 * this over its listing.
 */
export async function* walkPages(fetchPage: (previous?: DeploymentPage) => Promise<DeploymentPage>, walk = new PageWalk()): AsyncGenerator<DeploymentPage> {
  let page = await fetchPage();
  for (;;) {
    // The rules across pages, or the end the page showed on its own.
    page.end = walk.endOfPage(page) ?? page.end;
    page.mayHaveMore = page.end === undefined;
    yield page;
    if (!page.mayHaveMore) return;
    page = await fetchPage(page);
  }
}

/**
 * What identifies a listed record for the "no new record" rule: its `id`, else its name and
 * creation time; undefined (always counted as new) when it has neither.
 */
function recordKey(record: unknown): string | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const { id, name, created_at: createdAt } = record as Record<string, unknown>;
  if (typeof id === 'string' && id) return `id:${id.trim().toLowerCase()}`;
  if (typeof name === 'string' && name) return `name:${name}\u0000${typeof createdAt === 'string' ? createdAt : ''}`;
  return undefined;
}
