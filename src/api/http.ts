import { isUtf8 } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import {
  CancelledError,
  ControlPlaneError,
  ControlPlaneErrorBase,
  HttpError,
  InvalidInputError,
  InvalidResponseError,
  NetworkError,
  ProxyAuthError,
  TimeoutError,
} from './errors';
import * as l10n from '@vscode/l10n';
import { clientBaseUrl, withoutUserInfo } from './baseUrl';
import { connectionRedactor, proxyCredentials, proxyRoute, ProxyRoute } from './proxy';
import { errorFromResponse, parseJsonBody, parseRetryAfter, RawResponse } from './responses';
import { headerValueProblem, quote, Redactor } from './text';
import { certificateStores, SystemCertificates, trustContext } from './trust';

export interface RetryOptions {
  /** Tries in all, the first included. Default 3. */
  maxAttempts?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 300 ms. */
  baseDelayMs?: number;
  /** A `Retry-After` longer than this is not waited for: the error is reported instead. Default 10 s. */
  maxRetryAfterMs?: number;
}

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
  /** Explicit proxy (VS Code's http.proxy; `user:password@` is sent to it); otherwise HTTPS_PROXY (for an https base URL) or HTTP_PROXY from `env`. */
  proxyUrl?: string;
  /** Sent to the proxy as its Proxy-Authorization header (VS Code's http.proxyAuthorization), instead of the proxy URL's user and password. */
  proxyAuthorization?: string;
  /** Comma-separated hosts that bypass the proxy, in addition to NO_PROXY (see proxyRoute). */
  noProxy?: string;
  /** VS Code's http.proxySupport: `off` sends every request straight to the server, whatever proxy is set. */
  proxySupport?: string;
  /** Verify TLS certificates. Default true. */
  strictSSL?: boolean;
  /** Path of an extra PEM CA bundle to trust besides Node's roots, NODE_EXTRA_CA_CERTS and `systemCertificates`. */
  caFile?: string;
  /** The operating system's trusted CA certificates (loadSystemCertificates): trusted too when given. */
  systemCertificates?: SystemCertificates;
  userAgent?: string;
  retry?: RetryOptions;
  /** Answers larger than this (after decompression) are refused, not read on. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Where the transport says what it did (the extension's log). */
  logger?: Pick<Console, 'info' | 'warn'>;
  /** Environment to read HTTP(S)_PROXY, NO_PROXY and NODE_EXTRA_CA_CERTS from; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Aborts every request of this connection (each then throws CancelledError), e.g. once the connection is replaced. */
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
/**
 * How long an idle connection is kept for reuse. Servers commonly close idle keep-alive connections
 * after 5 s (node's and uvicorn's default) without a `Keep-Alive` header; a request sent on a
 * connection the server is closing fails, and a POST must not be retried. So stay well under 5 s (a
 * `Keep-Alive: timeout=` answer shortens it further; undici honours it).
 */
const KEEP_ALIVE_MS = 4_000;
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

type Decoder = (body: Buffer, limits: { maxOutputLength: number }) => Promise<Buffer>;
const gunzip: Decoder = promisify(zlib.gunzip);
const inflate: Decoder = promisify(zlib.inflate);
const inflateRaw: Decoder = promisify(zlib.inflateRaw);
/**
 * The `Content-Encoding`s undone. Not undici's decompress interceptor: it fails the request on a body
 * it cannot decompress, where ours keeps the body as it came (compressed bytes are then reported as
 * binary data, never quoted), and it knows only zlib-wrapped deflate, where some servers send raw.
 */
const decoders: Record<string, Decoder> = {
  gzip: gunzip,
  'x-gzip': gunzip,
  br: promisify(zlib.brotliDecompress),
  deflate: (body, limits) =>
    inflate(body, limits).catch((error: { code?: unknown }) =>
      error.code === 'ERR_BUFFER_TOO_LARGE' ? Promise.reject(error) : inflateRaw(body, limits),
    ),
};

/**
 * One dispatcher (proxy, CA, TLS) per connection; every request has a timeout and can be cancelled.
 * Only GETs are retried: a POST may have taken effect even when its answer was lost.
 */
export class HttpTransport {
  private readonly base: string;
  private readonly headers: Record<string, string>;
  private readonly dispatcher: Dispatcher;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  private readonly logger: Pick<Console, 'info' | 'warn'>;
  readonly redactor: Redactor;
  private readonly maxBytes: number;
  private readonly route: ProxyRoute;

