import { readFileSync } from 'node:fs';
import { Agent, Dispatcher, ProxyAgent, request, rootCertificates } from './transportDeps';
import { CancelledError, ControlPlaneError, InvalidInputError, NetworkError, TimeoutError } from './errors';
import { resolveProxy } from './proxy';
import { errorFromResponse, parseRetryAfter, RawResponse } from './responses';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

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
  /** Explicit proxy; otherwise HTTPS_PROXY / HTTP_PROXY from the environment. */
  proxyUrl?: string;
  /** Hosts that bypass the proxy, in addition to NO_PROXY. */
  noProxy?: string;
  /** Verify TLS certificates. Default true. */
  strictSSL?: boolean;
  /** Path of an extra PEM CA bundle to trust besides the built-in roots. */
  caFile?: string;
  userAgent?: string;
  retry?: RetryOptions;
  logger?: Logger;
  /** Environment to read proxy variables from; defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
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
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const noopLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * One dispatcher (proxy, CA, TLS) per connection; every request has a timeout
 * and an abort signal. Only GETs are retried: a POST may have taken effect
 * even when its answer was lost.
 */
export class HttpTransport {
  private readonly base: URL;
  private readonly headers: Record<string, string>;
  private readonly dispatcher: Dispatcher;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  private readonly logger: Logger;
  private readonly secrets: string[];

  constructor(options: ConnectionOptions) {
    this.base = parseBaseUrl(options.baseUrl);
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = {
      maxAttempts: options.retry?.maxAttempts ?? 3,
      baseDelayMs: options.retry?.baseDelayMs ?? 300,
      maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 10_000,
    };
    this.logger = options.logger ?? noopLogger;
    this.secrets = options.apiKey ? [options.apiKey] : [];
    this.headers = { accept: 'application/json', 'user-agent': options.userAgent ?? 'deployments-explorer' };
    if (options.apiKey) this.headers[(options.apiKeyHeader || 'X-Api-Key').toLowerCase()] = options.apiKey;
    if (options.tenantId?.trim()) {
      this.headers[(options.tenantHeader || 'X-Tenant-Id').toLowerCase()] = options.tenantId.trim();
    }
    this.dispatcher = createDispatcher(this.base, options);
  }

  get baseUrl(): string {
    return this.base.href.replace(/\/$/, '');
  }

