/**
 * The undici modules the transport uses, gathered in one module. The release
 * build makes this its own file, dist/undici.js (esbuild.js), so activating
 * the extension does not even parse undici: transportDeps.ts requires it when
 * the first client is built. Unbundled (tests), it is a plain module.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export const dispatcher = require('undici/lib/dispatcher/dispatcher');
export const api = require('undici/lib/api');
export const agent = require('undici/lib/dispatcher/agent');
export const proxyAgent = require('undici/lib/dispatcher/proxy-agent');
export const apiRequest = require('undici/lib/api/api-request');
/* eslint-enable @typescript-eslint/no-require-imports */