  constructor(private readonly options: ConnectionOptions) {
    this.base = clientBaseUrl(options.baseUrl);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = { maxAttempts: 3, baseDelayMs: 300, maxRetryAfterMs: 10_000, ...options.retry };
    this.logger = options.logger ?? { info() {}, warn() {} };
    this.route = proxyRoute(new URL(this.base), options);
    this.redactor = connectionRedactor(options, this.route);
    // Bodies larger than this, on the wire or decompressed (a compression bomb), are refused.
    this.maxBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
    this.headers = {
      accept: 'application/json',
      'accept-encoding': 'gzip, deflate, br',
      'user-agent': options.userAgent ?? 'deployments-explorer',
      ...credentialHeaders(options),
    };
    this.dispatcher = this.createDispatcher();
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
        if (idempotent && attempt < this.retry.maxAttempts && error instanceof NetworkError && RESET_CODES.has(error.code ?? '')) {
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
        throw new HttpError(response.status, why, this.redactor.text(quote(this.redactor.whole(target?.href ?? response.location), 200)));
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

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private async once(req: HttpRequest, url: URL, cancels: AbortSignal[]): Promise<RawResponse> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const started = Date.now();
    const target = `${req.method} ${url.pathname}${url.search}`;
    const body = req.body === undefined ? undefined : jsonBody(req.body);
    try {
      const res = await request(url, {
        method: req.method,
        headers: body === undefined ? this.headers : { ...this.headers, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.any([...cancels, timeout]),
        dispatcher: this.dispatcher,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const contentType = headerValue(res.headers['content-type']);
      const tooLarge = () =>
        new InvalidResponseError(res.statusCode, contentType && quote(contentType, 100), l10n.t('more than {0}, not read', formatBytes(this.maxBytes)), true);
      // The dispatcher's maxResponseSize stops a larger body on the wire.
      const read = await res.body
        .bytes()
        .catch((error: unknown) => Promise.reject(errorCode(error) === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' ? tooLarge() : error));
      const raw = Buffer.from(read.buffer, read.byteOffset, read.byteLength);
      const bytes = await this.decompress(raw, headerValue(res.headers['content-encoding']), target, tooLarge);
      this.logger.info(
        `${target} → ${res.statusCode} (${Date.now() - started} ms${bytes !== raw ? `, ${raw.length} → ${bytes.length} bytes` : ''})`,
      );
      return {
        status: res.statusCode,
        contentType,
        retryAfter: headerValue(res.headers['retry-after']),
        location: headerValue(res.headers.location),
        text: bytes.toString('utf8'),
        bytes: bytes.length,
        // A NUL byte or bytes that are not UTF-8: never quoted.
        binary: bytes.includes(0) || !isUtf8(bytes),
      };
    } catch (error) {
      if (cancels.some((signal) => signal.aborted)) {
        this.logger.info(`${target} cancelled`);
        throw new CancelledError();
      }
      if (timeout.aborted) {
        this.logger.warn(`${target} timed out after ${this.timeoutMs} ms`);
        throw new TimeoutError(this.timeoutMs);
      }
      const mapped = this.networkError(error);
      this.logger.warn(`${target} failed: ${this.redactor.text(mapped.message)}`);
      throw mapped;
    }
  }

  /**
   * One dispatcher for the connection's one origin (redirects stay on it): a ProxyAgent tunnelling through the
   * proxy of `route`, else an Agent; TLS trusts every store (certificateStores), for the proxy's certificate too.
   */
  private createDispatcher(): Dispatcher {
    const { options, route } = this;
    const proxy = route.proxy;
    // The stores are read, and a context of every CA built (tens of milliseconds), only where TLS is spoken.
    const usesTls = [this.base, proxy].some((url) => url !== undefined && /^https:/i.test(url));
    const secureContext = usesTls ? trustContext(certificateStores(options, options.systemCertificates)) : undefined;
    const tls = { rejectUnauthorized: options.strictSSL !== false, ...(secureContext && { secureContext }) };
    const common = { keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: 60_000, maxResponseSize: this.maxBytes };
    if (!proxy) return new Agent({ ...common, connect: tls });
    try {
      return new ProxyAgent({ ...common, uri: proxy, token: options.proxyAuthorization?.trim() || undefined, requestTls: tls, proxyTls: tls });
    } catch (error) {
      throw new InvalidInputError('proxy', l10n.t('“{0}” cannot be used: {1}', withoutUserInfo(proxy), (error as Error).message));
    }
  }

  /** A failure below HTTP as the error of its class; the proxy's 407 to the tunnel is ProxyAuthError. */
  private networkError(error: unknown): ControlPlaneError {
    if (error instanceof ControlPlaneErrorBase) return error as ControlPlaneError;
    const message = (error as Error)?.message ?? String(error);
    // undici's words for a proxy that refused the tunnel: "Proxy response (407) !== 200 when HTTP Tunneling".
    if (this.route.proxy && /\bProxy response \(407\)/.test(message)) {
      return new ProxyAuthError(withoutUserInfo(this.route.proxy), proxyCredentials(this.route.proxy, this.options.proxyAuthorization).from !== 'none');
    }
    const code = errorCode(error);
    const reasons = networkReasons();
    let reason = code && Object.hasOwn(reasons, code) ? reasons[code] : undefined;
    if (!reason && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${code ?? ''} ${message}`)) {
      reason = l10n.t(
        'the TLS certificate is not trusted ({0}); run “Check Connection” to see the certificate chain, and add its CA certificate in the setting deploymentsExplorer.caFile (or, only on a network you trust, turn off deploymentsExplorer.strictSSL)',
        message,
      );
    }
    if (!reason && /proxy|tunnel/i.test(message)) reason = l10n.t('the proxy refused the connection ({0})', message);
    return new NetworkError(this.base, code, reason ?? message);
  }

  /** Waits before retry `attempt`: what the server asked for, else an exponential delay with jitter. */
  private async backoff(req: HttpRequest, attempt: number, asked: number | undefined, reason: string, cancels: AbortSignal[]): Promise<void> {
    const delayMs = asked ?? Math.round(this.retry.baseDelayMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5));
    this.logger.warn(
      `${req.method} ${req.path}: ${this.redactor.text(reason.split('\n')[0])} — retry ${attempt} of ${this.retry.maxAttempts - 1} in ${delayMs} ms`,
    );
    await sleep(delayMs, undefined, { signal: AbortSignal.any(cancels) }).catch(() => Promise.reject(new CancelledError()));
  }

  /** Undoes `Content-Encoding`, several in order; keeps a body it cannot decompress, or in an unknown encoding, as it came. */
  private async decompress(body: Buffer, encoding: string | undefined, target: string, tooLarge: () => ControlPlaneErrorBase): Promise<Buffer> {
    if (!encoding || body.length === 0) return body;
    const codings = encoding.trim().toLowerCase().split(/\s*,\s*/).filter((coding) => coding && coding !== 'identity').reverse();
    const unknown = codings.find((coding) => !Object.hasOwn(decoders, coding));
    if (unknown !== undefined) {
      this.logger.warn(`${target}: unknown content encoding ${quote(unknown, 40)}; body kept as it came`);
      return body;
    }
    let current = body;
    try {
      for (const coding of codings) current = await decoders[coding](current, { maxOutputLength: this.maxBytes });
      return current;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      this.logger.warn(`${target}: the ${quote(encoding, 40)} body could not be decompressed (${(error as Error).message})`);
      return body;
    }
  }
}

/** The header names the key and the tenant go in, as set; InvalidInputError naming the setting when one is not a header name. */
export function headerNames(options: Pick<ConnectionOptions, 'apiKeyHeader' | 'tenantHeader'>): { apiKey: string; tenant: string } {
  const name = (parameter: string, value: string | undefined, fallback: string) => {
    const text = value?.trim() || fallback;
    // A token of RFC 9110: no spaces, colons or other separators.
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(text)) {
      throw new InvalidInputError(parameter, l10n.t('“{0}” is not an HTTP header name (letters, digits and hyphens, e.g. {1})', quote(text, 60), fallback));
    }
    return text;
  };
  const names = { apiKey: name('API key header', options.apiKeyHeader, 'X-Api-Key'), tenant: name('tenant header', options.tenantHeader, 'X-Tenant-Id') };
  // One header cannot carry both: the tenant would replace the key, and the key would read as refused.
  if (names.apiKey.toLowerCase() === names.tenant.toLowerCase()) {
    throw new InvalidInputError('tenant header', l10n.t('“{0}” is the API key’s header too; the tenant ID needs a header of its own (e.g. X-Tenant-Id)', quote(names.tenant, 60)));
  }
  return names;
}

/**
 * The headers of the key and the tenant; InvalidInputError naming the API key or tenant ID when it holds a character
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
    if (problem) throw new InvalidInputError(parameter, problem);
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
    throw new InvalidInputError('body', l10n.t('cannot be sent as JSON: {0}', quote((error as Error).message, 120)));
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

