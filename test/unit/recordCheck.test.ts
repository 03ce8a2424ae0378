/**
 * checkRecord answers exactly what zod answers: the same verdict for every record, the same data
 * for every record that passes (kept as it came instead of copied), and zod's own issues for every
 * one that does not. Property-based: valid records of the sample data, mutated field by field.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as z from 'zod';
import { checkRecord } from '../../src/api/recordCheck';
import { deploymentSchema, deploymentSummarySchema, repositorySchema, resourceSpecSchema } from '../../src/api/schemas';
import { sampleData } from '../server/sampleData';

const data = sampleData(7, 60);
const deployments = data.deployments.map((record) => JSON.parse(JSON.stringify(record)) as Record<string, unknown>);
const repositories = data.integrations.flatMap((integration) => integration.repositories).map((record) => JSON.parse(JSON.stringify(record)) as Record<string, unknown>);

/** Values a server might put anywhere. */
const anyValue = fc.oneof(
  fc.constantFrom(null, undefined, true, 0, -1, 1.5, 2 ** 53, Number.NaN, Infinity, '', 'x', [], {}, [null], { a: 1 }),
  fc.constantFrom('0f8e7c8a-3b3d-4d5e-9a59-2f8c1e5b7a10', '0F8E7C8A-3B3D-4D5E-9A59-2F8C1E5B7A10', '0f8e7c8a-3b3d-4d5e-9a59-2f8c1e5b7a1', 'main'),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Every path of a JSON value that leads somewhere: ['source_config', 'resource_spec', 'cpu'], ['secrets', 0, 'value']. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (!value || typeof value !== 'object') return [];
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return keys.flatMap((key) => {
    const path = [...prefix, key];
    return [path, ...pathsOf((value as Record<string | number, unknown>)[key], path)];
  });
}

/** A copy of `record` with the field at `path` set to `value` (or deleted, for `delete`). */
function mutated(record: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown {
  const copy = structuredClone(record) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (remove) delete parent[last];
  else parent[last] = value;
  return copy;
}

function sameAsZod(schema: z.ZodType, value: unknown): void {
  const ours = checkRecord(schema, value);
  const zods = schema.safeParse(value);
  assert.equal(ours.success, zods.success, `verdict on ${JSON.stringify(value)?.slice(0, 300)}`);
  if (ours.success) assert.deepEqual(ours.data, zods.data);
  else assert.deepEqual(ours.error?.issues.map((issue) => issue.path), zods.error?.issues.map((issue) => issue.path));
}

const mutations = (records: Record<string, unknown>[]) =>
  fc
    .constantFrom(...records)
    .chain((record) => fc.tuple(fc.constant(record), fc.constantFrom(...pathsOf(record)), anyValue, fc.boolean()))
    .map(([record, path, value, remove]) => mutated(record, path, value, remove));

describe('checkRecord', () => {
  it('keeps each record of the sample data as it came: the same object, not a copy', () => {
    for (const record of deployments) {
      const listed = checkRecord(deploymentSummarySchema, record);
      assert.equal(listed.success && listed.data, record);
      const whole = checkRecord(deploymentSchema, record);
      assert.equal(whole.success && whole.data, record);
    }
    for (const record of repositories) {
      const result = checkRecord(repositorySchema, record);
      assert.equal(result.success && result.data, record);
    }
    assert.ok(deployments.length >= 60 && repositories.length > 0);
  });

  it('gives zod’s verdict, data and issue paths for deployments with any one field changed or removed', () => {
    fc.assert(
      fc.property(mutations(deployments), (record) => {
        sameAsZod(deploymentSummarySchema, record);
        sameAsZod(deploymentSchema, record);
      }),
      { numRuns: 3000, seed: 21 },
    );
  });

  it('gives zod’s verdict for repositories and resource specs with any one field changed or removed', () => {
    const specs = deployments
      .map((record) => (record.source_config as Record<string, unknown> | undefined)?.resource_spec)
      .filter((spec): spec is Record<string, unknown> => !!spec && typeof spec === 'object');
    assert.ok(specs.length > 0);
    fc.assert(
      fc.property(mutations(repositories), (record) => sameAsZod(repositorySchema, record)),
      { numRuns: 1000, seed: 22 },
    );
    fc.assert(
      fc.property(mutations(specs), (record) => sameAsZod(resourceSpecSchema, record)),
      { numRuns: 2000, seed: 23 },
    );
  });

  it('gives zod’s verdict for whole values that are not records', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        sameAsZod(deploymentSummarySchema, value);
        sameAsZod(repositorySchema, value);
      }),
      { numRuns: 300, seed: 24 },
    );
  });

  it('leaves to zod, which copies, a schema with a kind of check it does not know', () => {
    const record = { name: 'api', tags: ['a'] };
    const schemas: z.ZodType[] = [
      z.looseObject({ name: z.string().min(1) }),
      z.looseObject({ name: z.string().transform((name) => name.toUpperCase()) }),
      z.looseObject({ name: z.enum(['api', 'web']) }),
      z.looseObject({ name: z.string(), tags: z.array(z.string()).min(1) }),
      z.object({ name: z.string() }),
      z.looseObject({ name: z.string() }).refine(() => true),
    ];
    for (const schema of schemas) {
      const result = checkRecord(schema, record);
      assert.ok(result.success, String(schema.def.type));
      assert.notEqual(result.data, record);
    }
    const known = checkRecord(z.looseObject({ name: z.string(), tags: z.array(z.string()) }), record);
    assert.equal(known.success && known.data, record);
  });

  it('asks zod when a custom check answers something truthy but not true', () => {
    const schema = z.looseObject({ spec: z.custom(() => 'yes') });
    const result = checkRecord(schema, { spec: 1 });
    assert.equal(result.success, schema.safeParse({ spec: 1 }).success);
    assert.deepEqual(result.data, { spec: 1 });
  });

  it('reports a missing field that is not optional, even one of unknown content, as zod does', () => {
    const schema = z.looseObject({ anything: z.unknown(), maybe: z.string().optional() });
    assert.equal(checkRecord(schema, {}).success, false);
    assert.equal(checkRecord(schema, { anything: null }).success, true);
    sameAsZod(schema, { anything: undefined });
  });
});
