import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findSyntaxError, parsePayloadText, positionOf } from '../../src/model/payloadText';

describe('parsePayloadText', () => {
  it('answers the body of valid JSON', () => {
    assert.deepEqual(parsePayloadText('{\n  "name": "a",\n  "secrets": []\n}\n'), { ok: true, body: { name: 'a', secrets: [] } });
  });

  const failures: Array<[string, string, number, number, RegExp]> = [
    ['trailing comma', '{\n  "name": "a",\n}', 3, 1, /trailing comma before “}”/],
    ['missing comma', '{\n  "name": "a"\n  "ref": "b"\n}', 3, 3, /expected “,” or “}”/],
    ['single quotes', "{\n  'name': 'a'\n}", 2, 3, /property name in double quotes/],
    ['unterminated string', '{"name": "a', 1, 12, /unterminated string/],
    ['unclosed object', '{"name": "a"', 1, 13, /expected “,” or “}”.*end of the text/],
    ['bare word', '{"name": abc}', 1, 10, /unexpected “a”/],
    ['empty document', '  \n ', 2, 2, /empty/],
    ['text after the value', '{}\n}', 2, 1, /after the end of the JSON value/],
    ['array trailing comma', '{"secrets": [1,]}', 1, 16, /trailing comma before “]”/],
    ['bad escape', '{"a": "\\x"}', 1, 8, /invalid escape/],
    ['comment', '{\n  // note\n  "a": 1\n}', 2, 3, /property name/],
    ['block comment after a value', '{"a": 1 /* x */}', 1, 9, /unexpected “\/”/],
    ['missing colon', '{"a" 1}', 1, 6, /expected “:” after the property name, found “1”/],
    ['missing comma in an array', '{"s": [1 2]}', 1, 10, /expected “,” or “]” after an array element, found “2”/],
    ['unclosed array', '{"s": [1', 1, 9, /expected “,” or “]”.*end of the text/],
    ['line break in a string', '{"a": "x\ny"}', 1, 9, /line break or control character inside a string/],
    ['tab in a string', '{"a": "x\ty"}', 1, 9, /line break or control character inside a string/],
    ['bad \\u escape', '{"a": "ab\\u12"}', 1, 10, /invalid \\u escape/],
    ['incomplete number', '{"a": 1.}', 1, 7, /incomplete number/],
    ['missing value', '{"a": }', 1, 7, /unexpected “}”/],
    ['leading comma', '{, "a": 1}', 1, 2, /property name in double quotes, found “,”/],
    ['no-break space', '{\u00a0"a": 1}', 1, 2, /property name in double quotes, found “\u00a0” \(U\+00A0\)/],
    ['byte-order mark', '\ufeff{"a": 1}', 1, 1, /unexpected “\ufeff” \(U\+FEFF\)/],
    ['value cut off', '{"a": ', 1, 7, /unexpected end of the text/],
  ];
  for (const [what, text, line, column, message] of failures) {
    it(`reports ${what} at line ${line}, column ${column}`, () => {
      const result = parsePayloadText(text);
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.equal(result.line, line, result.message);
      assert.equal(result.column, column, result.message);
      assert.match(result.message, message);
      assert.match(result.message, new RegExp(`line ${line}, column ${column}`));
    });
  }

  it('refuses JSON that is not an object', () => {
    for (const text of ['[]', '"name"', 'null', '  42']) {
      const result = parsePayloadText(text);
      assert.equal(result.ok, false, text);
      if (!result.ok) assert.match(result.message, /must be a JSON object/);
    }
  });

  it('agrees with JSON.parse on what is valid', () => {
    for (const text of ['{"a":1e5,"b":-0.5,"c":"\\u00e9\\n","d":[true,false,null],"e":{}}', '{ "a" : [ ] }']) {
      assert.doesNotThrow(() => JSON.parse(text));
      assert.equal(parsePayloadText(text).ok, true);
    }
    for (const text of ['{"a":01}', '{"a":1.}', '{"a":.5}', '{"a":"\t"}']) {
      assert.throws(() => JSON.parse(text));
      const located = findSyntaxError(text);
      assert.ok(located.offset >= 0 && located.offset <= text.length, text);
    }
  });

  it('counts lines and columns from 1', () => {
    assert.deepEqual(positionOf('ab\ncd', 0), { line: 1, column: 1 });
    assert.deepEqual(positionOf('ab\ncd', 4), { line: 2, column: 2 });
  });
});
