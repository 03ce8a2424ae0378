/**
 * Zod's issues in our words, through `l10n.t()`, so that the problem lines of off-contract records
 * (`created_at: expected a string, got a number`) can be translated: zod's own messages ("Invalid
 * input: expected string, received number") are English no translator can reach.
 *
 * Used as zod's per-parse error map (through `parseInOurWords`) rather than on the finished
 * issues, because only there
 *  - a message the schema gives itself (`expected a UUID`) still wins: zod asks the schema's own
 *    map first and this one only for issues the schema has no message for, whereas a finished
 *    issue's message cannot tell the schema's words from zod's English;
 *  - the issue still has its `input`, which zod drops from the finished issue (keeping it, with
 *    `reportInput`, would keep server values, secrets among them, on every error);
 *  - it changes that one parse only: a global `z.config` would reword zod for every other user of
 *    the same copy (the payload JSON schema, tests).
 * zod builds a failed parse's error when `.error` is first read, so the texts are made then, in the
 * language of the translator installed at that time, like the schemas' own message functions.
 *
 * The texts are short and lowercase, like the client's other problem texts, and never repeat a
 * value the server sent (only its kind: "a number", "an array"), so a secret cannot reach a tooltip
 * through them. Only the names of unexpected fields are quoted.
 */
import type * as z from 'zod';
import * as l10n from '@vscode/l10n';
import { describeKind, quote } from './text';

type RawIssue = z.core.$ZodRawIssue;

/** Parse options that word every issue the schema has no message for. */
const inOurWords: z.core.ParseContext<z.core.$ZodIssue> = { error: (issue) => issueText(issue) };

/**
 * `schema.safeParse(value)`, the issues of a failure in our words. A value that fails is parsed
 * twice: this zod parses a value given any options about 2.5 times slower, even one that matches
 * (it copies them into a parse context of another shape; measured on a page of 100 deployments:
 * 0.1 ms plain, 0.27 ms with options), and nearly every listed record matches the contract.
 */
export function parseInOurWords<T extends z.ZodType>(schema: T, value: unknown): z.ZodSafeParseResult<z.infer<T>> {
  const result = schema.safeParse(value);
  return result.success ? result : schema.safeParse(value, inOurWords);
}

/** Values of an enum or a literal listed, at most this many. */
const MAX_VALUES = 10;
/** Unexpected field names listed, at most this many. */
const MAX_KEYS = 5;

/**
 * One zod issue as zod hands it to an error map (with its `input`, before it has a message), in
 * words: "expected a string, got a number", "expected at least 0", "expected one of “dev”, “prod”".
 */
export function issueText(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return l10n.t('expected {0}, got {1}', expectedWords(issue.expected), gotWords(issue.expected, issue.input));
    case 'too_small':
      return sizeText('min', issue.origin, issue.minimum, issue.inclusive, issue.exact);
    case 'too_big':
      return sizeText('max', issue.origin, issue.maximum, issue.inclusive, issue.exact);
    case 'invalid_format':
      return formatText(issue);
    case 'invalid_value':
      return valuesText(issue.values, issue.input);
    case 'not_multiple_of':
      return l10n.t('expected a multiple of {0}', String(issue.divisor));
    case 'custom':
      return typeof issue.message === 'string' && issue.message ? issue.message : l10n.t('not valid');
    case 'unrecognized_keys': {
      const keys = issue.keys.slice(0, MAX_KEYS).map((key) => `“${quote(key, 40)}”`);
      if (issue.keys.length > MAX_KEYS) keys.push('…');
      return issue.keys.length === 1 ? l10n.t('unexpected field {0}', keys[0]) : l10n.t('unexpected fields {0}', keys.join(', '));
    }
    case 'invalid_union':
      return unionText(issue);
    default:
      return l10n.t('not valid ({0})', String((issue as { code?: unknown }).code ?? 'unknown').replace(/_/g, ' '));
  }
}

/** `expected` of an invalid_type issue: zod's type names in words. */
function expectedWords(expected: string): string {
  switch (expected) {
    case 'string':
      return l10n.t('a string');
    case 'number':
    case 'bigint':
      return l10n.t('a number');
    case 'int':
      return l10n.t('a whole number');
    case 'boolean':
      return l10n.t('a boolean');
    case 'array':
    case 'tuple':
      return l10n.t('an array');
    case 'object':
    case 'record':
      return l10n.t('an object');
    case 'date':
      return l10n.t('a date');
    case 'function':
      return l10n.t('a function');
    case 'null':
      return 'null';
    case 'nan':
      return 'NaN';
    case 'undefined':
    case 'void':
      return l10n.t('nothing');
    case 'never':
      return l10n.t('no value');
    case 'nonoptional':
      return l10n.t('a value');
    default:
      return quote(String(expected), 40);
  }
}

/** The kind of value received; a number with a fraction where a whole number was expected says so. */
function gotWords(expected: string, input: unknown): string {
  if (expected === 'int' && typeof input === 'number' && Number.isFinite(input) && !Number.isInteger(input)) {
    return l10n.t('a number with a fraction');
  }
  return describeKind(input);
}

const SIZED = new Set(['string', 'array', 'set', 'map', 'file']);

