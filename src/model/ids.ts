/** The form IDs are compared and indexed in: servers may send UUIDs in any case, with stray spaces. */
export function idKey(id: string): string {
  return id.trim().toLowerCase();
}

/** Shortens a UUID for labels: `3f2a9c1e…`. */
export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}
