/**
 * Hygiene for every text the client shows that came from a server or a caller: short, single-line
 * where quoted, free of control characters and broken Unicode, and never the API key.
 */
import * as l10n from '@vscode/l10n';
import type { ConnectionOptions } from './http';

/** A run of this many characters of the key is treated as the key. */
const KEY_PIECE_LENGTH = 12;
/** Shorter secrets are not searched for (they would match ordinary words). */
const MIN_SECRET_LENGTH = 6;
const REDACTED = '[redacted]';

// C0 (except \n, which separates the lines of a message; a quote folds it with the other white
// space), DEL, C1, U+FFFD (what undecodable bytes became) and lone surrogates.
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Server text made fit to quote on one line: control characters become spaces, runs of space one. */
export function quote(text: string, max = 300): string {
  // Bound the work first: only the start of a huge text can be shown anyway.
  return clip(text.slice(0, max * 4).replace(UNSAFE, ' ').replace(/\s+/g, ' ').trim(), max);
}

/** A whole message: keeps its line breaks, drops other control characters, at most `max` characters. */
export function tidyMessage(text: string, max = 1500): string {
  return clip(text.slice(0, max * 4).replace(/\r\n?/g, '\n').replace(UNSAFE, ' '), max);
}

/** A text that ends its sentence, for one of ours to follow it: a full stop added where no . ! ? or … ends it. */
export function sentence(text: string): string {
  return /[.!?…]$/.test(text.trimEnd()) ? text.trimEnd() : `${text.trimEnd()}.`;
}

/** Cuts to `max` characters with an ellipsis, never between the halves of a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/**
 * Any JSON value as short JSON, depth- and breadth-bounded, so a value nested thousands of levels deep
 * or a megabyte long renders in bounded time: for non-string parts of server messages.
 */
export function shortJson(value: unknown, max = 120): string {
  return quote(render(value, 0), max);
}

const MAX_DEPTH = 3;
const MAX_ITEMS = 5;

function render(value: unknown, depth: number): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(clip(value, 60));
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value !== 'object') return typeof value;
  const array = Array.isArray(value);
  // One key more than shown says whether there are more; a huge value is never walked whole.
  const keys: string[] = array ? Object.keys(value.slice(0, MAX_ITEMS + 1)) : [];
  if (!array) {
    for (const key in value) {
      if (Object.hasOwn(value, key)) keys.push(key);
      if (keys.length > MAX_ITEMS) break;
    }
  }
  const [open, close] = array ? ['[', ']'] : ['{', '}'];
  if (keys.length === 0) return open + close;
  if (depth >= MAX_DEPTH) return `${open}…${close}`;
  const parts = keys.slice(0, MAX_ITEMS).map((key) => {
    const item = render((value as Record<string, unknown>)[key], depth + 1);
    return array ? item : `${JSON.stringify(clip(key, 40))}:${item}`;
  });
  if (keys.length > MAX_ITEMS) parts.push('…');
  return `${open}${parts.join(',')}${close}`;
}

/** What a caller passed, for an invalid-input message: short, typed, never "[object Object]". */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `“${quote(value, 80)}”`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return l10n.t('a list {0}', shortJson(value, 80));
  if (value && typeof value === 'object') return l10n.t('an object {0}', shortJson(value, 80));
  return describeKind(value);
}

/**
 * What kind of value a server sent, in the words `describeValue` uses, but never the value itself
 * ("a number", "null", "an array", "nothing"): for a field of a record, which may be a secret.
 */
export function describeKind(value: unknown): string {
  if (value === null || Number.isNaN(value)) return String(value);
  if (value === undefined) return l10n.t('nothing');
  if (Array.isArray(value)) return l10n.t('an array');
  if (typeof value === 'string') return l10n.t('a string');
  if (typeof value === 'number' || typeof value === 'bigint') return l10n.t('a number');
  if (typeof value === 'boolean') return l10n.t('a boolean');
  if (typeof value === 'function') return l10n.t('a function');
  return typeof value === 'object' ? l10n.t('an object') : typeof value;
}

/**
 * Removes secrets from text (the API key; a proxy's password and credentials): each whole wherever it
 * occurs, and any run of `KEY_PIECE_LENGTH` or more of its characters, so a secret that an earlier clip
 * cut short is caught too.
 */
export class Redactor {
  private readonly secrets: string[];
  private readonly pieces = new Set<string>();

  constructor(...keys: (string | undefined)[]) {
    // URL-encoded too (a server may echo it in a URL), the longer first.
    const secrets = keys.filter((key): key is string => !!key && key.length >= MIN_SECRET_LENGTH).flatMap((key) => [encodeURIComponent(key), key]);
    this.secrets = [...new Set(secrets)].sort((a, b) => b.length - a.length);
    for (const secret of this.secrets) {
      for (let i = 0; i + KEY_PIECE_LENGTH <= secret.length; i++) this.pieces.add(secret.slice(i, i + KEY_PIECE_LENGTH));
    }
  }

  /** Whole-key redaction: cheap enough for a whole body. */
  whole(text: string): string {
    return this.secrets.reduce((result, secret) => result.replaceAll(secret, REDACTED), text);
  }

  /** Whole keys and key pieces. Meant for bounded texts (messages, quotes): it looks at every position. */
  text(text: string): string {
    const whole = this.whole(text);
    // Every character inside a piece of the key is hidden; each run of them becomes one [redacted].
    const hidden = new Uint8Array(whole.length);
    for (let i = 0; this.pieces.size > 0 && i + KEY_PIECE_LENGTH <= whole.length; i++) {
      if (this.pieces.has(whole.slice(i, i + KEY_PIECE_LENGTH))) hidden.fill(1, i, i + KEY_PIECE_LENGTH);
    }
    if (!hidden.includes(1)) return whole;
    let result = '';
    for (let i = 0; i < whole.length; i++) {
      if (!hidden[i]) result += whole[i];
      else if (!hidden[i - 1]) result += REDACTED;
    }
    return result;
  }
}

/**
 * Why `value` cannot be sent as a header value, naming the first such character by its code point (a zero-width
 * space copied along with a key is the usual one); undefined when it can.
 */
export function headerValueProblem(value: string): string | undefined {
  const character = /[^\t\x20-\x7e\x80-\xff]/u.exec(value)?.[0];
  if (character === undefined) return undefined;
  const codePoint = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return l10n.t('it holds a character that cannot be sent in an HTTP header ({0}), perhaps copied along with it', codePoint);
}

/** The one redactor of a connection's secrets: its API key, and the password of http.proxy (and its Basic credentials). */
export function connectionRedactor(options: Pick<ConnectionOptions, 'apiKey' | 'proxyUrl'>): Redactor {
  const proxy = options.proxyUrl?.trim();
  const url = proxy && URL.canParse(proxy) ? new URL(proxy) : undefined;
  if (!url?.password) return new Redactor(options.apiKey);
  const password = decoded(url.password);
  const basic = Buffer.from(`${decoded(url.username)}:${password}`).toString('base64');
  return new Redactor(options.apiKey, password, url.password, basic);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
