import * as l10n from '@vscode/l10n';
import { invalidInput } from './errors';
import { quote } from './text';

/**
 * Why `text` cannot be the base URL of a control plane, or undefined when it can: the one check, for
 * what the user types, the profiles setting and the client. A user name or password is never repeated.
 */
export function baseUrlProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return l10n.t('no base URL is set');
  const shown = quote(withoutUserInfo(trimmed), 200);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return l10n.t('“{0}” is not a URL (expected e.g. https://api.example.com)', shown);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return l10n.t('“{0}” must start with http:// or https://', shown);
  if (url.username || url.password) return l10n.t('the URL must not contain a user name or password; use the API key instead');
  return undefined;
}

/** The base URL as a client uses it, without its query, fragment and trailing slashes; an invalid-input error when it cannot be one. */
export function clientBaseUrl(text: string): string {
  const problem = baseUrlProblem(text);
  if (problem) throw invalidInput('base URL', problem);
  const url = new URL(text.trim());
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * A URL (proxy, base URL) as a message may show it: its user name and password (`user:pass@`, up to
 * the last `@` before the path), parseable or not, become `[redacted]@`.
 */
export function withoutUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z\d+.-]*:\/\/)?[^\s/?#]*@/i, '$1[redacted]@');
}
