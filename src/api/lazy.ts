/**
 * The API client and the zod schemas as values, loaded when a view first asks for data, not at
 * activation: zod and undici come with them (esbuild.js leaves both out of dist/extension.js).
 * `import type` from './client' or './schemas' is free.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const loadClient = (): typeof import('./client') => require('./client');
export const loadSchemas = (): typeof import('./schemas') => require('./schemas');
/* eslint-enable @typescript-eslint/no-require-imports */
