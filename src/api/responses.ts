import { ControlPlaneError, ErrorFacts, ErrorKind, issueList, KEPT_ISSUES, ValidationIssue } from './errors';
import * as l10n from '@vscode/l10n';
import { quote, Redactor, shortJson } from './text';

export interface RawResponse {
  status: number;
  contentType: string | undefined;
  retryAfter: string | undefined;
  /** The `Location` header, for redirects. */
  location?: string;
  /** The decoded (and decompressed) body. */
  text: string;
  /** Size of the decompressed body in bytes. */
  bytes: number;
  /** True when the body is not text (a NUL byte, or not UTF-8): it is then never quoted. */
  binary: boolean;
}

/** Parses a JSON body, or explains that it is not JSON. */
export function parseJsonBody(response: RawResponse, redactor: Redactor): unknown {
  const body = tryParse(response.text);
  if (body === undefined) throw notJson(response, redactor);
  return body;
}

/** Turns a non-success answer into the error of its class. */
export function errorFromResponse(response: RawResponse, what: string, redactor: Redactor): ControlPlaneError {
  const body = response.binary ? undefined : tryParse(response.text);
  const detail = body === undefined ? textDetail(response, redactor) : detailText(body, redactor);
  const { status } = response;
  const error = (kind: ErrorKind, facts: ErrorFacts = {}) => new ControlPlaneError(kind, { status, detail, ...facts }, redactor);
  if (status === 401 || status === 403) return error('auth');
  if (status === 404) return error('notFound', { what: quote(what, 120) });
  if (status === 429) return error('rateLimited', { retryAfterMs: parseRetryAfter(response.retryAfter) });
  if (status >= 300 && status < 400 && response.location) return error('http', { redirectTo: headerQuote(response.location, redactor, 200) });
  const issues = body === undefined ? undefined : validationIssues(body, redactor);
  if ((status === 422 || status === 400) && issues) return error('validation', { issues: issues.issues, issueCount: issues.count });
  if (status >= 500) {
    if (body === undefined && (response.binary || looksLikeHtml(response))) return notJson(response, redactor);
    return error('server');
  }
  if (status === 422) return error('validation', { issues: [{ loc: '', msg: detail ?? l10n.t('invalid request') }] });
  return error('http');
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds. */
export function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const DETAIL_KEYS = ['detail', 'message', 'error', 'title'];
/**
 * Each issue's field path and reason are clipped on their own (real ones fit: a pydantic reason is
 * at most about 120 characters), so one huge reason cannot crowd out the others in a message.
 */
const MAX_ISSUE_LOC = 80;
const MAX_ISSUE_MSG = 160;
/** How deep `{detail: {message: {error: …}}}` is followed. */
const MAX_DETAIL_DEPTH = 6;

/** FastAPI's `{detail: "text"}`, and the other common shapes; depth-bounded, never throws. */
function detailText(body: unknown, redactor: Redactor): string | undefined {
  let current: unknown = body;
  for (let depth = 0; depth < MAX_DETAIL_DEPTH; depth++) {
    if (typeof current === 'string') return current.trim() ? serverQuote(current, redactor) : undefined;
    if (typeof current === 'number' || typeof current === 'boolean') return String(current);
    if (!current || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) break;
    const record = current as Record<string, unknown>;
    let next: unknown;
    for (const key of DETAIL_KEYS) {
      const value = record[key];
      if (typeof value === 'string' && value.trim()) return serverQuote(value, redactor);
      if (value && typeof value === 'object' && !Array.isArray(value) && next === undefined) next = value;
    }
    const issues = validationIssues(current, redactor);
    if (issues) {
      return issueList(issues.issues, issues.count, 5, '; ');
    }
    if (next === undefined) return undefined;
    current = next;
  }
  return redactor.text(shortJson(current));
}

/**
 * FastAPI's `{detail: [{loc, msg, type}]}`, and the other common list `{errors: [...]}` (JSON:API's `{detail,
 * source: {pointer}}`, `{field, message}`, strings), rendered as `loc: msg`; the first 100, and how many there were.
 */
function validationIssues(body: unknown, redactor: Redactor): { issues: ValidationIssue[]; count: number } | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { detail, errors } = body as Record<string, unknown>;
  const list = [detail, errors].find((value): value is unknown[] => Array.isArray(value) && value.length > 0);
  if (!list) return undefined;
  const issues = list.slice(0, KEPT_ISSUES).map((entry): ValidationIssue => {
    if (typeof entry === 'string') return { loc: '', msg: serverQuote(entry, redactor, MAX_ISSUE_MSG) };
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return { loc: '', msg: redactor.text(shortJson(entry)) };
    const item = entry as Record<string, unknown>;
    const part = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : shortJson(value, 60));
    const pointer = (item.source as { pointer?: unknown } | null | undefined)?.pointer;
    const where = item.loc ?? item.field ?? (typeof pointer === 'string' ? pointer.split('/').filter(Boolean) : undefined);
    const path = Array.isArray(where) ? where.slice(0, 12) : where === undefined || where === null ? [] : [where];
    const loc = path.map(part).join('.');
    const reason = [item.msg, item.message, item.detail, item.title].find((value) => typeof value === 'string');
    const msg = typeof reason === 'string' ? reason : shortJson(item.msg ?? entry);
    const issue: ValidationIssue = { loc: serverQuote(loc, redactor, MAX_ISSUE_LOC), msg: serverQuote(msg, redactor, MAX_ISSUE_MSG) || redactor.text(shortJson(entry)) };
    if (typeof item.type === 'string' && /^[\w.:-]{1,60}$/.test(item.type)) issue.type = item.type;
    return issue;
  });
  return { issues, count: list.length };
}

function textDetail(response: RawResponse, redactor: Redactor): string | undefined {
  if (!response.binary && !response.text.trim()) return undefined;
  return response.binary || looksLikeHtml(response) ? excerpt(response, redactor) : serverQuote(response.text, redactor);
}

function looksLikeHtml(response: RawResponse): boolean {
  return /html/i.test(response.contentType ?? '') || /^\s*</.test(response.text);
}

function notJson(response: RawResponse, redactor: Redactor): ControlPlaneError {
  const { status, binary } = response;
  return new ControlPlaneError('invalidResponse', { status, contentType: headerQuote(response.contentType, redactor), snippet: excerpt(response, redactor), binary }, redactor);
}

/** A body for a message: "binary data (N bytes)", or a short tag-free excerpt (an HTML page's title if it has one). */
function excerpt(response: RawResponse, redactor: Redactor): string {
  if (response.binary) return l10n.t('binary data ({0} bytes)', response.bytes);
  const head = redactor.whole(response.text).slice(0, 200_000);
  const title = /<title[^>]*>([^<]{0,2000})<\/title>/i.exec(head)?.[1];
  const text = title ?? head.slice(0, 20_000);
  return redactor.text(quote(text.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, ' ').replace(/<[^>]+>/g, ' '), 160));
}

/** Server text for a message: whole-key redaction before any clipping, then key pieces after. */
function serverQuote(text: string, redactor: Redactor, max = 300): string {
  return redactor.text(quote(redactor.whole(text.slice(0, 100_000)), max));
}

/** An echoed header (content type, location): short, one line, key-free. */
function headerQuote(value: string | undefined, redactor: Redactor, max = 100): string | undefined {
  return value ? serverQuote(value, redactor, max) || undefined : undefined;
}
