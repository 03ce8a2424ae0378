import * as l10n from '@vscode/l10n';
import { clip, quote, Redactor, sentence, tidyMessage } from './text';

/**
 * One error class per failure class. Every message is a whole sentence meant to be shown as it is
 * (the UI adds the next step), at most 1,500 characters, and, once `sealError` has run as it leaves
 * the client, free of the API key and of any 12-character piece of it, in every string it keeps.
 */

/** What every error class has in common (`status` where the server answered); narrow on `kind` through the `ControlPlaneError` union. */
export abstract class ControlPlaneErrorBase extends Error {
  abstract readonly kind: string;

  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(tidyMessage(message));
    this.name = new.target.name;
  }
}

const NOT_ENABLED = /\b(?:not|isn't)\s+(?:been\s+)?(?:enabled|available|activated|included)\b|\bdisabled\b|\bdoes(?:\s+not|n't)\s+have\b/i;
const FOR_ORGANISATION = /organi[sz]ation|\borg\b|\bplan\b|subscription|\bfeature\b/i;

/** 401 or 403. `detail` is the server's own explanation (quoted, redacted). */
export class AuthError extends ControlPlaneErrorBase {
  readonly kind = 'auth';
  /** A 403 saying the feature is not enabled for the organisation: another key will not help. */
  readonly notEnabled: boolean;
  /** A 403 asking for a workspace/tenant to be named (organisation-scoped keys). */
  readonly needsTenant: boolean;
  constructor(
    status: number,
    readonly detail: string | undefined,
  ) {
    const notEnabled = status === 403 && !!detail && NOT_ENABLED.test(detail) && FOR_ORGANISATION.test(detail);
    super(authMessage(status, notEnabled, detail), status);
    this.notEnabled = notEnabled;
    this.needsTenant = status === 403 && !notEnabled && !!detail && /workspace|tenant/i.test(detail);
  }
}

function authMessage(status: number, notEnabled: boolean, detail: string | undefined): string {
  if (notEnabled) {
    return l10n.t(
      'This is not enabled for your organisation (HTTP 403): {0}. A different API key will not help; ask an administrator of the organisation.',
      detail ?? '',
    );
  }
  if (status === 401) {
    return detail
      ? l10n.t('Not authenticated (HTTP {0}): {1}', status, detail)
      : l10n.t('Not authenticated (HTTP {0}). Check the API key and the tenant ID.', status);
  }
  return detail ? l10n.t('Access denied (HTTP {0}): {1}', status, detail) : l10n.t('Access denied (HTTP {0}). Check the API key and the tenant ID.', status);
}

export class NotFoundError extends ControlPlaneErrorBase {
  readonly kind = 'notFound';
  constructor(
    /** What was asked for, as the subject of a sentence: "Integration …", "The deployment listing". */
    readonly what: string,
    readonly detail: string | undefined,
  ) {
    super(detail ? l10n.t('{0} was not found (HTTP 404): {1}', what, detail) : l10n.t('{0} was not found (HTTP 404).', what), 404);
  }
}

export interface ValidationIssue {
  loc: string;
  msg: string;
  /** The server's kind of refusal when it names one (FastAPI: `missing`, `extra_forbidden`, …). */
  type?: string;
}

/** 422 (or 400 with a detail list): the server names what it refused. */
export class RequestValidationError extends ControlPlaneErrorBase {
  readonly kind = 'validation';
  readonly issues: readonly ValidationIssue[];
  /** How many issues the server named; `issues` keeps at most the first 100. */
  readonly issueCount: number;
  constructor(status: number, issues: readonly ValidationIssue[], issueCount = issues.length) {
    super(l10n.t('The server refused the request (HTTP {0}):\n{1}', status, issueList(issues, issueCount, 10)), status);
    this.issues = issues.slice(0, KEPT_ISSUES);
    this.issueCount = Math.max(issueCount, this.issues.length);
  }
}

/** The first `max` issues as `loc: msg` (or the `msg` alone), one per line or split by `separator`, then how many more there are. */
export function issueList(issues: readonly ValidationIssue[], count: number, max: number, separator = '\n'): string {
  const shown = issues.slice(0, max).map(({ loc, msg }) => (loc ? `${loc}: ${msg}` : msg));
  return shown.join(separator) + (count > shown.length ? separator + l10n.t('…and {0} more', count - shown.length) : '');
}

