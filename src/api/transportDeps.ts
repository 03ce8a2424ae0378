/**
 * What the HTTP transport needs from undici and node:tls, loaded when the
 * first client is built rather than when the extension loads.
 *
 * - undici's parts are required one by one: its index also loads fetch,
 *   WebSocket, the caches, the mocks and 24 more node built-ins (about 400 KB
 *   of the bundle). Used: a dispatcher (Agent, or ProxyAgent for a proxy,
 *   each with its own TLS options) and `request`.
 * - Each is required on first use, so activating the extension (which builds
 *   no client) evaluates none of undici, node:net, node:tls or node:http.
 * Types come from undici's own declarations.
 */
import type * as Undici from 'undici';

/* eslint-disable @typescript-eslint/no-require-imports */
let parts: typeof import('./undiciParts') | undefined;
/**
 * undici's parts (dist/undici.js in the release build), and first what undici's index does: its
 * dispatchers call `request`/`connect` on each other (a ProxyAgent tunnels with `connect`).
 */
function undici(): typeof import('./undiciParts') {
  if (!parts) {
    parts = require('./undiciParts') as typeof import('./undiciParts');
    Object.assign(parts.dispatcher.prototype, parts.api);
  }
  return parts;
}
const load = {
  agent: (): typeof Undici.Agent => undici().agent,
  proxyAgent: (): typeof Undici.ProxyAgent => undici().proxyAgent,
  request: (): ((this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData>) =>
    undici().apiRequest,
  rootCertificates: (): readonly string[] => require('node:tls').rootCertificates,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** A constructor that requires its class on the first `new`. */
function lazyClass<C extends new (...args: never[]) => object>(get: () => C): C {
  let real: C | undefined;
  return function (...args: ConstructorParameters<C>) {
    real ??= get();
    return new real(...args);
  } as unknown as C;
}

export const Agent = lazyClass(load.agent);
export const ProxyAgent = lazyClass(load.proxyAgent);
export type Dispatcher = Undici.Dispatcher;

/** node:tls's built-in root certificates, read on first use (they are only spread into a CA list). */
export const rootCertificates: readonly string[] = new Proxy([] as string[], {
  get: (_target, property) => {
    const real = load.rootCertificates();
    const value = Reflect.get(real, property, real);
    return typeof value === 'function' ? value.bind(real) : value;
  },
  has: (_target, property) => Reflect.has(load.rootCertificates(), property),
});

let requestOn: ReturnType<typeof load.request> | undefined;

/** undici's `request(url, options)`, on the dispatcher the options name (never the global one). */
export function request(
  url: URL,
  options: Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Undici.Dispatcher },
): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  requestOn ??= load.request();
  return requestOn.call(dispatcher, {
    ...rest,
    origin: url.origin,
    path: url.search ? `${url.pathname}${url.search}` : url.pathname,
    method: rest.method || 'GET',
  });
}
