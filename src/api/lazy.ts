/**
 * The API client and the zod schemas as values, loaded when a view first asks for data, not at
 * activation: zod comes with them (esbuild.js leaves it out of dist/extension.js); so does Check
 * Connection's probe. `import type` from these modules is free.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const loadClient = (): typeof import('./client') => require('./client');
export const loadSchemas = (): typeof import('./schemas') => require('./schemas');
export const loadConnectionCheck = (): typeof import('./connectionCheck') => require('./connectionCheck');
/* eslint-enable @typescript-eslint/no-require-imports */
