import type { ConnectionOptions } from './http';
import { Redactor } from './text';

/** Whether requests to a control plane go through a proxy, which, and why. */
export interface ProxyRoute {
  /** The proxy URL, its user name and password included; undefined: straight to the server. */
  readonly proxy?: string;
  /**
   * `setting`: VS Code's http.proxy; `environment`: HTTPS_PROXY or HTTP_PROXY; `noProxy`: a proxy is set but the
   * host is in http.noProxy or NO_PROXY; `proxySupportOff`: http.proxySupport is off; `none`: no proxy is set.
   */
  readonly reason: 'setting' | 'environment' | 'noProxy' | 'proxySupportOff' | 'none';
  /** The environment variable the proxy came from, or the no-proxy entry the host matched. */
  readonly source?: string;
}

/**
 * The one decision of where requests to `target` go, as VS Code decides for extensions: nowhere but straight
 * when http.proxySupport is off; else http.proxy, or the environment's proxy for the scheme, unless the host is
 * in http.noProxy or NO_PROXY.
 */
export function proxyRoute(target: URL, options: Pick<ConnectionOptions, 'proxyUrl' | 'noProxy' | 'proxySupport' | 'env'>): ProxyRoute {
  if (options.proxySupport === 'off') return { reason: 'proxySupportOff' };
  const env = options.env ?? process.env;
  const variables = target.protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] : ['HTTP_PROXY', 'http_proxy'];
  const variable = variables.find((name) => env[name] !== undefined);
  const setting = options.proxyUrl?.trim();
  const found = setting || (variable && env[variable]?.trim());
  if (!found) return { reason: 'none' };
  // `proxy:3128` (common in HTTPS_PROXY) means an http:// proxy, as for curl and git; read as a URL it has no host.
  const proxy = /^[a-z][a-z\d+.-]*:\/\//i.test(found) ? found : `http://${found}`;
  const entry = noProxyEntry(target, `${options.noProxy ?? ''},${env.NO_PROXY ?? env.no_proxy ?? ''}`);
  if (entry !== undefined) return { reason: 'noProxy', source: entry };
  return setting ? { proxy, reason: 'setting' } : { proxy, reason: 'environment', source: variable };
}

/**
 * The entry of a no-proxy list (comma- or space-separated) that `target` matches: `*`, or a host name or address
 * that is the target's host or a parent domain of it (`example.com` and `.example.com` both cover
 * `api.example.com`, as in VS Code and curl), with `:port` only that port.
 */
function noProxyEntry(target: URL, list: string): string | undefined {
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return list.split(/[\s,]+/).find((entry) => {
    if (entry === '*') return true;
    // `name`, `name:port`, `[v6]`, `[v6]:port`; a bare IPv6 address (several colons) has no port.
    const parsed = /^(?:\[(.+)\]|([^:]+))(?::(\d+))?$/.exec(entry);
    const name = (parsed ? (parsed[1] ?? parsed[2]) : entry).toLowerCase().replace(/^\*?\./, '');
    if (!name || (parsed?.[3] !== undefined && parsed[3] !== port)) return false;
    return host === name || host.endsWith(`.${name}`);
  });
}

/**
 * The Proxy-Authorization sent to `proxy`, and where it comes from: http.proxyAuthorization's value, else HTTP
 * Basic of the user name and password in its URL.
 */
export function proxyCredentials(proxy: string, proxyAuthorization: string | undefined): { from: 'proxyAuthorization' | 'url' | 'none'; header?: string } {
  const authorization = proxyAuthorization?.trim();
  if (authorization) return { from: 'proxyAuthorization', header: authorization };
  const url = URL.canParse(proxy) ? new URL(proxy) : undefined;
  return url?.username && url.password ? { from: 'url', header: `Basic ${basicCredentials(url)}` } : { from: 'none' };
}

/** The one redactor of a connection's secrets: its API key, and the password and credentials its proxy is given. */
export function connectionRedactor(options: ConnectionOptions, route = proxyRoute(new URL(options.baseUrl.trim()), options)): Redactor {
  const authorization = options.proxyAuthorization?.trim();
  const url = route.proxy && URL.canParse(route.proxy) ? new URL(route.proxy) : undefined;
  return new Redactor(
    options.apiKey,
    ...(authorization ? [authorization, authorization.replace(/^\S+\s+/, '')] : []),
    ...(url?.password ? [decoded(url.password), url.password, basicCredentials(url)] : []),
  );
}

/** `user:password` of a URL, decoded, in base64: the credentials of HTTP Basic. */
function basicCredentials(url: URL): string {
  return Buffer.from(`${decoded(url.username)}:${decoded(url.password)}`).toString('base64');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
