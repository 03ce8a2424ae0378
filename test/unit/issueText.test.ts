// Zod's issues in our words (src/api/issueText.ts): what every issue code becomes, in English, when a
// real zod schema fails in parseInOurWords (our words as zod's per-parse error map).
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { issueText, parseInOurWords } from '../../src/api/issueText';
import * as l10n from '@vscode/l10n';
import { repositorySchema } from '../../src/api/schemas';
import { readCreateArgument } from '../../src/model/createArguments';

/** Each issue of `value` against `schema`, as `path: message` (the path joined with dots, empty for the root). */
function worded(schema: z.ZodType, value: unknown): string[] {
  const result = parseInOurWords(schema, value);
  assert.equal(result.success, false, `${JSON.stringify(value)} should not match`);
  return result.error!.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
}

/** The one issue of `value` against `schema`, at the root. */
const one = (schema: z.ZodType, value: unknown): string => {
  const issues = worded(schema, value);
  assert.equal(issues.length, 1, issues.join('\n'));
  assert.match(issues[0], /^: /);
  return issues[0].slice(2);
};

describe('zod issues in our words', () => {
  afterEach(() => l10n.config({ contents: {} }));

  it('invalid_type: what was expected and the kind of value received, never the value', () => {
    assert.equal(one(z.string(), 5), 'expected a string, got a number');
    assert.equal(one(z.string(), undefined), 'expected a string, got nothing');
    assert.equal(one(z.looseObject({}), null), 'expected an object, got null');
    assert.equal(one(z.array(z.string()), { a: 1 }), 'expected an array, got an object');
    assert.equal(one(z.boolean(), []), 'expected a boolean, got an array');
    assert.equal(one(z.number(), 'hunter2-secret'), 'expected a number, got a string');
    assert.equal(one(z.record(z.string(), z.unknown()), true), 'expected an object, got a boolean');
    assert.equal(one(z.number().int(), 1.5), 'expected a whole number, got a number with a fraction');
    assert.equal(one(z.null(), 0), 'expected null, got a number');
    assert.equal(one(z.never(), 'x'), 'expected no value, got a string');
    // In place, each with its own path.
    assert.deepEqual(worded(z.looseObject({ a: z.string(), b: z.array(z.number()) }), { b: [1, 'two'] }), [
      'a: expected a string, got nothing',
      'b.1: expected a number, got a string',
    ]);
  });

  it('too_small / too_big: numbers and lengths', () => {
    assert.equal(one(z.number().min(0), -1), 'expected at least 0');
    assert.equal(one(z.number().gt(0), 0), 'expected more than 0');
    assert.equal(one(z.number().max(5), 9), 'expected at most 5');
    assert.equal(one(z.number().lt(5), 5), 'expected less than 5');
    assert.equal(one(z.number().int(), 2 ** 60), `expected at most ${Number.MAX_SAFE_INTEGER}`);
    assert.equal(one(z.string().min(1), ''), 'expected at least one character');
    assert.equal(one(z.string().min(3), 'ab'), 'expected at least 3 characters');
    assert.equal(one(z.string().max(2), 'abc'), 'expected at most 2 characters');
    assert.equal(one(z.string().max(1), 'ab'), 'expected at most one character');
    assert.equal(one(z.string().length(3), 'ab'), 'expected exactly 3 characters');
    assert.equal(one(z.array(z.string()).min(1), []), 'expected at least one item');
    assert.equal(one(z.array(z.string()).min(2), ['a']), 'expected at least 2 items');
    assert.equal(one(z.array(z.string()).max(1), ['a', 'b']), 'expected at most one item');
    assert.equal(one(z.array(z.string()).length(2), ['a']), 'expected exactly 2 items');
  });

  it('invalid_format: patterns and formats; a message the schema gives itself is kept', () => {
    assert.equal(one(z.string().regex(/^a+$/), 'b'), 'expected text matching /^a+$/');
    assert.equal(one(z.string().startsWith('ab'), 'x'), 'expected text starting with “ab”');
    assert.equal(one(z.string().endsWith('yz'), 'x'), 'expected text ending with “yz”');
    assert.equal(one(z.string().includes('mid'), 'x'), 'expected text containing “mid”');
    assert.equal(one(z.uuid(), 'x'), 'expected a UUID');
    assert.equal(one(z.email(), 'x'), 'expected an email address');
    assert.equal(one(z.url(), 'x'), 'expected a URL');
    assert.equal(one(z.iso.datetime(), 'x'), 'expected an ISO 8601 date and time');
    assert.equal(one(z.ipv4(), 'x'), 'expected an IPv4 address');
    assert.equal(one(z.cuid(), '!'), 'expected text in the cuid format');
    assert.equal(one(z.string().regex(/^a$/, { error: () => 'expected the letter a' }), 'b'), 'expected the letter a');
    // The contract's UUID fields carry their own message; a field that is not even a string is ours.
    assert.deepEqual(worded(repositorySchema, { host_integration_id: 'nope', id: 1, name: 'n', owner: 'o', url: 'u', default_branch: 'main' }), [
      'host_integration_id: expected a UUID',
    ]);
    assert.deepEqual(worded(repositorySchema, { host_integration_id: 7, id: 1, name: 'n', owner: 'o', url: 'u', default_branch: 'main' }), [
      'host_integration_id: expected a string, got a number',
    ]);
  });

  it('invalid_value: the values an enum or a literal allows, and the kind received when it is not even theirs', () => {
    const types = z.enum(['dev_free', 'dev', 'prod']);
    assert.equal(one(types, 'staging'), 'expected one of “dev_free”, “dev”, “prod”');
    assert.equal(one(types, 3), 'expected one of “dev_free”, “dev”, “prod”, got a number');
    assert.equal(one(z.literal('a'), 'b'), 'expected “a”');
    assert.equal(one(z.literal(42), '42'), 'expected 42, got a string');
    const many = z.enum(Array.from({ length: 12 }, (_, i) => `v${i}`) as [string, ...string[]]);
    assert.equal(one(many, 'x'), `expected one of ${Array.from({ length: 10 }, (_, i) => `“v${i}”`).join(', ')}, …`);
  });

  it('not_multiple_of, custom (the schema’s message, or ours), unrecognized_keys', () => {
    assert.equal(one(z.number().multipleOf(3), 4), 'expected a multiple of 3');
    assert.equal(one(z.custom(() => false, { error: 'expected an even number' }), 3), 'expected an even number');
    assert.equal(one(z.custom(() => false), 3), 'not valid');
    assert.equal(one(z.strictObject({ a: z.string() }), { a: 'x', b: 1 }), 'unexpected field “b”');
    assert.equal(one(z.strictObject({}), { b: 1, 'c\nd': 2 }), 'unexpected fields “b”, “c d”');
    const keys = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, i]));
    assert.equal(one(z.strictObject({}), keys), 'unexpected fields “k0”, “k1”, “k2”, “k3”, “k4”, …');
  });

  it('invalid_union: the types of the alternatives, the discriminator’s values, or that none or several match', () => {
    assert.equal(one(z.union([z.string(), z.number()]), {}), 'expected a string or a number, got an object');
    assert.equal(one(z.union([z.string(), z.number(), z.boolean()]), null), 'expected a string or a number or a boolean, got null');
    assert.equal(one(z.union([z.looseObject({ a: z.string() }), z.looseObject({ b: z.number() })]), {}), 'matches none of the allowed forms');
    const tagged = z.discriminatedUnion('kind', [z.looseObject({ kind: z.literal('git') }), z.looseObject({ kind: z.literal('image') })]);
    assert.deepEqual(worded(tagged, { kind: 'zip' }), ['kind: expected one of “git”, “image”']);
    assert.deepEqual(worded(tagged, { kind: 1 }), ['kind: expected one of “git”, “image”, got a number']);
    assert.equal(one(z.xor([z.string(), z.string().min(1)]), 'ab'), 'matches more than one of the allowed forms');
  });

  it('any other code: the code in words', () => {
    assert.deepEqual(worded(z.record(z.string().min(2), z.string()), { a: 'x' }), ['a: not valid (invalid key)']);
    assert.equal(issueText({ code: 'invalid_element', origin: 'set', key: 0, issues: [], input: new Set() } as never), 'not valid (invalid element)');
    assert.equal(issueText({ code: 'some_new_code', input: 1, path: [] } as never), 'not valid (some new code)');
  });

  it('answers a matching value as zod does; changes only the parse it is given: zod’s own English elsewhere (no global error map)', () => {
    assert.deepEqual(parseInOurWords(z.looseObject({ a: z.string() }), { a: 'x', b: 1 }), { success: true, data: { a: 'x', b: 1 } });
    assert.equal(z.string().safeParse(5).error!.issues[0].message, 'Invalid input: expected string, received number');
  });

  it('goes through the translator', () => {
    l10n.config({ contents: { 'expected {0}, got {1}': '«expected {0}, got {1}»', 'a string': '«a string»', 'a number': '«a number»', 'expected at least {0}': '«expected at least {0}»', 'unexpected field {0}': '«unexpected field {0}»' } });
    assert.equal(one(z.string(), 5), '«expected «a string», got «a number»»');
    assert.equal(one(z.number().min(0), -1), '«expected at least 0»');
    assert.equal(one(z.strictObject({}), { b: 1 }), '«unexpected field “b”»');
  });

  it('words the problems of a repository record given to Create Deployment…', () => {
    assert.throws(
      () => readCreateArgument({ repository: { host_integration_id: 'x', id: '1', name: 'n', owner: 'o', url: 'u' } }),
      (error: unknown) =>
        (error as Error).message ===
        'Create Deployment… was given a repository record that is not usable: host_integration_id: expected a UUID; id: expected a number, got a string; default_branch: expected a string, got nothing',
    );
  });
});
