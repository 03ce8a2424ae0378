#!/usr/bin/env node
// `npm run demo`: try the extension in a real VS Code in your browser.
// Builds and packages the extension, starts the control-plane stand-in with
// sample data, and starts code-server on 127.0.0.1 with the .vsix installed,
// user settings pointing at the stand-in (base URL, first two integrations)
// and the stand-in's API key in DEPLOYMENTS_EXPLORER_API_KEY.
// Ctrl-C (or SIGTERM) stops everything.
//
// Usage: node scripts/demo.mjs [--port N] [--skip-build]
//   --port N   port for code-server (default 8080, or the first free one)
// Forward the port (e.g. `ssh -L 8080:127.0.0.1:8080 host`) to open it from elsewhere.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, VSIX } from './lib/paths.mjs';
import { QUIET_SETTINGS, freePort, portIsFree, startCodeServer } from './lib/codeServer.mjs';
import { isStopping, onCleanup, runCleanups } from './lib/cleanup.mjs';
import { startStandIn } from './lib/standIn.mjs';
import { ensureNodeModules } from './lib/setup.mjs';

const argv = process.argv.slice(2);
const portIdx = argv.indexOf('--port');
const wantedPort = portIdx >= 0 ? Number(argv[portIdx + 1]) : null;
const skipBuild = argv.includes('--skip-build');
const log = (m) => console.log(`[demo] ${m}`);

function sh(cmd, args) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

async function main() {
  if (wantedPort !== null && !(Number.isInteger(wantedPort) && wantedPort > 0 && wantedPort < 65536)) {
    throw new Error(`--port needs a port number, got "${argv[portIdx + 1]}"`);
  }
  if (!ensureNodeModules(log)) throw new Error('npm ci failed');
  sh(process.execPath, ['scripts/provision.mjs']);
  if (!skipBuild) {
    sh('npx', ['tsc', '-p', '.']);
    sh('npm', ['run', '-s', 'package']);
  }

  let port = wantedPort ?? 8080;
  if (!(await portIsFree(port))) {
    if (wantedPort !== null) throw new Error(`port ${port} is in use`);
    port = await freePort();
    log(`port 8080 is in use; using ${port}`);
  }

  const standIn = await startStandIn({ port: 0 });
  const integrations = (standIn.integrations || []).slice(0, 2).map((i) => ({ id: i.id, label: i.label }));
  log(`control-plane stand-in: ${standIn.url}  (API key: ${standIn.apiKey ?? 'none'})`);

  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'deployments-explorer-demo-'));
  fs.writeFileSync(path.join(workspace, 'README.md'), [
    '# Deployments Explorer demo',
    '',
    'Open the **Deployments** icon in the activity bar.',
    `The control-plane stand-in runs at ${standIn.url} with sample integrations, repositories and deployments.`,
    '',
  ].join('\n'));
  onCleanup(() => fs.rmSync(workspace, { recursive: true, force: true }));
  await makeGitCheckout(workspace, standIn, integrations[0]);

  const cs = await startCodeServer({
    label: 'demo',
    workspace,
    port,
    settings: {
      ...QUIET_SETTINGS,
      'workbench.startupEditor': 'readme',
      'deploymentsExplorer.baseUrl': standIn.url,
      'deploymentsExplorer.integrations': integrations,
    },
    env: { DEPLOYMENTS_EXPLORER_API_KEY: standIn.apiKey ?? '' },
    vsix: [VSIX],
  });

  console.log('');
  console.log(`  Deployments Explorer demo is running.`);
  console.log(`  Open  ${cs.workbenchUrl()}`);
  console.log(`  (code-server ${cs.url}, log ${cs.dirs.log})`);
  console.log('  Press Ctrl-C to stop.');
  console.log('');

  const e = await cs.exited;
  if (!isStopping()) log(`code-server exited on its own (${JSON.stringify(e)})`);
  await runCleanups();
  return 1;
}

/**
 * Makes the demo folder a git checkout whose `origin` is a sample repository of the first
 * integration, so "Deploy This Workspace…" finds its repository.
 */
async function makeGitCheckout(folder, standIn, integration) {
  if (!integration) return;
  const response = await fetch(`${standIn.url}/v1/integrations/forge/codehost/${integration.id}/repos`, {
    headers: standIn.apiKey ? { 'X-Api-Key': standIn.apiKey } : {},
  });
  const [repository] = response.ok ? await response.json() : [];
  if (!repository) return;
  const git = (...args) => spawnSync('git', args, { cwd: folder, stdio: 'ignore' }).status === 0;
  if (git('init', '-q', '-b', repository.default_branch) && git('remote', 'add', 'origin', `${repository.url}.git`)) {
    log(`demo folder is a git checkout of ${repository.url} (try "Deploy This Workspace…")`);
  }
}

main().then(
  (code) => process.exit(code),
  async (err) => {
    console.error(`[demo] ERROR: ${err && err.message || err}`);
    await runCleanups();
    process.exit(1);
  },
);
