import type { JsonObject } from './createPayload';

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
