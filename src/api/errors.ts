import { clip, MAX_QUOTE_LENGTH, quote, Redactor, tidyMessage } from './text';

/**
 * One error class per failure class. Every message is meant to be shown to a
 * person as it is: it says what went wrong; the UI adds the next step.
 *
 * Every message is at most 1,500 characters, keeps only line breaks among
 * control characters, and, once `sealError` has run where the error is made,
 * holds neither the API key nor any 12-character piece of it, in any string
 * the error keeps (message, stack, detail, issues, snippet, …).
 */

export type ControlPlaneErrorKind =
  | 'auth'
  | 'notFound'
  | 'validation'
  | 'rateLimited'
  | 'server'
  | 'http'
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'invalidResponse'
  | 'schema'
  | 'invalidInput';

/** What every error class has in common; use the `ControlPlaneError` union to narrow on `kind`. */
export abstract class ControlPlaneErrorBase extends Error {
  abstract readonly kind: ControlPlaneErrorKind;
  /** HTTP status, where the server answered. */
  readonly status?: number;

  constructor(message: string, status?: number) {
    super(tidyMessage(message));
    this.name = new.target.name;
    this.status = status;
  }
}

/** Why a 401/403 was refused, as far as the server's detail tells. */
export type AuthProblem =
  /** 401: no key, or a key the server does not know. */
  | 'notAuthenticated'
  /** 403: the key is refused for this request. */
  | 'accessDenied'
  /** 403 asking for a workspace/tenant (organisation-scoped keys). */
  | 'needsTenant'
  /** 403: the feature is not enabled (or available) for the organisation; another key will not help. */
  | 'notEnabled';

const NOT_ENABLED = /\b(?:not|isn't)\s+(?:been\s+)?(?:enabled|available|activated|included)\b|\bdisabled\b|\bdoes(?:\s+not|n't)\s+have\b/i;
const FOR_ORGANISATION = /organi[sz]ation|\borg\b|\bplan\b|subscription|\bfeature\b/i;

/** A 403 detail saying the feature is off for the organisation (not a key problem). */
function isNotEnabledDetail(detail: string | undefined): boolean {
  return !!detail && NOT_ENABLED.test(detail) && FOR_ORGANISATION.test(detail);
}

/** 401 or 403. `detail` is the server's own explanation (quoted, redacted). */
export class AuthError extends ControlPlaneErrorBase {
  readonly kind = 'auth';
  readonly problem: AuthProblem;
  constructor(
    status: number,
    readonly detail: string | undefined,
  ) {
    const problem: AuthProblem =
      status !== 403
        ? 'notAuthenticated'
        : isNotEnabledDetail(detail)
          ? 'notEnabled'
          : detail && /workspace|tenant/i.test(detail)
            ? 'needsTenant'
            : 'accessDenied';
    super(
      problem === 'notEnabled'
        ? `This is not enabled for your organisation (HTTP 403): ${detail}. A different API key will not help; ask an administrator of the organisation.`
        : `${status === 401 ? 'Not authenticated' : 'Access denied'} (HTTP ${status})` +
            (detail ? `: ${detail}` : '. Check the API key and the tenant ID.'),
      status,
    );
    this.problem = problem;
  }

  /** The server asks for a workspace/tenant to be named (organisation-scoped keys). */
  get needsTenant(): boolean {
    return this.problem === 'needsTenant';
  }

  /** A 403 saying the feature is not enabled for the organisation: not a key problem. */
  get notEnabled(): boolean {
    return this.problem === 'notEnabled';
  }
}

export class NotFoundError extends ControlPlaneErrorBase {
  readonly kind = 'notFound';
  constructor(
    readonly what: string,
    readonly detail: string | undefined,
  ) {
    super(`${what} was not found (HTTP 404)${detail ? `: ${detail}` : '.'}`, 404);
  }
}

export interface ValidationIssue {
  loc: string;
  msg: string;
}

/** 422 (or 400 with a detail list): the server names what it refused. */
export class RequestValidationError extends ControlPlaneErrorBase {
  readonly kind = 'validation';
  /** How many issues the server named; `issues` keeps at most the first 100. */
  readonly issueCount: number;
  constructor(status: number, issues: readonly ValidationIssue[], issueCount = issues.length) {
    const shown = issues.slice(0, SHOWN_ISSUES);
    super(
      `The server refused the request (HTTP ${status}):\n` +
        shown.map((issue) => (issue.loc ? `${issue.loc}: ${issue.msg}` : issue.msg)).join('\n') +
        andMore(issueCount - shown.length),
      status,
    );
    this.issues = issues.slice(0, KEPT_ISSUES);
    this.issueCount = Math.max(issueCount, this.issues.length);
  }
  readonly issues: readonly ValidationIssue[];
}

const SHOWN_ISSUES = 10;
const KEPT_ISSUES = 100;
const andMore = (more: number) => (more > 0 ? `\n…and ${more} more` : '');

export class RateLimitedError extends ControlPlaneErrorBase {
  readonly kind = 'rateLimited';
  constructor(readonly retryAfterMs: number | undefined) {
    super(
      'The control plane is rate limiting requests (HTTP 429)' +
        (retryAfterMs !== undefined ? `; it asks to wait ${Math.ceil(retryAfterMs / 1000)} s.` : '.'),
      429,
    );
  }
}

