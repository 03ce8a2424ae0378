/** Why a page is the last: nothing came, less than the limit came, or the server's offset did not move. */
export type PageEnd = 'empty' | 'short' | 'offsetStuck';

/**
 * The end rules of the deployment listing. The response has no total and no
 * "last page" flag, so the client stops when a page is empty, shorter than the
 * limit, or when the server's next offset does not move forward (a guard
 * against a server that would otherwise make us loop forever). Undefined while
 * more pages may exist.
 */
export function pageEnd(page: { requestedOffset: number; limit: number; count: number; nextOffset: number }): PageEnd | undefined {
  if (page.count === 0) return 'empty';
  if (page.count < page.limit) return 'short';
  return page.nextOffset > page.requestedOffset ? undefined : 'offsetStuck';
}
