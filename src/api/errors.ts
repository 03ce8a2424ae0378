import * as l10n from '@vscode/l10n';
import { Redactor, sentence, tidyMessage } from './text';

/** What failed; callers narrow on it. */
export type ErrorKind =
  /** 401 or 403. */
  | 'auth'
  | 'notFound'
  /** 422 (or 400 with a detail list): the server names what it refused. */
  | 'validation'
  | 'rateLimited'
  /** 5xx. */
  | 'server'
  /** Any other non-success status (400, 405, 409, …), and a redirect that was not followed. */
  | 'http'
  /** Below HTTP: refused, reset, DNS, TLS. */
  | 'network'
  /** The proxy answered 407. */
  | 'proxyAuth'
  | 'timeout'
  | 'cancelled'
  /** A body that is not JSON (typically a proxy's HTML error page). */
  | 'invalidResponse'
  /** JSON that does not match the contract. */
  | 'schema'
  /** A value refused before any request is sent. */
  | 'invalidInput';

export interface ValidationIssue {
  loc: string;
  msg: string;
  /** The server's kind of refusal when it names one (FastAPI: `missing`, `extra_forbidden`, …). */
  type?: string;
}

/**
 * Where a record departs from the API contract: the field's path (`secrets[0].value`; empty for the
 * record itself) and what is wrong, in words that never repeat the value received.
 */
export interface RecordProblem {
  readonly path: string;
  readonly message: string;
}

/** A web page where the API was expected: the base URL with the API's path prefix, and whether that answers the API. */
export interface WebPage {
  readonly baseUrl: string;
  readonly suggestion: string;
  readonly answers: boolean;
}

/**
 * What an error's message is built from. The error keeps the facts callers read; the words only the message needs
 * (`what`, `target`, `reason`, `problem`) live in the message alone, redacted with it.
 */
export interface ErrorFacts {
  status?: number;
  /** The server's own explanation, quoted and redacted (for an unfollowed redirect: why it was not followed). */
  detail?: string;
  /** What was asked for or checked, as the subject of a sentence: "Integration …", "The deployment listing". */
  what?: string;
  /** validation: what the server refused, at most the first 100, and how many there were. */
  issues?: readonly ValidationIssue[];
  issueCount?: number;
  /** schema: each field path and what is wrong there. */
  problems?: readonly RecordProblem[];
  retryAfterMs?: number;
  /** Where a 3xx pointed, when it was not followed. */
  redirectTo?: string;
  /** network: the base URL, the error code and why, in words. */
  target?: string;
  code?: string;
  reason?: string;
  /** proxyAuth: the proxy's URL without user name and password, and whether credentials were sent. */
  proxy?: string;
  credentialsSent?: boolean;
  timeoutMs?: number;
  /** invalidResponse: an excerpt of the body, or "binary data (N bytes)" when `binary`. */
  contentType?: string;
  snippet?: string;
  binary?: boolean;
  webPage?: WebPage;
  /** invalidInput: an identifier (the fixes are chosen by it): an API parameter as it is, a setting in the user's language. */
  parameter?: string;
  problem?: string;
}

const NOT_ENABLED = /\b(?:not|isn't)\s+(?:been\s+)?(?:enabled|available|activated|included)\b|\bdisabled\b|\bdoes(?:\s+not|n't)\s+have\b/i;
const FOR_ORGANISATION = /organi[sz]ation|\borg\b|\bplan\b|subscription|\bfeature\b/i;

/** Issues an error keeps (and reads from a server's answer); the rest are counted. */
export const KEPT_ISSUES = 100;

/**
 * Every error the client throws. Its message is a whole sentence meant to be shown as it is (the UI adds the next
 * step), at most 1,500 characters, and, with the connection's redactor given where it is made, free of the API key
 * and of any 12-character piece of it.
 */
export class ControlPlaneError extends Error {
  readonly status?: number;
  readonly detail?: string;
  readonly issues?: readonly ValidationIssue[];
  readonly issueCount?: number;
  readonly problems?: readonly RecordProblem[];
  readonly retryAfterMs?: number;
  readonly redirectTo?: string;
  readonly code?: string;
  readonly proxy?: string;
  readonly credentialsSent?: boolean;
  readonly contentType?: string;
  readonly snippet?: string;
  readonly binary?: boolean;
  readonly webPage?: WebPage;
  readonly parameter?: string;
  /** auth: a 403 saying the feature is not enabled for the organisation; another key will not help. */
  readonly notEnabled: boolean;
  /** auth: a 403 asking for a workspace/tenant to be named (organisation-scoped keys). */
  readonly needsTenant: boolean;

  constructor(
    readonly kind: ErrorKind,
    facts: ErrorFacts = {},
    redactor?: Redactor,
  ) {
    const { status, detail } = facts;
    const notEnabled = kind === 'auth' && status === 403 && !!detail && NOT_ENABLED.test(detail) && FOR_ORGANISATION.test(detail);
    const message = messages[kind]({ ...facts, notEnabled });
    super(tidyMessage(redactor ? redactor.text(redactor.whole(message)) : message));
    // The message's words stay in the message; what callers read is kept.
    const { what: _what, target: _target, reason: _reason, problem: _problem, timeoutMs: _timeoutMs, ...kept } = facts;
    Object.assign(this, kept, kept.issues && { issues: kept.issues.slice(0, KEPT_ISSUES), issueCount: Math.max(facts.issueCount ?? 0, kept.issues.length) });
    if (kept.problems) this.problems = kept.problems.slice(0, KEPT_ISSUES);
    this.notEnabled = notEnabled;
    this.needsTenant = kind === 'auth' && status === 403 && !notEnabled && !!detail && /workspace|tenant/i.test(detail);
  }
}
ControlPlaneError.prototype.name = 'ControlPlaneError';

