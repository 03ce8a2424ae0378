// Runs the extension-host tests (test/integration) in desktop VS Code through
// @vscode/test-electron, which downloads VS Code into .vscode-test/. For
// machines that can reach the VS Code download service; where only the npm
// registry is reachable use `node scripts/run-extension-tests.mjs` (same
// tests, same index, inside code-server).
//
//   npm run test:electron            (VSCODE_TEST_VERSION picks the version, default 1.100.3)
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  // out/test/runElectron.js -> repository root
  const extensionDevelopmentPath = path.resolve(__dirname, '..', '..');
  const extensionTestsPath = path.resolve(__dirname, 'integration', 'index');
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'de-electron-ws-'));
  try {
    await runTests({
      version: process.env.VSCODE_TEST_VERSION || '1.100.3',
      extensionDevelopmentPath,
      extensionTestsPath,
      extensionTestsEnv: { DE_REPO_ROOT: extensionDevelopmentPath },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    });
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error('Extension-host tests failed or could not start:', err);
  process.exit(1);
});
