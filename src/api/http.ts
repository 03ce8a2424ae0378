import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rootCertificates } from 'node:tls';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { ControlPlaneError, invalidInput, isErrorOf } from './errors';
import * as l10n from '@vscode/l10n';
import { clientBaseUrl, withoutUserInfo } from './baseUrl';
import { errorFromResponse, parseJsonBody, parseRetryAfter, RawResponse } from './responses';
import { connectionRedactor, headerValueProblem, quote, Redactor } from './text';

export interface RetryOptions {
  /** Tries in all, the first included. Default 3. */
  maxAttempts?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 300 ms. */
  baseDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is reported instead. Default 10 s. */
  maxRetryAfterMs?: number;
}

/**
 * A connection to one control plane. Requests go through the global `fetch`: in VS Code's extension host, VS Code's
 * own, which applies the proxy (http.proxy, PAC, the OS's), http.noProxy, http.proxySupport, proxy authentication
 * and the OS's certificates (http.systemCertificates). See docs/network.md.
 */
export interface ConnectionOptions {
  /** e.g. `https://api.example.com` or `https://host/api-host`; the path prefix is kept. */
  baseUrl: string;
  apiKey?: string;
  /** Default `X-Api-Key`. */
  apiKeyHeader?: string;
  tenantId?: string;
  /** Default `X-Tenant-Id`. */
  tenantHeader?: string;
  /** Per request, default 30 s. */
  timeoutMs?: number;
  /** VS Code's http.proxy as set: never used to route (fetch does), only to name the proxy in a 407 and to redact its password. */
  proxyUrl?: string;
  /**
   * Path of a PEM CA bundle, trusted with Node's roots and NODE_EXTRA_CA_CERTS. The one case a dispatcher is handed to
   * `fetch`: VS Code's keeps its CA list (instead of the OS's certificates) and still applies the proxy.
   */
  caFile?: string;
  userAgent?: string;
  retry?: RetryOptions;
  /** Answers larger than this (after decompression) are refused, not read on. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Where the transport says what it did (the extension's log). */
  logger?: Pick<Console, 'info' | 'warn'>;
  /** Aborts every request of this connection (each then throws a `cancelled` error), e.g. once the connection is replaced. */
  signal?: AbortSignal;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  signal?: AbortSignal;
  /** What the request is about, for a 404 message ("Integration …"). */
  what: string;
}

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Same-origin redirects followed for one GET. */
const MAX_REDIRECTS = 5;
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * Every request has a timeout and can be cancelled; redirects are followed by hand (same origin, GET only: the key
 * never goes elsewhere). Only GETs are retried: a POST may have taken effect even when its answer was lost.
 */
export class HttpTransport {
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly dispatcher: Dispatcher | undefined;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  private readonly logger: Pick<Console, 'info' | 'warn'>;
  readonly redactor: Redactor;
  private readonly maxBytes: number;

  constructor(private readonly options: ConnectionOptions) {
    this.base = clientBaseUrl(options.baseUrl);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = { maxAttempts: 3, baseDelayMs: 300, maxRetryAfterMs: 10_000, ...options.retry };
    this.logger = options.logger ?? { info() {}, warn() {} };
    this.redactor = connectionRedactor(options);
    // Bodies larger than this, decompressed (a compression bomb too), are refused.
    this.maxBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
    this.headers = {
      accept: 'application/json',
      'user-agent': options.userAgent ?? 'deployments-explorer',
      ...credentialHeaders(options),
    };
    this.dispatcher = options.caFile?.trim() ? caFileDispatcher(options.caFile) : undefined;
  }

