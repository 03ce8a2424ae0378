/**
 * The zod-backed half of the API (the schemas and the client), loaded on
 * first use. Building the schemas is most of the bundle's load time, and
 * activation needs none of them: the client is built when a view first asks
 * for data. Everything else (errors, query, vocabulary) is plain and cheap.
 * Use these for values; `import type` from './client' or './schemas' is free.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const loadClient = (): typeof import('./client') => require('./client');
export const loadSchemas = (): typeof import('./schemas') => require('./schemas');
/* eslint-enable @typescript-eslint/no-require-imports */
