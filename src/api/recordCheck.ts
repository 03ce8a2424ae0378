/**
 * The check of each record a listing returns, with zod's schema as its one definition.
 *
 * Nearly every record a server lists matches the contract, and for those zod's parse costs more
 * than the rest of the client together: it builds a copy of each record, nested groups included
 * (~2.7 µs a deployment; with the garbage it leaves, the client took 1.2× a bare request and
 * `JSON.parse` at 100 records a page, `npm run bench`). So each schema is also compiled, once, into
 * a plain predicate that allocates nothing. When it says yes, the record is kept as `JSON.parse`
 * made it (same fields, in the server's order); when it says no, zod parses the record as before
 * and decides, and its issues name the problems.
 *
 * The predicate only ever says yes to what zod accepts unchanged: it knows the few kinds of schema
 * the contract's are made of (loose objects, optional, nullable, string with a pattern, number,
 * integer with a minimum or maximum, boolean, array, string-keyed record of unknowns, custom), and a
 * schema with anything else (a transform, a default, another check) gets no predicate: zod
 * checks all its records. `test/unit/recordCheck.test.ts` holds it to zod's verdicts.
 */
import type * as z from 'zod';
import { parseInOurWords } from './issueText';

type Acceptor = (value: unknown) => boolean;

/** The parts of zod's schema definitions read here (zod 4's `_zod.def`). */
interface SchemaDef {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  innerType?: Schema;
  element?: Schema;
  keyType?: Schema;
  valueType?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  fn?: (value: unknown) => unknown;
}
interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  value?: unknown;
  inclusive?: boolean;
}
interface Schema {
  _zod: { def: SchemaDef };
}

const acceptors = new WeakMap<object, Acceptor | null>();

/**
 * `schema.safeParse(value)`, issues in our words (`parseInOurWords`), except that a value the
 * schema's predicate accepts is answered as it is, not copied.
 */
export function checkRecord<T extends z.ZodType>(schema: T, value: unknown): z.ZodSafeParseResult<z.infer<T>> {
  let accepts = acceptors.get(schema);
  if (accepts === undefined) {
    accepts = compile(schema as unknown as Schema) ?? null;
    acceptors.set(schema, accepts);
  }
  if (accepts?.(value)) return { success: true, data: value as z.infer<T> };
  return parseInOurWords(schema, value);
}

/** The predicate of a schema, or undefined when the schema uses a kind not known here. */
function compile(schema: Schema): Acceptor | undefined {
  const def = schema._zod.def;
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  switch (def.type) {
    case 'unknown':
    case 'any':
      return checks.length === 0 ? () => true : undefined;
    case 'boolean':
      return checks.length === 0 ? (value) => typeof value === 'boolean' : undefined;
    case 'string':
      return stringAcceptor(checks);
    case 'number':
      return numberAcceptor(checks);
    case 'optional':
    case 'nullable': {
      const inner = checks.length === 0 && def.innerType ? compile(def.innerType) : undefined;
      if (!inner) return undefined;
      return def.type === 'optional' ? (value) => value === undefined || inner(value) : (value) => value === null || inner(value);
    }
    case 'array': {
      const element = checks.length === 0 && def.element ? compile(def.element) : undefined;
      if (!element) return undefined;
      return (value) => {
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!element(value[i])) return false;
        return true;
      };
    }
    case 'record':
      // Only z.record(z.string(), z.unknown()): any plain object, whatever its values.
      if (checks.length > 0 || !isPlain(def.keyType, 'string') || !isPlain(def.valueType, 'unknown')) return undefined;
      return isPlainObject;
    case 'custom': {
      const fn = def.fn;
      // Only a plain `true` counts: zod takes any truthy answer, but a promise would make it throw.
      return checks.length === 0 && fn ? (value) => fn(value) === true : undefined;
    }
    case 'object':
      return checks.length === 0 && def.shape && isPlain(def.catchall, 'unknown') ? looseObjectAcceptor(def.shape) : undefined;
    default:
      return undefined;
  }
}

function stringAcceptor(checks: CheckDef[]): Acceptor | undefined {
  const patterns: RegExp[] = [];
  for (const check of checks) {
    if (check.check !== 'string_format' || check.format !== 'regex' || !check.pattern) return undefined;
    if (check.pattern.global || check.pattern.sticky) return undefined;
    patterns.push(check.pattern);
  }
  if (patterns.length === 0) return (value) => typeof value === 'string';
  if (patterns.length === 1) {
    const [pattern] = patterns;
    return (value) => typeof value === 'string' && pattern.test(value);
  }
  return (value) => typeof value === 'string' && patterns.every((pattern) => pattern.test(value));
}

function numberAcceptor(checks: CheckDef[]): Acceptor | undefined {
  // zod's number takes no NaN or ±Infinity; its int() is a safe integer.
  let whole = false;
  let min = -Infinity;
  let minInclusive = true;
  let max = Infinity;
  let maxInclusive = true;
  for (const check of checks) {
    if (check.check === 'number_format' && check.format === 'safeint') whole = true;
    else if (check.check === 'greater_than' && typeof check.value === 'number') {
      min = check.value;
      minInclusive = check.inclusive === true;
    } else if (check.check === 'less_than' && typeof check.value === 'number') {
      max = check.value;
      maxInclusive = check.inclusive === true;
    } else return undefined;
  }
  return (value) =>
    typeof value === 'number' &&
    (whole ? Number.isSafeInteger(value) : Number.isFinite(value)) &&
    (minInclusive ? value >= min : value > min) &&
    (maxInclusive ? value <= max : value < max);
}

/** A loose object: each field of the shape checked; other fields kept, whatever they hold. */
function looseObjectAcceptor(shape: Record<string, Schema>): Acceptor | undefined {
  const keys = Object.keys(shape);
  const fields: Acceptor[] = [];
  const optional: boolean[] = [];
  for (const key of keys) {
    const field = compile(shape[key]);
    if (!field) return undefined;
    fields.push(field);
    // zod reports a missing field unless its schema is optional, even z.unknown().
    optional.push(shape[key]._zod.def.type === 'optional');
  }
  const count = keys.length;
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    for (let i = 0; i < count; i++) {
      const field = record[keys[i]];
      if (field === undefined ? !optional[i] : !fields[i](field)) return false;
    }
    return true;
  };
}

function isPlain(schema: Schema | undefined, type: string): boolean {
  const def = schema?._zod.def;
  return def?.type === type && (def.checks ?? []).length === 0;
}

/** What `JSON.parse` makes of `{…}`: stricter than zod's own test for a record. */
function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
