/** The contract's plain values, for settings, filters and views that must not load the zod schemas. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => uuidPattern.test(value);

export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;
export type DeploymentType = (typeof DEPLOYMENT_TYPES)[number];

/** Status values seen on real servers; the list is open, any string may come back. */
export const KNOWN_STATUSES = ['AWAITING_DATABASE', 'READY', 'UNUSED', 'AWAITING_DELETE', 'UNKNOWN'] as const;
