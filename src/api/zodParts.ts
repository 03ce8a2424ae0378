/**
 * The parts of zod the schemas and the client use, gathered in one module. The release build makes
 * this its own file, dist/zod.js (esbuild.js), loaded with the schemas when the first client is
 * built, so activation does not parse zod. Unbundled (tests), it is a plain module.
 */
export { array, boolean, custom, looseObject, number, record, string, unknown } from 'zod';
export type { core, infer, ZodError, ZodSafeParseResult, ZodType } from 'zod';
