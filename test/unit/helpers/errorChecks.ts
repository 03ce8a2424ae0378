import assert from 'node:assert/strict';
import { ControlPlaneError, isControlPlaneError } from '../../../src/api';

/** A realistic API key (40 characters) that test servers echo back. */
export const KEY = 'sk-live-Q7f3Zr9LmX2pVb8KdT4nWc6HyJ1sGe5A';

/** Every text an error shows or serialises. */
export function errorTexts(error: Error): Record<string, string> {
  return { message: error.message, string: String(error), json: JSON.stringify(error), stack: error.stack ?? '' };
}

/** The key, or any 12-character piece of it, in `text`. */
export function keyPieceIn(text: string, key = KEY): string | undefined {
  for (let i = 0; i + 12 <= key.length; i++) if (text.includes(key.slice(i, i + 12))) return key.slice(i, i + 12);
  return undefined;
}

/** A client error fit to show: 1..1,500 characters, no control characters but line breaks, no "[object Object]", no key or 12-character piece of it anywhere. */
export function assertClean(error: unknown, key = KEY): asserts error is ControlPlaneError {
  assert.ok(isControlPlaneError(error), `not a client error: ${String(error)}`);
  const { message } = error;
  assert.ok(message.length > 0 && message.length <= 1500, `message of ${message.length} characters`);
  assert.doesNotMatch(message, /\[object Object\]/);
  assert.doesNotMatch(message, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufffd]/, `control character in ${JSON.stringify(message)}`);
  for (const [where, text] of Object.entries(errorTexts(error))) {
    const piece = keyPieceIn(text, key);
    assert.equal(piece, undefined, `${where} shows “${piece}”: ${text.slice(0, 300)}`);
  }
}

