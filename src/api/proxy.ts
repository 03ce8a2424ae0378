/** Which proxy, if any, a request to `target` goes through. */
export interface ProxySettings {
  /** Explicit proxy URL (e.g. VS Code's `http.proxy`); wins over the environment. */
  proxyUrl?: string;
  /** Comma-separated hosts that bypass the proxy; added to NO_PROXY from the environment. */
  noProxy?: string;
  env?: NodeJS.ProcessEnv;
}

export function resolveProxy(target: URL, settings: ProxySettings): string | undefined {
  const env = settings.env ?? process.env;
  const fromEnv =
    target.protocol === 'https:'
      ? env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy
      : env.HTTP_PROXY ?? env.http_proxy;
  const proxy = settings.proxyUrl?.trim() || fromEnv?.trim();
  if (!proxy) return undefined;
  const noProxy = [settings.noProxy, env.NO_PROXY ?? env.no_proxy].filter(Boolean).join(',');
  return bypassesProxy(target, noProxy) ? undefined : proxy;
}

/** NO_PROXY semantics as curl has them: `*`, `host`, `.domain`, `domain`, `host:port`. */
function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const [entryHost, entryPort] = splitHostPort(entry);
    if (entryPort && entryPort !== port) continue;
    const bare = entryHost.replace(/^\*?\./, '');
    if (host === bare || host.endsWith(`.${bare}`)) return true;
  }
  return false;
}

function splitHostPort(entry: string): [string, string | undefined] {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return [bracketed[1], bracketed[2]];
  const parts = entry.split(':');
  if (parts.length === 2 && /^\d+$/.test(parts[1])) return [parts[0], parts[1]];
  return [entry, undefined];
}
