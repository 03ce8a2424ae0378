/**
 * One error class per failure class. Every message is meant to be shown to a
 * person as it is: it says what went wrong; the UI adds the next step.
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

export abstract class ControlPlaneError extends Error {
  abstract readonly kind: ControlPlaneErrorKind;
  /** HTTP status, where the server answered. */
  readonly status?: number;

  constructor(message: string, status?: number) {
    super(message);
    this.name = new.target.name;
    this.status = status;
  }
}

/** 401 or 403. `detail` is the server's own explanation, kept verbatim. */
export class AuthError extends ControlPlaneError {
  readonly kind = 'auth';
  constructor(
    status: number,
    readonly detail: string | undefined,
  ) {
    super(
      `${status === 401 ? 'Not authenticated' : 'Access denied'} (HTTP ${status})` +
        (detail ? `: ${detail}` : '. Check the API key and the tenant ID.'),
      status,
    );
  }

  /** The server asks for a workspace/tenant to be named (organisation-scoped keys). */
  get needsTenant(): boolean {
    return this.status === 403 && !!this.detail && /workspace|tenant/i.test(this.detail);
  }
}

export class NotFoundError extends ControlPlaneError {
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
export class RequestValidationError extends ControlPlaneError {
  readonly kind = 'validation';
  constructor(
    status: number,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(
      `The server refused the request (HTTP ${status}):\n` +
        issues.map((issue) => (issue.loc ? `${issue.loc}: ${issue.msg}` : issue.msg)).join('\n'),
      status,
    );
  }
}

export class RateLimitedError extends ControlPlaneError {
  readonly kind = 'rateLimited';
  constructor(readonly retryAfterMs: number | undefined) {
    super(
      'The control plane is rate limiting requests (HTTP 429)' +
        (retryAfterMs !== undefined ? `; it asks to wait ${Math.ceil(retryAfterMs / 1000)} s.` : '.'),
      429,
    );
  }
}

export class ServerError extends ControlPlaneError {
  readonly kind = 'server';
  constructor(status: number, detail: string | undefined) {
    super(`The control plane failed (HTTP ${status})${detail ? `: ${detail}` : '.'} Try again later.`, status);
  }
}

/** Any other non-success status (400, 405, 409, …). */
export class HttpError extends ControlPlaneError {
  readonly kind = 'http';
  constructor(
    status: number,
    readonly detail: string | undefined,
  ) {
    super(`The control plane answered HTTP ${status}${detail ? `: ${detail}` : '.'}`, status);
  }
}

export class NetworkError extends ControlPlaneError {
  readonly kind = 'network';
  constructor(
    readonly target: string,
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`Cannot reach the control plane at ${target}: ${reason}${code ? ` (${code})` : ''}.`);
  }
}

export class TimeoutError extends ControlPlaneError {
  readonly kind = 'timeout';
  constructor(readonly timeoutMs: number) {
    super(`The control plane did not answer within ${timeoutMs / 1000} s.`);
  }
}

export class CancelledError extends ControlPlaneError {
  readonly kind = 'cancelled';
  constructor() {
    super('The request was cancelled.');
  }
}

/** A body that is not JSON: typically an HTML error page from a proxy or gateway. */
export class InvalidResponseError extends ControlPlaneError {
  readonly kind = 'invalidResponse';
  constructor(
    status: number,
    readonly contentType: string | undefined,
    readonly snippet: string,
  ) {
    super(
      `The control plane's answer (HTTP ${status}${contentType ? `, ${contentType}` : ''}) is not JSON` +
        (snippet ? `: “${snippet}”` : ' (empty body)') +
        '. A proxy or gateway may be in the way; check the base URL.',
      status,
    );
  }
}

/** JSON that does not match the contract. `issues` name the record index and field path. */
export class SchemaError extends ControlPlaneError {
  readonly kind = 'schema';
  constructor(
    readonly what: string,
    readonly issues: readonly string[],
  ) {
    const shown = issues.slice(0, 5);
    const more = issues.length > shown.length ? `\n…and ${issues.length - shown.length} more` : '';
    super(`The ${what} does not match the API contract:\n${shown.join('\n')}${more}`);
  }
}

/** A value refused before any request is sent; names the parameter. */
export class InvalidInputError extends ControlPlaneError {
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

export function isControlPlaneError(error: unknown): error is ControlPlaneError {
  return error instanceof ControlPlaneError;
}