/** Issues an error keeps (and reads from a server's answer); the rest are counted. */
export const KEPT_ISSUES = 100;

export class RateLimitedError extends ControlPlaneErrorBase {
  readonly kind = 'rateLimited';
  constructor(readonly retryAfterMs: number | undefined) {
    super(
      retryAfterMs !== undefined
        ? l10n.t('The control plane is rate limiting requests (HTTP 429); it asks to wait {0} s.', Math.ceil(retryAfterMs / 1000))
        : l10n.t('The control plane is rate limiting requests (HTTP 429).'),
      429,
    );
  }
}

export class ServerError extends ControlPlaneErrorBase {
  readonly kind = 'server';
  constructor(status: number, detail: string | undefined) {
    super(
      detail
        ? l10n.t('The control plane failed (HTTP {0}): {1} Try again later.', status, sentence(detail))
        : l10n.t('The control plane failed (HTTP {0}). Try again later.', status),
      status,
    );
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
        ? detail
          ? l10n.t('The control plane answered HTTP {0}, redirecting to “{1}”, which was not followed ({2}). Check the base URL.', status, redirectTo, detail)
          : l10n.t('The control plane answered HTTP {0}, redirecting to “{1}”, which was not followed. Check the base URL.', status, redirectTo)
        : detail
          ? l10n.t('The control plane answered HTTP {0}: {1}', status, detail)
          : l10n.t('The control plane answered HTTP {0}.', status),
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
    super(
      code
        ? l10n.t('Cannot reach the control plane at {0}: {1} ({2}).', target, reason, code)
        : l10n.t('Cannot reach the control plane at {0}: {1}.', target, reason),
    );
  }
}

/**
 * The proxy answered 407: it wants credentials, or refused those it was given. `proxy` is its URL without
 * user name and password.
 */
export class ProxyAuthError extends ControlPlaneErrorBase {
  readonly kind = 'proxyAuth';
  constructor(
    readonly proxy: string,
    readonly credentialsSent: boolean,
  ) {
    super(
      credentialsSent
        ? l10n.t(
            'The proxy {0} refused the credentials it was given (HTTP 407). Check the user name and password in the setting http.proxy.',
            proxy,
          )
        : l10n.t(
            'The proxy {0} asks for credentials (HTTP 407). Give them in the setting http.proxy (http://user:password@host:port).',
            proxy,
          ),
      407,
    );
  }
}

export class TimeoutError extends ControlPlaneErrorBase {
  readonly kind = 'timeout';
  constructor(readonly timeoutMs: number) {
    super(l10n.t('The control plane did not answer within {0} s.', timeoutMs / 1000));
  }
}

export class CancelledError extends ControlPlaneErrorBase {
  readonly kind = 'cancelled';
  constructor() {
    super(l10n.t('The request was cancelled.'));
  }
}

/** A body that is not JSON (typically a proxy's HTML error page). `snippet` is an excerpt, or "binary data (N bytes)" when `binary`. */
export class InvalidResponseError extends ControlPlaneErrorBase {
  readonly kind = 'invalidResponse';
  constructor(
    status: number,
    readonly contentType: string | undefined,
    readonly snippet: string,
    readonly binary = false,
    /** A web page where the API was expected: the base URL with the API's path prefix, and whether that answers the API. */
    readonly webPage?: { readonly baseUrl: string; readonly suggestion: string; readonly answers: boolean },
  ) {
    // "HTTP 502, text/html": a status and a media type, the same in every language.
    const answer = `HTTP ${status}${contentType ? `, ${contentType}` : ''}`;
    super(
      webPage
        ? webPage.answers
          ? l10n.t(
              '{0} served a web page, not the control-plane API ({1}: “{2}”). A self-hosted control plane serves its API under a path prefix: {3} answers the API. Set it as the base URL.',
              webPage.baseUrl,
              answer,
              snippet,
              webPage.suggestion,
            )
          : l10n.t(
              '{0} served a web page, not the control-plane API ({1}: “{2}”). A self-hosted control plane serves its API under a path prefix such as /api-host, but {3} did not answer the API either. Check the base URL.',
              webPage.baseUrl,
              answer,
              snippet,
              webPage.suggestion,
            )
        : !snippet
          ? l10n.t("The control plane's answer ({0}) is not JSON (empty body). A proxy or gateway may be in the way; check the base URL.", answer)
          : binary
            ? l10n.t("The control plane's answer ({0}) is not JSON: {1}. A proxy or gateway may be in the way; check the base URL.", answer, snippet)
            : l10n.t("The control plane's answer ({0}) is not JSON: “{1}”. A proxy or gateway may be in the way; check the base URL.", answer, snippet),
      status,
    );
  }
}

