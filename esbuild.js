// Bundles the extension into dist/extension.js.
//   --production  minified, no source maps (what `vsce package` ships)
//   --watch       rebuild on change
//   --meta        also write dist/meta.json for size analysis (e.g. esbuild's analyzer)
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const meta = process.argv.includes('--meta');

/**
 * undici, as the client uses it (src/api/undici.ts: Agent, ProxyAgent, request over HTTP/1.1),
 * without what it cannot reach but would still parse at every activation:
 *  - the two llhttp WebAssembly builds (141 KB of base64 text in the bundle) become binary files
 *    beside it, read when the first connection is made, not when the extension loads;
 *  - HTTP/2 (connected only with `allowH2`, which the client never sets) and fetch's body
 *    extraction (used only for FormData bodies; the client sends strings) become stubs that throw.
 * Measured: 494.5 KB -> see the commit message; proxy, CA and TLS tests run against the bundle's same modules.
 */
const WASM_FILES = { 'llhttp-wasm.js': 'llhttp.wasm', 'llhttp_simd-wasm.js': 'llhttp_simd.wasm' };
const trimUndici = {
  name: 'trim-undici',
  setup(build) {
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]llhttp[\\/]llhttp(_simd)?-wasm\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const base64 = /const wasmBase64 = '([^']+)'/.exec(source);
      if (!base64) throw new Error(`${args.path}: its wasm text was not found; update esbuild.js for this undici`);
      const file = WASM_FILES[path.basename(args.path)];
      await fs.promises.mkdir('dist', { recursive: true });
      await fs.promises.writeFile(path.join('dist', file), Buffer.from(base64[1], 'base64'));
      return {
        loader: 'js',
        contents: `let wasm; Object.defineProperty(module, 'exports', { get: () => wasm ??= require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(file)})) });`,
      };
    });
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      /[\\/]undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: 'client-h2', namespace: 'undici-stub' } : undefined,
    );
    build.onResolve({ filter: /^\.\.\/web\/fetch\/body\.js$/ }, (args) =>
      /[\\/]undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir) ? { path: 'fetch-body', namespace: 'undici-stub' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'undici-stub' }, (args) => ({
      loader: 'js',
      contents:
        args.path === 'client-h2'
          ? `module.exports = function connectH2() { throw new Error('HTTP/2 is not part of this bundle (allowH2 is never set)'); };`
          : `module.exports = { extractBody() { throw new Error('FormData bodies are not part of this bundle'); } };`,
    }));
  },
};

/**
 * A module of src/api built as a file of its own in dist/, which the extension's bundle requires
 * instead of inlining it:
 *  - ./zodParts → dist/zod.js: only the schemas and the client use zod, and they are loaded when the
 *    first client is built (src/api/lazy.ts). Nothing outside them touches a zod value, so the split
 *    cannot break an instanceof.
 */
function apart(moduleName, file) {
  return {
    name: `${moduleName}-apart`,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^\\./${moduleName}$`) }, () => ({ path: `./${file}`, external: true }));
    },
  };
}

/**
 * `import * as vscode from 'vscode'` compiles to `__toESM(require("vscode"))` in each of the ~40 files
 * that import it, and __toESM copies every one of the API's ~300 properties into a new object as a
 * getter: some 12,000 property definitions at every activation (about 7 ms measured with a 320-key
 * stand-in) for nothing, since the code only reads `vscode.something` (a default import of vscode is
 * refused by lint). The bundle uses the module object itself instead.
 */
const vscodeAsIs = {
  name: 'vscode-as-is',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length > 0) return;
      const file = build.initialOptions.outfile;
      const text = fs.readFileSync(file, 'utf8');
      const wrapped = /\b([\w$]+)\(require\("vscode"\)\)/g;
      const helpers = new Set([...text.matchAll(wrapped)].map((match) => match[1]));
      if (helpers.size !== 1) throw new Error(`esbuild.js: expected one helper wrapping require("vscode"), found ${[...helpers].join(', ') || 'none'}`);
      fs.writeFileSync(file, text.replace(wrapped, 'require("vscode")'));
    });
  },
};

async function main() {
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
  const zodCtx = await esbuild.context({ ...common, entryPoints: { zod: 'src/api/zodParts.ts' }, outdir: 'dist' });
  const ctx = await esbuild.context({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    // jsonc-parser's "main" is a UMD build whose require()s esbuild cannot follow
    // (the bundle would fail at run time with "Cannot find module './impl/format'"):
    // prefer the ES module build packages offer.
    mainFields: ['module', 'main'],
    metafile: meta,
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
    plugins: [trimUndici, apart('zodParts', 'zod.js'), vscodeAsIs],
  });
  if (watch) {
    await Promise.all([zodCtx.watch(), ctx.watch()]);
    return;
  }
  writePayloadSchema();
  await zodCtx.rebuild();
  await zodCtx.dispose();
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

module.exports = { trimUndici };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
