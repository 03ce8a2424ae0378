import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clip, describeValue, quote, Redactor, sentence, shortJson, tidyMessage } from '../../src/api/text';

const KEY = 'sk-live-Q7f3Zr9LmX2pVb8KdT4nWc6HyJ1sGe5A';

describe('text hygiene', () => {
  it('redacts the whole key, a clipped key and any 12-character piece, but not 11', () => {
    const redactor = new Redactor(KEY);
    assert.equal(redactor.text(`a ${KEY} b ${KEY}`), 'a [redacted] b [redacted]');
    assert.equal(redactor.text(`cut ${KEY.slice(0, -1)}…`), 'cut [redacted]…');
    assert.equal(redactor.text(`mid ${KEY.slice(10, 22)} end`), 'mid [redacted] end');
    assert.equal(redactor.text(`x${KEY.slice(3, 16)}y${KEY.slice(20, 34)}z`), 'x[redacted]y[redacted]z');
    assert.equal(redactor.text(`short ${KEY.slice(0, 11)}`), `short ${KEY.slice(0, 11)}`);
    assert.equal(redactor.text(encodeURIComponent(`${KEY}/`)), '[redacted]%2F');
    assert.equal(new Redactor('abc').text('abc'), 'abc', 'keys too short to find are not searched for');
  });

  it('ends a sentence once, for one of ours to follow it', () => {
    assert.equal(sentence('Service Unavailable'), 'Service Unavailable.');
    assert.equal(sentence('The API key was refused. '), 'The API key was refused.');
    assert.deepEqual(['Done!', 'Why?', 'More…'].map(sentence), ['Done!', 'Why?', 'More…']);
  });

  it('quotes on one line without control characters, lone surrogates or U+FFFD', () => {
    assert.equal(quote('a\u0000b\r\nc\u0085d\ud800e\udc00f\ufffdg'), 'a b c d e f g');
    assert.equal(quote('😀😀', 2), '…', 'never cuts a surrogate pair');
    assert.equal(tidyMessage('line 1\r\nline\u0007 2'), 'line 1\nline  2');
    assert.equal(tidyMessage('x'.repeat(5000)).length, 1500);
    assert.equal(clip('abcdef', 4), 'abc…');
  });

  it('renders any value as short JSON, depth- and breadth-bounded', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(shortJson(deep), '[[[[…]]]]');
    assert.equal(shortJson({ a: 1, b: [2, 'x'], c: null }), '{"a":1,"b":[2,"x"],"c":null}');
    assert.equal(shortJson(Array.from({ length: 10 }, (_, i) => i)), '[0,1,2,3,4,…]');
    assert.ok(shortJson('y'.repeat(10_000)).length <= 120);
    assert.equal(describeValue(null), 'null');
    assert.equal(describeValue(42), '42');
    assert.equal(describeValue({ a: 1 }), 'an object {"a":1}');
    assert.equal(describeValue('z'.repeat(500)).length <= 82, true);
  });
});