/**
 * Where a record departs from the API contract: the field's path (`secrets[0].value`; empty for the
 * record itself) and what is wrong, in words that never repeat the value received.
 */
export interface RecordProblem {
  readonly path: string;
  readonly message: string;
}

/** JSON that does not match the contract; `issues` name each field path. */
export class SchemaError extends ControlPlaneErrorBase {
  readonly kind = 'schema';
  readonly issues: readonly RecordProblem[];
  constructor(
    /** What was checked, as the subject of a sentence: "The deployment listing". */
    readonly what: string,
    issues: readonly RecordProblem[],
  ) {
    const lines = issues.slice(0, 5).map(({ path, message }) => ({ loc: path || l10n.t('(the whole answer)'), msg: message }));
    super(l10n.t('{0} does not match the API contract:\n{1}', what, issueList(lines, issues.length, 5)));
    this.issues = issues.slice(0, KEPT_ISSUES);
  }
}

/**
 * A value refused before any request is sent. `parameter` is an identifier (the fixes are chosen by
 * it): an API parameter or a JavaScript argument is shown as it is, a setting in the user's language.
 */
export class InvalidInputError extends ControlPlaneErrorBase {
  readonly kind = 'invalidInput';
  constructor(
    readonly parameter: string,
    problem: string,
  ) {
    const labels = settingLabels();
    super(l10n.t('Invalid {0}: {1}', Object.hasOwn(labels, parameter) ? labels[parameter] : parameter, problem));
  }
}

/** The names of the settings an invalid-input error can be about, as a person reads them. */
const settingLabels = (): Record<string, string> => ({
  'base URL': l10n.t('base URL'),
  'CA file': l10n.t('CA file'),
  proxy: l10n.t('proxy'),
  'API key header': l10n.t('API key header'),
  'tenant header': l10n.t('tenant header'),
  'API key': l10n.t('API key'),
  'tenant ID': l10n.t('tenant ID'),
  'integration ID': l10n.t('integration ID'),
});

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
  | ProxyAuthError
  | TimeoutError
  | CancelledError
  | InvalidResponseError
  | SchemaError
  | InvalidInputError;

export function isControlPlaneError(error: unknown): error is ControlPlaneError {
  return error instanceof ControlPlaneErrorBase;
}

/**
 * Makes a client error safe to show and to serialise as it leaves the client: every string it keeps
 * (message, stack, detail, issues, …) redacted, stripped of control characters and bounded. Answers
 * anything else as it is.
 */
export function sealError<T>(error: T, redactor: Redactor): T {
  if (!(error instanceof ControlPlaneErrorBase)) return error;
  const record = error as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === 'name' || key === 'kind') continue;
    record[key] = cleanValue(record[key], redactor, 0);
  }
  error.message = tidyMessage(redactor.text(redactor.whole(error.message)));
  // The stack's frames under the sealed message: the stack's own head repeats the message as it was.
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  error.stack = `${error.name}: ${error.message}\n${redactor.text(clip(frames.join('\n'), 4000))}`;
  return error;
}

function cleanValue(value: unknown, redactor: Redactor, depth: number): unknown {
  if (typeof value === 'string') return quote(redactor.text(redactor.whole(clip(value, 20_000))));
  if (!value || typeof value !== 'object' || depth > 2) return value;
  if (Array.isArray(value)) return value.slice(0, KEPT_ISSUES).map((item) => cleanValue(item, redactor, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cleanValue(item, redactor, depth + 1)]));
}