  /** Sends the request and answers the JSON body of its 2xx response, or throws a ControlPlaneError. */
  async send(req: HttpRequest): Promise<unknown> {
    // The caller's signal and the connection's: either cancels the request and any wait for a retry.
    const cancels = [req.signal, this.options.signal].filter((signal) => signal !== undefined);
    const search = req.query?.toString();
    let url = new URL(`${this.base}${req.path}${search ? `?${search}` : ''}`);
    const idempotent = req.method === 'GET';
    let redirects = 0;
    for (let attempt = 1; ; attempt++) {
      let response: RawResponse;
      try {
        response = await this.once(req, url, cancels);
      } catch (error) {
        if (idempotent && attempt < this.retry.maxAttempts && isErrorOf(error, 'network') && RESET_CODES.has(error.code ?? '')) {
          await this.backoff(req, attempt, undefined, error.message, cancels);
          continue;
        }
        throw error;
      }
      if (response.status >= 200 && response.status < 300) return parseJsonBody(response, this.redactor);

      if (REDIRECT_STATUSES.has(response.status) && response.location !== undefined) {
        const target = URL.canParse(response.location, url.href) ? new URL(response.location, url) : undefined;
        const sameOrigin = target !== undefined && target.origin === url.origin;
        if (idempotent && sameOrigin && redirects < MAX_REDIRECTS) {
          redirects++;
          this.logger.info(`${req.method} ${url.pathname}: HTTP ${response.status}, following to ${this.redactor.text(quote(target.pathname + target.search, 200))}`);
          url = target;
          attempt--;
          continue;
        }
        const why = !idempotent
          ? l10n.t('a {0} is never redirected', req.method)
          : target === undefined
            ? l10n.t('not a valid URL')
            : !sameOrigin
              ? l10n.t('another origin than {0}; the API key is not sent there', url.origin)
              : l10n.t('more than {0} redirects', MAX_REDIRECTS);
        throw new ControlPlaneError(
          'http',
          { status: response.status, detail: why, redirectTo: this.redactor.text(quote(this.redactor.whole(target?.href ?? response.location), 200)) },
          this.redactor,
        );
      }

      const error = errorFromResponse(response, req.what, this.redactor);
      if (idempotent && attempt < this.retry.maxAttempts && RETRYABLE_STATUSES.has(response.status)) {
        const asked = parseRetryAfter(response.retryAfter);
        if (asked !== undefined && asked > this.retry.maxRetryAfterMs) throw error;
        await this.backoff(req, attempt, asked, error.message, cancels);
        continue;
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

  private async once(req: HttpRequest, url: URL, cancels: AbortSignal[]): Promise<RawResponse> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const started = Date.now();
    const target = `${req.method} ${url.pathname}${url.search}`;
    const body = req.body === undefined ? undefined : jsonBody(req.body);
    const signal = AbortSignal.any([...cancels, timeout]);
    try {
      const res = await fetch(url, {
        method: req.method,
        headers: body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([...cancels, timeout]),
        ...(this.dispatcher && { dispatcher: this.dispatcher }),
      } as RequestInit);
      const contentType = res.headers.get('content-type') ?? undefined;
      const bytes = await this.readBody(res, contentType, signal);
      this.logger.info(`${target} → ${res.status} (${Date.now() - started} ms, ${bytes.length} bytes)`);
      return {
        status: res.status,
        contentType,
        retryAfter: res.headers.get('retry-after') ?? undefined,
        location: res.headers.get('location') ?? undefined,
        text: bytes.toString('utf8'),
        bytes: bytes.length,
        // A NUL byte or bytes that are not UTF-8: never quoted.
        binary: bytes.includes(0) || !isUtf8(bytes),
      };
    } catch (error) {
      if (cancels.some((signal) => signal.aborted)) {
        this.logger.info(`${target} cancelled`);
        throw new ControlPlaneError('cancelled');
      }
      if (timeout.aborted) {
        this.logger.warn(`${target} timed out after ${this.timeoutMs} ms`);
        throw new ControlPlaneError('timeout', { timeoutMs: this.timeoutMs });
      }
      const mapped = this.networkError(error);
      this.logger.warn(`${target} failed: ${mapped.message}`);
      throw mapped;
    }
  }

  /**
   * The body as `fetch` decompressed it, counted while it streams: past the cap, reading stops and the answer is
   * refused. A body that cannot be decompressed is refused too (its bytes are never quoted). Each read also ends when
   * `signal` aborts: Node 20's fetch can stall on a body it fails to decompress, its own signal notwithstanding.
   */
  private async readBody(res: Response, contentType: string | undefined, signal: AbortSignal): Promise<Buffer> {
    const refuse = (snippet: string) =>
      new ControlPlaneError('invalidResponse', { status: res.status, contentType: contentType && this.redactor.text(quote(contentType, 100)), snippet, binary: true }, this.redactor);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    if (!reader) return Buffer.alloc(0);
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    const read = () => Promise.race([reader.read(), aborted]);
    try {
      for (let chunk = await read(); !chunk.done; chunk = await read()) {
        size += chunk.value.byteLength;
        if (size > this.maxBytes) {
          throw refuse(l10n.t('more than {0}, not read', formatBytes(this.maxBytes)));
        }
        chunks.push(chunk.value);
      }
    } catch (error) {
      void reader.cancel().catch(() => undefined);
      const encoding = res.headers.get('content-encoding');
      if (encoding && !signal.aborted && !(error instanceof ControlPlaneError) && /^Z_|^ERR__ERROR|BROTLI|DECOMPRESS/i.test(errorCode(error) ?? '')) {
        throw refuse(l10n.t('a “{0}” body that could not be decompressed', quote(encoding, 40)));
      }
      throw error;
    }
    return Buffer.concat(chunks, size);
  }

  /** A failure below HTTP as the error of its kind; a proxy's 407 to the tunnel is `proxyAuth`. */
  private networkError(error: unknown): ControlPlaneError {
    if (error instanceof ControlPlaneError) return error;
    const cause = innermost(error);
    const message = cause.message;
    const code = errorCode(error);
    // undici's words for a proxy that refused the tunnel ("Proxy response (407) !== 200 when HTTP Tunneling"), VS Code's too.
    if (/\bProxy response \(407\)/.test(messages(error))) {
      const proxy = this.options.proxyUrl?.trim();
      const facts = { proxy: proxy ? withoutUserInfo(proxy) : l10n.t('(from the system settings)'), credentialsSent: !!proxy && hasCredentials(proxy), status: 407 };
      return new ControlPlaneError('proxyAuth', facts, this.redactor);
    }
    const reasons = networkReasons();
    let reason = code && Object.hasOwn(reasons, code) ? reasons[code] : undefined;
    if (!reason && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${code ?? ''} ${message}`)) {
      reason = l10n.t(
        'the TLS certificate is not trusted ({0}); run “Check Connection” to see the certificate chain, and add its CA certificate in the setting deploymentsExplorer.caFile or to the operating system’s store',
        message,
      );
    }
    if (!reason && /proxy|tunnel/i.test(message)) reason = l10n.t('the proxy refused the connection ({0})', message);
    return new ControlPlaneError('network', { target: this.base, code, reason: reason ?? message }, this.redactor);
  }

  /** Waits before retry `attempt`: what the server asked for, else an exponential delay with jitter. */
  private async backoff(req: HttpRequest, attempt: number, asked: number | undefined, reason: string, cancels: AbortSignal[]): Promise<void> {
    const delayMs = asked ?? Math.round(this.retry.baseDelayMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
    this.logger.warn(
      `${req.method} ${req.path}: ${this.redactor.text(reason.split('\n')[0])} — retry ${attempt} of ${this.retry.maxAttempts - 1} in ${delayMs} ms`,
    );
    await sleep(delayMs, undefined, { signal: AbortSignal.any(cancels) }).catch(() => Promise.reject(new ControlPlaneError('cancelled')));
  }}

/** The header names the key and the tenant go in, as set; an invalid-input error naming the setting when one is not a header name. */
export function headerNames(options: Pick<ConnectionOptions, 'apiKeyHeader' | 'tenantHeader'>): { apiKey: string; tenant: string } {
  const name = (parameter: string, value: string | undefined, fallback: string) => {
    const text = value?.trim() || fallback;
    // A token of RFC 9110: no spaces, colons or other separators.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(text)) {
      throw invalidInput(parameter, l10n.t('“{0}” is not an HTTP header name (letters, digits and hyphens, e.g. {1})', quote(text, 60), fallback));
    }
    return text;
  };
  const names = { apiKey: name('API key header', options.apiKeyHeader, 'X-Api-Key'), tenant: name('tenant header', options.tenantHeader, 'X-Tenant-Id') };
  // One header cannot carry both: the tenant would replace the key, and the key would read as refused.
  if (names.apiKey.toLowerCase() === names.tenant.toLowerCase()) {
    throw invalidInput('tenant header', l10n.t('“{0}” is the API key’s header too; the tenant ID needs a header of its own (e.g. X-Tenant-Id)', quote(names.tenant, 60)));
  }
  return names;
}

/**
 * The headers of the key and the tenant; an invalid-input error naming the API key or tenant ID when it holds a character
 * HTTP cannot carry (never the key itself).
 */
export function credentialHeaders(options: Pick<ConnectionOptions, 'apiKey' | 'apiKeyHeader' | 'tenantId' | 'tenantHeader'>): Record<string, string> {
  const names = headerNames(options);
  const headers: Record<string, string> = {};
  for (const [parameter, header, value] of [
    ['API key', names.apiKey, options.apiKey],
    ['tenant ID', names.tenant, options.tenantId?.trim()],
  ] as const) {
    if (!value) continue;
    const problem = headerValueProblem(value);
    if (problem) throw invalidInput(parameter, problem);
    headers[header.toLowerCase()] = value;
  }
  return headers;
}

/** Why a connection failed, by its error code. */
const networkReasons = (): Record<string, string> => ({
  ECONNREFUSED: l10n.t('the connection was refused; is the server running and the base URL right?'),
  ENOTFOUND: l10n.t('the host name was not found; check the base URL'),
  EAI_AGAIN: l10n.t('the host name could not be resolved right now'),
  ECONNRESET: l10n.t('the connection was reset'),
  EPIPE: l10n.t('the connection was closed'),
  UND_ERR_SOCKET: l10n.t('the connection was closed by the other side'),
  UND_ERR_CLOSED: l10n.t('the connection was closed'),
  UND_ERR_CONNECT_TIMEOUT: l10n.t('connecting timed out'),
  EHOSTUNREACH: l10n.t('the host is unreachable'),
  ENETUNREACH: l10n.t('the network is unreachable'),
});

/** The code of an error or of its causes, four deep. */
function errorCode(error: unknown, depth = 0): string | undefined {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: unknown };
  if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return code;
  return cause && depth < 3 ? errorCode(cause, depth + 1) : undefined;
}

function formatBytes(bytes: number): string {
  return bytes >= 1048576
    ? l10n.t('{0} MiB', Math.round(bytes / 1048576))
    : bytes >= 1024
      ? l10n.t('{0} KiB', Math.round(bytes / 1024))
      : l10n.t('{0} bytes', bytes);
}

function jsonBody(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw invalidInput('body', l10n.t('cannot be sent as JSON: {0}', quote((error as Error).message, 120)));
  }
}

/** A dispatcher trusting caFileTrust(`setting`); undici is loaded only then. */
function caFileDispatcher(setting: string): Dispatcher {
  const ca = caFileTrust(setting);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Agent } = require('undici') as typeof import('undici');
  return new Agent({ connect: { ca } });
}

/**
 * The CA certificates a connection with the caFile setting trusts: Node's roots, NODE_EXTRA_CA_CERTS (a `ca` replaces
 * Node's default list, which holds it; read as Node reads it: unreadable, left out) and the file's (unreadable or
 * empty: an invalid-input error, the user named it).
 */
export function caFileTrust(setting: string): string[] {
  const file = caFilePath(setting);
  let certificates: string[];
  try {
    certificates = pemCertificates(readFileSync(file, 'utf8'));
  } catch (error) {
    throw invalidInput('CA file', l10n.t('cannot read {0}: {1}', file, (error as Error).message));
  }
  if (certificates.length === 0) throw invalidInput('CA file', l10n.t('{0} holds no PEM certificate (-----BEGIN CERTIFICATE-----)', file));
  const extraFile = process.env.NODE_EXTRA_CA_CERTS?.trim();
  let extra: string[] = [];
  try {
    if (extraFile) extra = pemCertificates(readFileSync(extraFile, 'utf8'));
  } catch {
    // Node leaves it out too (with a warning at start-up).
  }
  return [...rootCertificates, ...extra, ...certificates];
}

/**
 * The caFile setting as a path to read: `~` is the home folder, as in a shell; a relative path is refused, since it
 * would be read from wherever VS Code happened to start.
 */
function caFilePath(setting: string): string {
  const text = setting.trim();
  const file = /^~(?=$|[\\/])/.test(text) ? path.join(os.homedir(), text.slice(1)) : text;
  if (!path.isAbsolute(file)) throw invalidInput('CA file', l10n.t('{0} is not a full path; give the whole path of the file, e.g. {1}', text, path.join(os.homedir(), text)));
  return file;
}

function pemCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** Whether a proxy URL carries a user name and password. */
function hasCredentials(proxy: string): boolean {
  const url = URL.canParse(proxy) ? new URL(proxy) : undefined;
  return !!(url?.username && url.password);
}

/** The deepest cause of an error (fetch's "fetch failed" wraps what happened), four deep. */
function innermost(error: unknown, depth = 0): Error {
  const cause = (error as { cause?: unknown })?.cause;
  if (cause instanceof Error && depth < 3) return innermost(cause, depth + 1);
  return error instanceof Error ? error : new Error(String(error));
}

/** The messages of an error and its causes. */
function messages(error: unknown, depth = 0): string {
  if (!(error instanceof Error)) return String(error);
  return `${error.message} ${depth < 3 && error.cause !== undefined ? messages(error.cause, depth + 1) : ''}`;
}