/** too_small / too_big: a number's bound, or a length's (characters of a string, items of a list). */
function sizeText(side: 'min' | 'max', origin: string, bound: number | bigint, inclusive?: boolean, exact?: boolean): string {
  if (!SIZED.has(origin)) {
    const limit = origin === 'date' && typeof bound === 'number' && Number.isFinite(bound) ? new Date(bound).toISOString() : String(bound);
    if (exact) return l10n.t('expected exactly {0}', limit);
    if (side === 'min') return inclusive === false ? l10n.t('expected more than {0}', limit) : l10n.t('expected at least {0}', limit);
    return inclusive === false ? l10n.t('expected less than {0}', limit) : l10n.t('expected at most {0}', limit);
  }
  // Lengths are whole: "more than 2" is "at least 3".
  let n = Number(bound);
  if (!exact && inclusive === false) n += side === 'min' ? 1 : -1;
  if (origin === 'string') {
    if (exact) return n === 1 ? l10n.t('expected exactly one character') : l10n.t('expected exactly {0} characters', n);
    if (side === 'min') return n === 1 ? l10n.t('expected at least one character') : l10n.t('expected at least {0} characters', n);
    return n === 1 ? l10n.t('expected at most one character') : l10n.t('expected at most {0} characters', n);
  }
  if (origin === 'file') {
    if (exact) return l10n.t('expected exactly {0} bytes', n);
    return side === 'min' ? l10n.t('expected at least {0} bytes', n) : l10n.t('expected at most {0} bytes', n);
  }
  if (exact) return n === 1 ? l10n.t('expected exactly one item') : l10n.t('expected exactly {0} items', n);
  if (side === 'min') return n === 1 ? l10n.t('expected at least one item') : l10n.t('expected at least {0} items', n);
  return n === 1 ? l10n.t('expected at most one item') : l10n.t('expected at most {0} items', n);
}

/** invalid_format: a string that is not of the format or pattern asked for. */
function formatText(issue: RawIssue & { code: 'invalid_format' }): string {
  const detail = issue as { pattern?: unknown; prefix?: unknown; suffix?: unknown; includes?: unknown };
  switch (issue.format) {
    case 'regex':
      return l10n.t('expected text matching {0}', quote(String(detail.pattern ?? ''), 80));
    case 'starts_with':
      return l10n.t('expected text starting with “{0}”', quote(String(detail.prefix ?? ''), 60));
    case 'ends_with':
      return l10n.t('expected text ending with “{0}”', quote(String(detail.suffix ?? ''), 60));
    case 'includes':
      return l10n.t('expected text containing “{0}”', quote(String(detail.includes ?? ''), 60));
    case 'uuid':
    case 'uuidv4':
    case 'uuidv6':
    case 'uuidv7':
    case 'guid':
      return l10n.t('expected a UUID');
    case 'email':
      return l10n.t('expected an email address');
    case 'url':
      return l10n.t('expected a URL');
    case 'datetime':
      return l10n.t('expected an ISO 8601 date and time');
    case 'date':
      return l10n.t('expected an ISO 8601 date');
    case 'time':
      return l10n.t('expected an ISO 8601 time');
    case 'duration':
      return l10n.t('expected an ISO 8601 duration');
    case 'ipv4':
      return l10n.t('expected an IPv4 address');
    case 'ipv6':
      return l10n.t('expected an IPv6 address');
    default:
      return l10n.t('expected text in the {0} format', quote(String(issue.format), 40));
  }
}

/** A value of an enum or a literal as the schema spells it: strings in quotes. */
function literal(value: unknown): string {
  return typeof value === 'string' ? `“${quote(value, 60)}”` : value === undefined ? l10n.t('nothing') : String(value);
}

/** "“dev”" or "one of “dev_free”, “dev”, “prod”". */
function oneOf(values: readonly unknown[]): string {
  if (values.length === 1) return literal(values[0]);
  const listed = values.slice(0, MAX_VALUES).map(literal);
  if (values.length > MAX_VALUES) listed.push('…');
  return l10n.t('one of {0}', listed.join(', '));
}

/** invalid_value: the allowed values; the kind received only when it is not even theirs. */
function valuesText(values: readonly unknown[], input: unknown): string {
  const kinds = new Set(values.map(describeKind));
  const got = describeKind(input);
  return kinds.has(got) ? l10n.t('expected {0}', oneOf(values)) : l10n.t('expected {0}, got {1}', oneOf(values), got);
}

function unionText(issue: RawIssue & { code: 'invalid_union' }): string {
  const union = issue as {
    discriminator?: string;
    options?: unknown[];
    inclusive?: boolean;
    errors?: readonly (readonly { code?: string; path?: readonly PropertyKey[]; expected?: string }[])[];
  };
  // A discriminated union whose discriminator has none of its values: the path names the
  // discriminator, the input is the whole object.
  if (Array.isArray(union.options) && union.options.length > 0) {
    const input = issue.input;
    const tagged = union.discriminator !== undefined && input !== null && typeof input === 'object';
    return valuesText(union.options, tagged ? (input as Record<string, unknown>)[union.discriminator!] : input);
  }
  if (union.inclusive === false) return l10n.t('matches more than one of the allowed forms');
  // Alternatives that differ in type only ("a string or a number"): say which types.
  const alternatives = union.errors ?? [];
  const types = alternatives.map((issues) =>
    issues.length === 1 && issues[0].code === 'invalid_type' && (issues[0].path ?? []).length === 0 ? issues[0].expected : undefined,
  );
  if (types.length > 0 && types.every((type) => type !== undefined)) {
    const words = [...new Set(types.map((type) => expectedWords(type!)))];
    const either = words.slice(1).reduce((list, word) => l10n.t('{0} or {1}', list, word), words[0]);
    return l10n.t('expected {0}, got {1}', either, describeKind(issue.input));
  }
  return l10n.t('matches none of the allowed forms');
}