/** The first `max` issues as `loc: msg` (or the `msg` alone), one per line or split by `separator`, then how many more there are. */
export function issueList(issues: readonly ValidationIssue[], count: number, max: number, separator = '\n'): string {
  const shown = issues.slice(0, max).map(({ loc, msg }) => (loc ? `${loc}: ${msg}` : msg));
  return shown.join(separator) + (count > shown.length ? separator + l10n.t('…and {0} more', count - shown.length) : '');
}

/** The message of each kind, from its facts. */
const messages: Record<ErrorKind, (facts: ErrorFacts & { notEnabled: boolean }) => string> = {
  auth: ({ status, detail, notEnabled }) => {
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
    return detail
      ? l10n.t('Access denied (HTTP {0}): {1}', status ?? 403, detail)
      : l10n.t('Access denied (HTTP {0}). Check the API key and the tenant ID.', status ?? 403);
  },
  notFound: ({ what = '', detail }) =>
    detail ? l10n.t('{0} was not found (HTTP 404): {1}', what, detail) : l10n.t('{0} was not found (HTTP 404).', what),
  validation: ({ status, issues = [], issueCount }) =>
    l10n.t('The server refused the request (HTTP {0}):\n{1}', status ?? 422, issueList(issues, issueCount ?? issues.length, 10)),
  rateLimited: ({ retryAfterMs }) =>
    retryAfterMs !== undefined
      ? l10n.t('The control plane is rate limiting requests (HTTP 429); it asks to wait {0} s.', Math.ceil(retryAfterMs / 1000))
      : l10n.t('The control plane is rate limiting requests (HTTP 429).'),
  server: ({ status, detail }) =>
    detail
      ? l10n.t('The control plane failed (HTTP {0}): {1} Try again later.', status ?? 500, sentence(detail))
      : l10n.t('The control plane failed (HTTP {0}). Try again later.', status ?? 500),
  http: ({ status, detail, redirectTo }) =>
    redirectTo !== undefined
      ? detail
        ? l10n.t('The control plane answered HTTP {0}, redirecting to “{1}”, which was not followed ({2}). Check the base URL.', status ?? 0, redirectTo, detail)
        : l10n.t('The control plane answered HTTP {0}, redirecting to “{1}”, which was not followed. Check the base URL.', status ?? 0, redirectTo)
      : detail
        ? l10n.t('The control plane answered HTTP {0}: {1}', status ?? 0, detail)
        : l10n.t('The control plane answered HTTP {0}.', status ?? 0),
  network: ({ target = '', code, reason = '' }) =>
    code ? l10n.t('Cannot reach the control plane at {0}: {1} ({2}).', target, reason, code) : l10n.t('Cannot reach the control plane at {0}: {1}.', target, reason),
  proxyAuth: ({ proxy = '', credentialsSent }) =>
    credentialsSent
      ? l10n.t('The proxy {0} refused the credentials it was given (HTTP 407). Check the user name and password in the setting http.proxy.', proxy)
      : l10n.t('The proxy {0} asks for credentials (HTTP 407). Give them in the setting http.proxy (http://user:password@host:port).', proxy),
  timeout: ({ timeoutMs = 0 }) => l10n.t('The control plane did not answer within {0} s.', timeoutMs / 1000),
  cancelled: () => l10n.t('The request was cancelled.'),
  invalidResponse: ({ status, contentType, snippet = '', binary, webPage }) => {
    // "HTTP 502, text/html": a status and a media type, the same in every language.
    const answer = `HTTP ${status}${contentType ? `, ${contentType}` : ''}`;
    if (webPage) {
      return webPage.answers
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
          );
    }
    if (!snippet) return l10n.t("The control plane's answer ({0}) is not JSON (empty body). A proxy or gateway may be in the way; check the base URL.", answer);
    return binary
      ? l10n.t("The control plane's answer ({0}) is not JSON: {1}. A proxy or gateway may be in the way; check the base URL.", answer, snippet)
      : l10n.t("The control plane's answer ({0}) is not JSON: “{1}”. A proxy or gateway may be in the way; check the base URL.", answer, snippet);
  },
  schema: ({ what = '', problems = [] }) => {
    const lines = problems.slice(0, 5).map(({ path, message }) => ({ loc: path || l10n.t('(the whole answer)'), msg: message }));
    return l10n.t('{0} does not match the API contract:\n{1}', what, issueList(lines, problems.length, 5));
  },
  invalidInput: ({ parameter = '', problem = '' }) => {
    const labels = settingLabels();
    return l10n.t('Invalid {0}: {1}', Object.hasOwn(labels, parameter) ? labels[parameter] : parameter, problem);
  },
};

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

/** The error of a refused value (`parameter`: see ErrorFacts). */
export function invalidInput(parameter: string, problem: string): ControlPlaneError {
  return new ControlPlaneError('invalidInput', { parameter, problem });
}

/** The text of anything thrown, for messages and log lines. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function isControlPlaneError(error: unknown): error is ControlPlaneError {
  return error instanceof ControlPlaneError;
}

/** Whether `error` is a ControlPlaneError of `kind`. */
export function isErrorOf(error: unknown, kind: ErrorKind): error is ControlPlaneError {
  return error instanceof ControlPlaneError && error.kind === kind;
}
