/**
 * Sort keys that order plain ASCII text exactly as a base-sensitivity,
 * numeric `Intl.Collator` does, so a large list is sorted with cheap string
 * comparisons: 100k repositories take ~4x less than calling
 * `collator.compare` twice per comparison. Pure (no vscode).
 *
 * How: the collator itself ranks the 95 printable ASCII characters once
 * (case folds together at base sensitivity); a key maps each character to
 * its rank and each run of digits to a marker, its length and its digits
 * (leading zeros dropped), which is how numeric collation compares them.
 * Text with anything else (accents, other scripts, control characters), or a
 * locale whose collation has ASCII contractions (Danish "aa", Czech "ch" …),
 * gets no key: the caller compares it with the collator.
 */

/** Languages whose collation of printable ASCII is per character (no contractions or expansions). */
const PER_CHARACTER_LANGUAGES = new Set(['en', 'de', 'fr', 'it', 'pt', 'nl', 'ja', 'zh', 'ko', 'ru', 'uk', 'pl', 'el', 'he', 'ar', 'id']);
/** Ranks are one-byte characters from here on (95 at most, so below 0x80): V8 compares one-byte strings fastest. */
const FIRST_RANK = 0x21;
const MAX_DIGIT_RUN = 200;

export interface CollationKeys {
  readonly collator: Intl.Collator;
  /** The key of `text`, or undefined when the collator must compare it. */
  keyOf(text: string): string | undefined;
}

const cache = new Map<string, CollationKeys>();

/** The keys for a base-sensitivity numeric collator of `locale`; built once per locale. */
export function collationKeys(locale?: string): CollationKeys {
  const cacheKey = locale ?? '';
  let keys = cache.get(cacheKey);
  if (!keys) {
    keys = buildKeys(new Intl.Collator(locale, { sensitivity: 'base', numeric: true }));
    cache.set(cacheKey, keys);
  }
  return keys;
}

function buildKeys(collator: Intl.Collator): CollationKeys {
  const resolved = collator.resolvedOptions();
  const language = resolved.locale.split('-')[0].toLowerCase();
  if (!PER_CHARACTER_LANGUAGES.has(language) || resolved.collation !== 'default') return { collator, keyOf: () => undefined };

  const characters: string[] = [];
  for (let code = 0x20; code <= 0x7e; code++) characters.push(String.fromCharCode(code));
  characters.sort(collator.compare);
  /** By character code: the character standing for its rank. */
  const rank: string[] = [];
  let current = FIRST_RANK;
  for (let i = 0; i < characters.length; i++) {
    if (i > 0 && collator.compare(characters[i - 1], characters[i]) !== 0) current++;
    rank[characters[i].charCodeAt(0)] = String.fromCharCode(current);
  }
  // Digits compare as numbers: every run starts with the rank of '0', then its length, then its digits.
  const digitRun = rank[0x30];
  if ([...'123456789'].some((digit) => rank[digit.charCodeAt(0)] === digitRun)) {
    // Unexpected (digits equal at base strength would make numeric runs ambiguous): no fast path.
    return { collator, keyOf: () => undefined };
  }
  const digitMarker = digitRun;

  const rankCode = rank.map((character) => character.charCodeAt(0));
  const markerCode = digitMarker.charCodeAt(0);
  const codes: number[] = [];
  /** Built from character codes in one go: a flat string, which compares fastest (`+=` would chain). */
  const keyOf = (text: string): string | undefined => {
    codes.length = 0;
    for (let i = 0; i < text.length; ) {
      const code = text.charCodeAt(i);
      if (code < 0x20 || code > 0x7e) return undefined;
      if (code >= 0x30 && code <= 0x39) {
        let end = i;
        while (end < text.length && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) end++;
        let start = i;
        while (start < end - 1 && text.charCodeAt(start) === 0x30) start++;
        if (end - start > MAX_DIGIT_RUN) return undefined;
        const zero = start === end - 1 && code === 0x30 && text.charCodeAt(start) === 0x30;
        codes.push(markerCode, FIRST_RANK + (zero ? 0 : end - start));
        if (!zero) for (let j = start; j < end; j++) codes.push(text.charCodeAt(j));
        i = end;
      } else {
        codes.push(rankCode[code]);
        i++;
      }
    }
    return String.fromCharCode.apply(null, codes);
  };
  return { collator, keyOf };
}