export class ServerError extends ControlPlaneErrorBase {
  readonly kind = 'server';
  constructor(status: number, detail: string | undefined) {
    super(`The control plane failed (HTTP ${status})${detail ? `: ${detail}` : '.'} Try again later.`, status);
  }
}

/** Any other non-success status (400, 405, 409, …), and a redirect that was not followed. */
export class HttpError extends ControlPlaneErrorBase {
  readonly kind = 'http';
  constructor(
    status: number,
    readonly detail: string | undefined,
    /** Where a 3xx pointed, when it was not followed. */
    readonly redirectTo?: string,
  ) {
    super(
      redirectTo !== undefined
        ? `The control plane answered HTTP ${status}, redirecting to “${redirectTo}”, which was not followed` +
            `${detail ? ` (${detail})` : ''}. Check the base URL.`
        : `The control plane answered HTTP ${status}${detail ? `: ${detail}` : '.'}`,
      status,
    );
  }
}

export class NetworkError extends ControlPlaneErrorBase {
  readonly kind = 'network';
  constructor(
    readonly target: string,
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`Cannot reach the control plane at ${target}: ${reason}${code ? ` (${code})` : ''}.`);
  }
}

export class TimeoutError extends ControlPlaneErrorBase {
  readonly kind = 'timeout';
  constructor(readonly timeoutMs: number) {
    super(`The control plane did not answer within ${timeoutMs / 1000} s.`);
  }
}

export class CancelledError extends ControlPlaneErrorBase {
  readonly kind = 'cancelled';
  constructor() {
    super('The request was cancelled.');
  }
}

/**
 * A body that is not JSON: typically an HTML error page from a proxy or
 * gateway. `snippet` is a short excerpt, or "binary data (N bytes)".
 */
export class InvalidResponseError extends ControlPlaneErrorBase {
  readonly kind = 'invalidResponse';
  constructor(
    status: number,
    readonly contentType: string | undefined,
    readonly snippet: string,
    /** True when the body is not text: `snippet` then says "binary data (N bytes)". */
    readonly binary = false,
  ) {
    super(
      `The control plane's answer (HTTP ${status}${contentType ? `, ${contentType}` : ''}) is not JSON` +
        (!snippet ? ' (empty body)' : binary ? `: ${snippet}` : `: “${snippet}”`) +
        '. A proxy or gateway may be in the way; check the base URL.',
      status,
    );
  }
}

/** JSON that does not match the contract. `issues` name the record index and field path. */
export class SchemaError extends ControlPlaneErrorBase {
  readonly kind = 'schema';
  readonly issues: readonly string[];
  constructor(
    readonly what: string,
    issues: readonly string[],
  ) {
    const shown = issues.slice(0, 5);
    super(`The ${what} does not match the API contract:\n${shown.join('\n')}${andMore(issues.length - shown.length)}`);
    this.issues = issues.slice(0, KEPT_ISSUES);
  }
}

/** A value refused before any request is sent; names the parameter. */
export class InvalidInputError extends ControlPlaneErrorBase {
  readonly kind = 'invalidInput';
  constructor(
    readonly parameter: string,
    problem: string,
  ) {
    super(`Invalid ${parameter}: ${problem}`);
  }
}

/** The text of anything thrown, for messages and log lines. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Every error the client throws; narrow on `kind` (`if (error.kind === 'auth') error.needsTenant`). */
export type ControlPlaneError =
  | AuthError
  | NotFoundError
  | RequestValidationError
  | RateLimitedError
  | ServerError
  | HttpError
  | NetworkError
  | TimeoutError
  | CancelledError
  | InvalidResponseError
  | SchemaError
  | InvalidInputError;


export function isControlPlaneError(error: unknown): error is ControlPlaneError {
  return error instanceof ControlPlaneErrorBase;
}

const sealed = new WeakSet<object>();

/**
 * Makes an error safe to show and to serialise, once, where it is made: every
 * string it keeps (message, stack, detail, issues, snippet, content type, …)
 * is redacted (whole key and any 12-character piece of it), stripped of
 * control characters and bounded. Answers the same error.
 */
export function sealError<T extends ControlPlaneErrorBase>(error: T, redactor: Redactor): T {
  if (sealed.has(error)) return error;
  sealed.add(error);
  const record = error as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === 'name' || key === 'kind') continue;
    record[key] = cleanValue(record[key], redactor, 0);
  }
  const original = error.message;
  const message = tidyMessage(redactor.text(redactor.whole(original)));
  const stack = typeof error.stack === 'string' ? error.stack : '';
  const head = original ? `${error.name}: ${original}` : error.name;
  const frames = stack.startsWith(head)
    ? stack.slice(head.length)
    : `\n${stack
        .split('\n')
        .filter((line) => /^\s+at /.test(line))
        .join('\n')}`;
  error.message = message;
  error.stack = `${error.name}: ${message}${redactor.text(clip(frames, 4000))}`;
  return error;
}

function cleanValue(value: unknown, redactor: Redactor, depth: number): unknown {
  if (typeof value === 'string') return quote(redactor.text(redactor.whole(clip(value, 20_000))), MAX_QUOTE_LENGTH);
  if (!value || typeof value !== 'object' || depth > 2) return value;
  if (Array.isArray(value)) return value.slice(0, KEPT_ISSUES).map((item) => cleanValue(item, redactor, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = cleanValue(item, redactor, depth + 1);
  return copy;
}
