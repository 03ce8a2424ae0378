/**
 * The API client and the zod schemas as values, loaded when a view first asks for data, not at
 * activation: zod and undici come with them (esbuild.js leaves both out of dist/extension.js); so
 * are the reading of the OS's certificates and Check Connection's probe, which need the client or TLS.
 * `import type` from these modules is free.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const loadClient = (): typeof import('./client') => require('./client');
export const loadSchemas = (): typeof import('./schemas') => require('./schemas');
export const loadTrust = (): typeof import('./trust') => require('./trust');
export const loadConnectionCheck = (): typeof import('./connectionCheck') => require('./connectionCheck');
/* eslint-enable @typescript-eslint/no-require-imports */
