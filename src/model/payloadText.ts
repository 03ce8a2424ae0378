// Pure (no vscode import): reading an edited payload document back into a body,
// with the position of the first syntax error (JSON.parse's messages differ
// between node versions and often carry no position at all).
import { isPlainObject, JsonObject } from './createPayload';

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
    return { ok: false, message: `The payload is not valid JSON: ${problem} at line ${line}, column ${column}.`, offset, line, column };
  }
  if (!isPlainObject(value)) {
    const start = text.length - text.trimStart().length;
    const { line, column } = positionOf(text, start);
    return { ok: false, message: `The payload must be a JSON object ({ … }), not ${describe(value)} (line ${line}, column ${column}).`, offset: start, line, column };
  }
  return { ok: true, body: value };
}

/** 1-based line and column of a character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

class SyntaxProblem {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {}
}

/** Where and why strict JSON parsing fails. Only called when JSON.parse already failed. */
export function findSyntaxError(text: string): { offset: number; problem: string } {
  let i = 0;
  const fail = (problem: string, at = i): never => {
    throw new SyntaxProblem(at, problem);
  };
  const found = (): string => (i >= text.length ? 'the end of the text' : `“${text[i]}”`);
  const skipSpace = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${found()}`);
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\n' || ch < ' ') fail('line break or control character inside a string');
      if (ch === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape');
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail('invalid escape in a string');
      } else i++;
    }
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail(`unexpected ${found()}`);
    i += match![0].length;
  };
  const value = (): void => {
    skipSpace();
    const ch = text[i];
    if (ch === '{') object();
    else if (ch === '[') array();
    else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch >= '0' && ch <= '9')) number();
    else fail(i >= text.length ? 'unexpected end of the text' : `unexpected ${found()}`);
  };
  const object = (): void => {
    i++;
    skipSpace();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      skipSpace();
      if (text[i] !== '"') fail(text[i] === '}' ? 'trailing comma before “}”' : `expected a property name in double quotes, found ${found()}`);
      string();
      skipSpace();
      if (text[i] !== ':') fail(`expected “:” after the property name, found ${found()}`);
      i++;
      value();
      skipSpace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      fail(`expected “,” or “}” after a property value, found ${found()}`);
    }
  };
  const array = (): void => {
    i++;
    skipSpace();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      skipSpace();
      if (text[i] === ']') fail('trailing comma before “]”');
      value();
      skipSpace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      fail(`expected “,” or “]” after an array element, found ${found()}`);
    }
  };
  try {
    skipSpace();
    if (i >= text.length) fail('the document is empty');
    value();
    skipSpace();
    if (i < text.length) fail(`unexpected ${found()} after the end of the JSON value`);
    return { offset: i, problem: 'invalid JSON' };
  } catch (error) {
    if (error instanceof SyntaxProblem) return { offset: error.offset, problem: error.problem };
    throw error;
  }
}
