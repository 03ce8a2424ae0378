// Entry point VS Code's extension host loads through `extensionTestsPath`
// (scripts/run-extension-tests.mjs: in code-server, or with --electron in
// desktop VS Code). Runs mocha over every out/test/integration/**/*.test.js.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';

// In code-server the extension host's console reaches the harness only through
// the browser console, mixed with the workbench's own logging; the harness
// sets DE_EXT_TEST_MARK so the test output can be picked out of it.
const MARK = process.env.DE_EXT_TEST_MARK ?? '';
function out(...args: unknown[]): void {
  console.log(MARK + util.format(...args));
}

function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(full));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60000,
    reporter: 'spec',
    // DE_EXT_TEST_GREP (in the environment code-server was started with) runs a subset.
    ...(process.env.DE_EXT_TEST_GREP ? { grep: process.env.DE_EXT_TEST_GREP } : {}),
  });
  Mocha.reporters.Base.consoleLog = out;
  // DE_EXT_TEST_FILES (a JSON list, set by the runner) picks the files of this VS Code: the runner starts another one for those needing their own.
  const only: string[] | undefined = process.env.DE_EXT_TEST_FILES ? JSON.parse(process.env.DE_EXT_TEST_FILES) : undefined;
  const files = findTests(__dirname).filter((file) => !only || only.includes(file));
  for (const f of files) mocha.addFile(f);

  return new Promise<void>((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const stats = runner.stats ?? { passes: 0, failures, pending: 0, tests: 0 };
        // One parseable line for scripts/test-all.mjs (mocha's own "N passing" is printed above it).
        out(`EXT-HOST-RESULT ${JSON.stringify({ passed: stats.passes, failed: stats.failures, pending: stats.pending, files: files.length })}`);
        if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
        else if (stats.passes === 0) reject(new Error('no extension-host test ran'));
        else resolve();
      });
    } catch (err) {
      out(`Could not load or run the tests: ${err instanceof Error && err.stack ? err.stack : String(err)}`);
      out(`EXT-HOST-RESULT ${JSON.stringify({ passed: 0, failed: 1, pending: 0, files: files.length, error: String(err) })}`);
      reject(err);
    }
  });
}