  /** Sends the request and answers the raw 2xx response, or throws a ControlPlaneError. */
  async send(req: HttpRequest): Promise<RawResponse> {
    const url = this.urlFor(req.path, req.query);
    const idempotent = req.method === 'GET';
    for (let attempt = 1; ; attempt++) {
      let response: RawResponse;
      try {
        response = await this.once(req, url);
      } catch (error) {
        const mapped = this.redact(error as ControlPlaneError);
        if (idempotent && attempt < this.retry.maxAttempts && mapped instanceof NetworkError && RESET_CODES.has(mapped.code ?? '')) {
          await this.backoff(req, attempt, this.backoffDelay(attempt), mapped.message);
          continue;
        }
        throw mapped;
      }
      if (response.status >= 200 && response.status < 300) return response;

      const error = this.redact(errorFromResponse(response, req.what));
      if (idempotent && attempt < this.retry.maxAttempts && RETRYABLE_STATUSES.has(response.status)) {
        const asked = parseRetryAfter(response.retryAfter);
        if (asked !== undefined && asked > this.retry.maxRetryAfterMs) {
          throw error;
        }
        await this.backoff(req, attempt, asked ?? this.backoffDelay(attempt), error.message);
        continue;
      }
      throw error;
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private async once(req: HttpRequest, url: URL): Promise<RawResponse> {
    if (req.signal?.aborted) throw new CancelledError();
    const controller = new AbortController();
    const cancel = () => controller.abort();
    req.signal?.addEventListener('abort', cancel);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const started = Date.now();
    const target = `${req.method} ${url.pathname}${url.search}`;
    try {
      const headers = { ...this.headers };
      let body: string | undefined;
      if (req.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(req.body);
      }
      const res = await request(url, {
        method: req.method,
        headers,
        body,
        signal: controller.signal,
        dispatcher: this.dispatcher,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      const text = await res.body.text();
      this.logger.info(`${target} → ${res.statusCode} (${Date.now() - started} ms)`);
      return {
        status: res.statusCode,
        contentType: headerValue(res.headers['content-type']),
        retryAfter: headerValue(res.headers['retry-after']),
        text,
      };
    } catch (error) {
      if (req.signal?.aborted) {
        this.logger.info(`${target} cancelled`);
        throw new CancelledError();
      }
      if (timedOut) {
        this.logger.warn(`${target} timed out after ${this.timeoutMs} ms`);
        throw new TimeoutError(this.timeoutMs);
      }
      const mapped = networkError(this.baseUrl, error);
      this.logger.warn(`${target} failed: ${this.scrub(mapped.message)}`);
      throw mapped;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', cancel);
    }
  }

  private backoffDelay(attempt: number): number {
    const exponential = this.retry.baseDelayMs * 2 ** (attempt - 1);
    return Math.round(exponential * (0.75 + Math.random() * 0.5));
  }

  private async backoff(req: HttpRequest, attempt: number, delayMs: number, reason: string): Promise<void> {
    this.logger.warn(
      `${req.method} ${req.path}: ${this.scrub(reason.split('\n')[0])} — retry ${attempt} of ${this.retry.maxAttempts - 1} in ${delayMs} ms`,
    );
    await sleep(delayMs, req.signal);
  }

  private urlFor(path: string, query?: URLSearchParams): URL {
    const url = new URL(this.base.href);
    url.pathname = `${this.base.pathname.replace(/\/+$/, '')}${path}`;
    url.search = query && [...query.keys()].length > 0 ? `?${query.toString()}` : '';
    return url;
  }

  private scrub(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join('[redacted]');
    return result;
  }

  /** Server texts are quoted in messages; make sure none of them carries the key. */
  private redact<T extends Error>(error: T): T {
    const clean = this.scrub(error.message);
    if (clean !== error.message) error.message = clean;
    return error;
  }
}

function parseBaseUrl(baseUrl: string): URL {
  const trimmed = baseUrl.trim();
  if (!trimmed) throw new InvalidInputError('base URL', 'no base URL is set');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new InvalidInputError('base URL', `“${trimmed}” is not a URL (expected e.g. https://api.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidInputError('base URL', `“${trimmed}” must start with http:// or https://`);
  }
  if (url.username || url.password) {
    throw new InvalidInputError('base URL', 'must not contain a user name or password; use the API key instead');
  }
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '') || '/';
  return url;
}

function createDispatcher(base: URL, options: ConnectionOptions): Dispatcher {
  const tls: { rejectUnauthorized: boolean; ca?: string[] } = { rejectUnauthorized: options.strictSSL !== false };
  if (options.caFile?.trim()) {
    let extra: string;
    try {
      extra = readFileSync(options.caFile.trim(), 'utf8');
    } catch (error) {
      throw new InvalidInputError('CA file', `cannot read ${options.caFile}: ${(error as Error).message}`);
    }
    tls.ca = [...rootCertificates, extra];
  }
  const proxy = resolveProxy(base, { proxyUrl: options.proxyUrl, noProxy: options.noProxy, env: options.env });
  if (proxy) {
    try {
      return new ProxyAgent({ uri: proxy, requestTls: tls, proxyTls: tls });
    } catch (error) {
      throw new InvalidInputError('proxy', `“${proxy}” cannot be used: ${(error as Error).message}`);
    }
  }
  return new Agent({ connect: tls, keepAliveTimeout: 10_000 });
}

function networkError(target: string, error: unknown): ControlPlaneError {
  if (error instanceof ControlPlaneError) return error;
  const code = errorCode(error);
  const message = (error as Error)?.message ?? String(error);
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'the connection was refused; is the server running and the base URL right?',
    ENOTFOUND: 'the host name was not found; check the base URL',
    EAI_AGAIN: 'the host name could not be resolved right now',
    ECONNRESET: 'the connection was reset',
    EPIPE: 'the connection was closed',
    UND_ERR_SOCKET: 'the connection was closed by the other side',
    UND_ERR_CLOSED: 'the connection was closed',
    UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
    EHOSTUNREACH: 'the host is unreachable',
    ENETUNREACH: 'the network is unreachable',
  };
  let reason = code ? reasons[code] : undefined;
  if (!reason && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(`${code ?? ''} ${message}`)) {
    reason = `the TLS certificate is not trusted (${message}); set an extra CA file or turn strict SSL off`;
  }
  if (!reason && /proxy|tunnel/i.test(message)) reason = `the proxy refused the connection (${message})`;
  return new NetworkError(target, code, reason ?? message);
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_ABORTED') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
