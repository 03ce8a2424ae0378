// Bundles the extension into dist/ (the esbuild sample of VS Code's docs, plus the libraries and the payload schema).
//   --production  minified, no source maps (what `vsce package` ships)
//   --watch       rebuild on change
//   --meta        also write dist/meta.json for size analysis (e.g. https://esbuild.github.io/analyze/)
const esbuild = require('esbuild');
const fs = require('node:fs');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const meta = process.argv.includes('--meta');

/**
 * Loaded only with the API client (src/api/lazy.ts), not at activation, and each its own file:
 * - undici, bundled into dist/node_modules/undici/index.js, where the extension's `require('undici')` finds it
 *   (and VS Code sees a real require of it);
 * - the zod schemas (src/api/schemas.ts with the parts of zod/mini they use), dist/schemas.js, where the
 *   client's `require('./schemas')` finds it: bundled on its own, zod is tree-shaken to those parts.
 * @vscode/l10n is shared by both bundles (its configuration is module state), so it is a library too.
 * Tests (tsc's out/) use the project's node_modules and out/src/api/schemas.js.
 */
const LIBRARIES = ['undici', '@vscode/l10n'];
const SCHEMAS = './schemas';
/** The agent tools' input schemas (src/features/agentTools/toolInputs.ts, with zod), dist/toolInputs.js: loaded when a tool first runs. */
const TOOL_INPUTS = './toolInputs';

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  // jsonc-parser's "main" is a UMD build whose require()s esbuild cannot follow
  // (the bundle would fail at run time with "Cannot find module './impl/format'"):
  // prefer the ES module build packages offer.
  mainFields: ['module', 'main'],
};

async function main() {
  const extension = await esbuild.context({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', SCHEMAS, TOOL_INPUTS, ...LIBRARIES],
    metafile: meta,
  });
  const schemas = await esbuild.context({
    ...common,
    entryPoints: ['src/api/schemas.ts'],
    outfile: 'dist/schemas.js',
    external: LIBRARIES,
  });
  const toolInputs = await esbuild.context({
    ...common,
    entryPoints: ['src/features/agentTools/toolInputs.ts'],
    outfile: 'dist/toolInputs.js',
    external: LIBRARIES,
  });
  const libraries = await esbuild.context({
    ...common,
    entryPoints: LIBRARIES.map((name) => ({ in: name, out: `node_modules/${name}/index` })),
    outdir: 'dist',
  });
  const contexts = [extension, schemas, toolInputs, libraries];
  if (watch) {
    await Promise.all(contexts.map((context) => context.watch()));
    return;
  }
  const [result] = await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all([...contexts.map((context) => context.dispose()), writePayloadSchema()]);
  if (meta) fs.writeFileSync('dist/meta.json', JSON.stringify(result.metafile));
}

/**
 * dist/payload.schema.json: the JSON schema of a creation body, generated from the client's zod
 * schemas (src/model/payloadSchema.ts) so the payload editor validates what the client does.
 */
async function writePayloadSchema() {
  const { outputFiles } = await esbuild.build({ ...common, entryPoints: ['src/model/payloadSchema.ts'], sourcemap: false, write: false });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', outputFiles[0].text)(module, module.exports, require);
  fs.writeFileSync('dist/payload.schema.json', `${JSON.stringify(module.exports.payloadJsonSchema(), null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
