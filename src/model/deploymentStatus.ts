/**
 * Deployment statuses in words. The list of values is open (the contract fixes none), so any value reads
 * sensibly: `AWAITING_DATABASE` → "Awaiting database", `buildFailed` → "Build failed".
 */
import * as l10n from '@vscode/l10n';

// A function, not a constant: a table built at load would be built before activation configures l10n.
const statusTable = (): Record<string, string> => ({
  READY: l10n.t('Ready'),
  UNUSED: l10n.t('Unused'),
  AWAITING_DATABASE: l10n.t('Awaiting database'),
  AWAITING_DELETE: l10n.t('Awaiting deletion'),
  // The real service's last step of a delete (not in the contract).
  AWAITING_FINAL_DELETE: l10n.t('Awaiting final deletion'),
  UNKNOWN: l10n.t('Unknown'),
});

const MAX_WORDS_LENGTH = 40;

export function statusWords(status: string | null | undefined): string {
  const raw = (status ?? '').trim();
  if (!raw) return '';
  const known = statusTable()[raw.toUpperCase()];
  if (known) return known;
  const spaced = raw
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.\s]+/g, ' ')
    .trim()
    .toLowerCase();
  const words = spaced.charAt(0).toUpperCase() + spaced.slice(1);
  return words.length > MAX_WORDS_LENGTH ? `${words.slice(0, MAX_WORDS_LENGTH - 1)}…` : words;
}

/** True for a status value this extension does not know (an empty status is not one). */
export function isUnrecognisedStatus(status: string | null | undefined): boolean {
  const raw = (status ?? '').trim().toUpperCase();
  return raw !== '' && !(raw in statusTable());
}

/** "Awaiting database (AWAITING_DATABASE)"; the raw value alone when the words add nothing, '' when there is none. */
export function statusWithRawValue(status: string | null | undefined): string {
  const raw = (status ?? '').trim();
  const words = statusWords(raw);
  if (!words) return '';
  return words === raw ? raw : `${words} (${raw})`;
}
