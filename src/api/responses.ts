import {
  AuthError,
  ControlPlaneError,
  HttpError,
  InvalidResponseError,
  NotFoundError,
  RateLimitedError,
  RequestValidationError,
  ServerError,
  ValidationIssue,
} from './errors';

export interface RawResponse {
  status: number;
  contentType: string | undefined;
  retryAfter: string | undefined;
  text: string;
}

/** Parses a JSON body, or explains that it is not JSON. */
export function parseJsonBody(response: RawResponse): unknown {
  try {
    return JSON.parse(response.text);
  } catch {
    throw new InvalidResponseError(response.status, response.contentType, snippetOf(response.text));
  }
}

/** Turns a non-success answer into the error of its class. */
export function errorFromResponse(response: RawResponse, what: string): ControlPlaneError {
  const body = tryParse(response.text);
  const detail = body === undefined ? textDetail(response) : detailText(body);
  const { status } = response;
  if (status === 401 || status === 403) return new AuthError(status, detail);
  if (status === 404) return new NotFoundError(what, detail);
  if (status === 429) return new RateLimitedError(parseRetryAfter(response.retryAfter));
  const issues = body === undefined ? undefined : validationIssues(body);
  if ((status === 422 || status === 400) && issues) return new RequestValidationError(status, issues);
  if (status >= 500) {
    if (body === undefined && looksLikeHtml(response)) {
      return new InvalidResponseError(status, response.contentType, snippetOf(response.text));
    }
    return new ServerError(status, detail);
  }
  if (status === 422) return new RequestValidationError(status, [{ loc: '', msg: detail ?? 'invalid request' }]);
  return new HttpError(status, detail);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function tryParse(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** FastAPI's `{detail: "text"}`, and the other common shapes. */
function detailText(body: unknown): string | undefined {
  if (typeof body === 'string') return clip(body);
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['detail', 'message', 'error', 'title']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return clip(value);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const nested = detailText(value);
      if (nested) return nested;
    }
  }
  const issues = validationIssues(body);
  return issues ? issues.map((issue) => (issue.loc ? `${issue.loc}: ${issue.msg}` : issue.msg)).join('; ') : undefined;
}

/** FastAPI's `{detail: [{loc, msg, type}]}`, rendered as `loc: msg`. */
function validationIssues(body: unknown): ValidationIssue[] | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const detail = (body as Record<string, unknown>).detail;
  if (!Array.isArray(detail) || detail.length === 0) return undefined;
  return detail.map((entry) => {
    if (!entry || typeof entry !== 'object') return { loc: '', msg: clip(String(entry)) };
    const item = entry as Record<string, unknown>;
    const loc = Array.isArray(item.loc) ? item.loc.map(String).join('.') : typeof item.loc === 'string' ? item.loc : '';
    const msg = typeof item.msg === 'string' ? item.msg : JSON.stringify(entry);
    return { loc, msg: clip(msg) };
  });
}

function textDetail(response: RawResponse): string | undefined {
  if (!response.text.trim()) return undefined;
  if (looksLikeHtml(response)) return snippetOf(response.text);
  return clip(response.text.trim());
}

function looksLikeHtml(response: RawResponse): boolean {
  return /html/i.test(response.contentType ?? '') || /^\s*</.test(response.text);
}

/** A short, single-line, tag-free excerpt of a body, for messages. */
export function snippetOf(text: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
  const plain = (title ?? text)
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clip(plain, 160);
}

function clip(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
