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
 * Loaded only with the API client (src/api/lazy.ts), not at activation: the extension's bundle leaves them
 * external, and each is bundled apart into dist/node_modules/<name>/index.js, where its `require('<name>')`
 * finds it. Tests (tsc's out/) use the project's node_modules.
 */
const LIBRARIES = ['undici', 'zod'];

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
};

async function main() {
  const extension = await esbuild.context({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode', ...LIBRARIES],
    // jsonc-parser's "main" is a UMD build whose require()s esbuild cannot follow
    // (the bundle would fail at run time with "Cannot find module './impl/format'"):
    // prefer the ES module build packages offer.
    mainFields: ['module', 'main'],
    metafile: meta,
  });
  const libraries = await esbuild.context({
    ...common,
    entryPoints: LIBRARIES.map((name) => ({ in: name, out: `node_modules/${name}/index` })),
    outdir: 'dist',
  });
  if (watch) {
    await Promise.all([extension.watch(), libraries.watch()]);
    return;
  }
  const [result] = await Promise.all([extension.rebuild(), libraries.rebuild()]);
  await Promise.all([extension.dispose(), libraries.dispose(), writePayloadSchema()]);
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
