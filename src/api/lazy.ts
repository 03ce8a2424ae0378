/**
 * The API client and the zod schemas, loaded on first use (when a view first asks for data), not at
 * activation. zod and undici come with them: the release build leaves both out of dist/extension.js
 * (esbuild.js). Everything else of the API (errors, query, vocabulary) is plain and cheap.
 * Use these for values; `import type` from './client' or './schemas' is free.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const loadClient = (): typeof import('./client') => require('./client');
export const loadSchemas = (): typeof import('./schemas') => require('./schemas');
/* eslint-enable @typescript-eslint/no-require-imports */
