/**
 * The end rules of the deployment listing. The response has no total and no
 * "last page" flag, so the client stops when a page is empty, shorter than the
 * limit, or when the server's next offset does not move forward (a guard
 * against a server that would otherwise make us loop forever).
 */
export function mayHaveMorePages(page: {
  requestedOffset: number;
  limit: number;
  count: number;
  nextOffset: number;
}): boolean {
  if (page.count === 0) return false;
  if (page.count < page.limit) return false;
  return page.nextOffset > page.requestedOffset;
}
