/** Text as the views show it: server text made safe for Markdown, counts and times in the user's language. */

/** Escapes text from the server for a Markdown tooltip: no formatting, links or HTML can be injected. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (char) => `\\${char}`).replace(/\r?\n/g, ' ');
}

/** A count as the user's language writes it (`100,000`, `100.000`, `100 000`). */
export function formatCount(value: number, locale?: string): string {
  return inLanguage(locale, (tag) => value.toLocaleString(tag));
}

/** Formats an ISO time in the user's locale; the raw text when it does not parse. */
export function formatTime(iso: string, locale?: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  return inLanguage(locale, (tag) => time.toLocaleString(tag, { dateStyle: 'medium', timeStyle: 'medium' }));
}

/** `format` in the user's language, or in the default one when Intl does not accept the tag. */
export function inLanguage(locale: string | undefined, format: (locale: string | undefined) => string): string {
  try {
    return format(locale);
  } catch {
    return format(undefined);
  }
}

/**
 * The first line of a message, for a row or a status line; when that line only introduces the next ones (it ends
 * in ":", as before a 422's reasons or the problems of an answer off the contract), they follow it, joined by "; ".
 */
export function headline(message: string): string {
  const [first, ...rest] = message.split('\n');
  return first.trimEnd().endsWith(':') && rest.length > 0 ? `${first} ${rest.join('; ')}` : first;
}

/** A string without its surrounding white space; undefined for anything else, or a string of white space only. */
export function trimmedText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
