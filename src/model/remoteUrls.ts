// Reading git remotes out of `.git/config` text, normalising remote URLs, and matching them to repository records.

export interface GitRemote {
  /** Remote name, e.g. `origin`. */
  name: string;
  url: string;
}

const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/;

/**
 * The parts of a remote URL that identify a repository: host (lowercase, no user or port) and path (no `.git`, no
 * surrounding slashes). Undefined when the text is not a remote URL (a local path, an empty string, …).
 */
export function normaliseRemoteUrl(raw: string): { host: string; path: string } | undefined {
  const text = raw.trim();
  let host: string;
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const url = URL.canParse(text) ? new URL(text) : undefined;
    if (!url || url.protocol === 'file:') return undefined;
    host = url.hostname;
    path = safeDecode(url.pathname);
  } else {
    // scp-like syntax: [user@]host:path. A Windows drive letter (C:\…) is not a host.
    const match = SCP_LIKE.exec(text);
    if (!match || /^[a-z]$/i.test(match[1])) return undefined;
    host = match[1];
    path = match[2];
  }
  host = host.replace(/^\[|\]$/g, '').toLowerCase();
  path = path.replace(/^(~\/)?\/*/, '').replace(/\/*(\.git)?\/*$/i, '');
  return host && path ? { host, path } : undefined;
}

/**
 * The one form two repository URLs are compared in: `host/path`, lowercase. GitHub, GitLab and Bitbucket treat
 * owner and repository names case-insensitively (`Acme/Shop` is `acme/shop`), as DNS treats the host.
 */
export function remoteKey(raw: string): string | undefined {
  const remote = normaliseRemoteUrl(raw);
  return remote && `${remote.host}/${remote.path}`.toLowerCase();
}

/** The host most of `urls` name (ties: the first seen); undefined when none is a remote URL. */
export function mostCommonHost(urls: readonly string[]): string | undefined {
  return mostCommon(urls.map((url) => normaliseRemoteUrl(url)?.host));
}

/** The value most often in `values` (ties: the first seen); blank ones do not count; undefined for none. */
export function mostCommon(values: Iterable<string | undefined>): string | undefined {
  const counts = new Map<string, number>();
  for (const value of values) if (value?.trim()) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | undefined;
  for (const [value, count] of counts) if (best === undefined || count > counts.get(best)!) best = value;
  return best;
}

/** Remote URLs may carry credentials (https://user:token@host/…): the form safe to show and log. */
export function redactUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, (_match, scheme: string) => scheme);
}

/** A remote as messages and tooltips name it: `origin (https://github.com/acme/shop)`, without credentials. */
export function remoteLabel(remote: GitRemote): string {
  return `${remote.name} (${redactUserInfo(remote.url)})`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The remotes in a `.git/config` file, with `url.<base>.insteadOf` rewrites
 * applied. Tolerates comments, quoting and odd spacing; ignores what it does
 * not understand.
 */
export function parseGitConfig(text: string): GitRemote[] {
  const remotes: GitRemote[] = [];
  const rewrites: Array<{ base: string; prefix: string }> = [];
  let section: { kind: 'remote' | 'url'; name: string } | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = stripComment(rawLine).trim();
    if (!line) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line);
    if (header) {
      const kind = header[1].toLowerCase();
      section = (kind === 'remote' || kind === 'url') && header[2] !== undefined ? { kind, name: unescape(header[2]) } : undefined;
      continue;
    }
    if (!section) continue;
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!entry) continue;
    const key = entry[1].toLowerCase();
    const value = unquote(entry[2]);
    if (section.kind === 'remote' && (key === 'url' || key === 'pushurl')) {
      const name = section.name;
      if (value && !remotes.some((remote) => remote.name === name && remote.url === value)) remotes.push({ name, url: value });
    } else if (section.kind === 'url' && key === 'insteadof' && value) {
      rewrites.push({ base: section.name, prefix: value });
    }
  }
  return remotes.map((remote) => ({ ...remote, url: applyInsteadOf(remote.url, rewrites) }));
}

function applyInsteadOf(url: string, rewrites: ReadonlyArray<{ base: string; prefix: string }>): string {
  // git picks the longest matching prefix.
  let best: { base: string; prefix: string } | undefined;
  for (const rewrite of rewrites) {
    if (url.startsWith(rewrite.prefix) && (!best || rewrite.prefix.length > best.prefix.length)) best = rewrite;
  }
  return best ? best.base + url.slice(best.prefix.length) : url;
}

function stripComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\') i++;
    else if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '#' || ch === ';')) return line.slice(0, i);
  }
  return line;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.includes('"') ? unescape(trimmed.replace(/"/g, '')) : trimmed;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** The `gitdir:` a `.git` file points at (worktrees, submodules). */
export function parseGitDirFile(text: string): string | undefined {
  return /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
}

/** Repositories whose URL names the same repository as one of the remotes (remoteKey), each with the remotes that do. */
export function matchRemotes<R extends { url: string }, G extends GitRemote>(
  remotes: readonly G[],
  repositories: readonly R[],
): Array<{ repository: R; remotes: G[] }> {
  const byKey = new Map<string, G[]>();
  for (const remote of remotes) {
    const key = remoteKey(remote.url);
    if (key) byKey.set(key, [...(byKey.get(key) ?? []), remote]);
  }
  return repositories.flatMap((repository) => {
    const found = byKey.get(remoteKey(repository.url) ?? '');
    return found ? [{ repository, remotes: found }] : [];
  });
}
