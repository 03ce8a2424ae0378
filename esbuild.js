// Bundles the extension into dist/extension.js.
//   --production  minified, no source maps (what `vsce package` ships)
//   --watch       rebuild on change
//   --meta        also write dist/meta.json for size analysis (e.g. esbuild's analyzer)
const esbuild = require('esbuild');
const fs = require('node:fs');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const meta = process.argv.includes('--meta');

async function main() {
  const ctx = await esbuild.context({
    entryPoints: ['src/extension.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile: 'dist/extension.js',
    external: ['vscode'],
    // jsonc-parser's "main" is a UMD build whose require()s esbuild cannot follow
    // (the bundle would fail at run time with "Cannot find module './impl/format'"):
    // prefer the ES module build packages offer.
    mainFields: ['module', 'main'],
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    metafile: meta,
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
  });
  if (watch) {
    await ctx.watch();
    return;
  }
  writePayloadSchema();
  const result = await ctx.rebuild();
  await ctx.dispose();
  if (meta && result.metafile) {
    fs.writeFileSync('dist/meta.json', JSON.stringify(result.metafile));
    console.log(await esbuild.analyzeMetafile(result.metafile));
  }
}

/**
 * dist/payload.schema.json: the JSON schema of a creation body, generated from the client's zod
 * schemas (src/model/payloadSchema.ts) so the payload editor validates what the client does.
 */
function writePayloadSchema() {
  const bundled = esbuild.buildSync({
    entryPoints: ['src/model/payloadSchema.ts'],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', bundled.outputFiles[0].text)(module, module.exports, require);
  fs.mkdirSync('dist', { recursive: true });
  fs.writeFileSync('dist/payload.schema.json', `${JSON.stringify(module.exports.payloadJsonSchema(), null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
