// Reading an edited payload document back into a body, with the position of the first syntax error (JSON.parse's
// messages differ between node versions and often carry no position at all; jsonc-parser, the parser VS Code's own
// JSON support uses, reports error offsets).
import type { ParseError } from 'jsonc-parser';
import { describeKind } from '../api/text';
import { JsonObject } from './createPayload';
import { isPlainObject } from './jsonValues';
import * as l10n from '@vscode/l10n';

/**
 * jsonc-parser, loaded the first time JSON.parse fails on a payload rather than at every window start (its module
 * builds 1,200 cached indentation strings as it loads). esbuild keeps the module in the bundle and runs it on this
 * first call.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jsonc = (): typeof import('jsonc-parser') => require('jsonc-parser');

export type PayloadParseResult =
  | { ok: true; body: JsonObject }
  | { ok: false; message: string; offset: number; line: number; column: number };

export function parsePayloadText(text: string): PayloadParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const { offset, problem } = findSyntaxError(text);
    const { line, column } = positionOf(text, offset);
    return { ok: false, message: l10n.t('The payload is not valid JSON: {0} at line {1}, column {2}.', problem, line, column), offset, line, column };
  }
  if (!isPlainObject(value)) {
    const start = text.length - text.trimStart().length;
    const { line, column } = positionOf(text, start);
    return { ok: false, message: l10n.t('The payload must be a JSON object ({ … }), not {0} (line {1}, column {2}).', describeKind(value), line, column), offset: start, line, column };
  }
  return { ok: true, body: value };
}

/** 1-based line and column of a character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * Where and why strict JSON parsing fails, from jsonc-parser's first error
 * (comments and trailing commas are refused, as JSON.parse refuses them).
 * Only called when JSON.parse already failed.
 */
export function findSyntaxError(text: string): { offset: number; problem: string } {
  const { getLocation, parse, printParseErrorCode } = jsonc();
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const [first] = errors;
  if (!first) return { offset: 0, problem: l10n.t('invalid JSON') };
  const { error: code, offset, length } = first;
  // What surrounds the error: an array (the path to it ends with an index), or the place of a property name (path ends with '').
  const { path, isAtPropertyKey } = getLocation(text, offset);
  const inArray = typeof path[path.length - 1] === 'number';
  const found = (at: number): string => (at >= text.length ? l10n.t('the end of the text') : shown(text[at]));
  const inString = (pattern: RegExp): number => {
    const match = pattern.exec(text.slice(offset, offset + length));
    return match ? offset + match.index : offset;
  };
  const kind = printParseErrorCode(code);
  switch (kind) {
    case 'EndOfFileExpected':
      return { offset, problem: l10n.t('unexpected {0} after the end of the JSON value', found(offset)) };
    case 'ColonExpected':
      return { offset, problem: l10n.t('expected “:” after the property name, found {0}', found(offset)) };
    case 'CloseBraceExpected':
    case 'CloseBracketExpected':
    case 'CommaExpected':
      return kind === 'CloseBracketExpected' || (kind === 'CommaExpected' && inArray)
        ? { offset, problem: l10n.t('expected “,” or “]” after an array element, found {0}', found(offset)) }
        : { offset, problem: l10n.t('expected “,” or “}” after a property value, found {0}', found(offset)) };
    case 'UnexpectedEndOfString':
      // The string token stops at the end of the text, or before a line break.
      return offset + length >= text.length
        ? { offset: text.length, problem: l10n.t('unterminated string') }
        : { offset: offset + length, problem: l10n.t('line break or control character inside a string') };
    case 'InvalidCharacter':
      return { offset: inString(/[\u0000-\u001f]/), problem: l10n.t('line break or control character inside a string') };
    case 'InvalidUnicode':
      return { offset: inString(/\\u(?![0-9a-fA-F]{4})/), problem: l10n.t('invalid \\u escape') };
    case 'InvalidEscapeCharacter':
      return { offset: inString(/\\[^"\\/bfnrtu]/), problem: l10n.t('invalid escape in a string') };
    case 'UnexpectedEndOfNumber':
    case 'InvalidNumberFormat':
      return { offset, problem: l10n.t('incomplete number') };
  }
  // A symbol, comment or missing value: what was expected there decides the wording.
  if (text.trim() === '') return { offset: text.length, problem: l10n.t('the document is empty') };
  if (isAtPropertyKey && path[path.length - 1] === '') {
    return text[offset] === '}'
      ? { offset, problem: l10n.t('trailing comma before “}”') }
      : { offset, problem: l10n.t('expected a property name in double quotes, found {0}', found(offset)) };
  }
  if (inArray && text[offset] === ']') return { offset, problem: l10n.t('trailing comma before “]”') };
  return { offset, problem: offset >= text.length ? l10n.t('unexpected end of the text') : l10n.t('unexpected {0}', found(offset)) };
}

/** A character as the message names it; invisible ones (a no-break space, a byte-order mark) by their code too. */
function shown(ch: string): string {
  return /[\s\p{C}]/u.test(ch) ? `“${ch}” (U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})` : `“${ch}”`;
}
