// Start, stop and prepare a code-server (VS Code's own server and workbench,
// installed by scripts/provision.mjs) for tests and the demo.
//
// Every instance gets throw-away HOME/XDG folders, user-data and extensions
// folders, runs in its own process group (detached) and is stopped by
// signalling the whole group: file watchers, the pty host and extension hosts
// would outlive code-server's main process otherwise.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { CODE_SERVER_ENTRY, ROOT } from './paths.mjs';
import { onCleanup } from './cleanup.mjs';

export const HOST = '127.0.0.1';

/** Settings that keep a test workbench quiet and offline. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'chat.commandCenter.enabled': false,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'window.restoreWindows': 'none',
};

/**
 * User settings that turn workspace trust on without its start-up dialog: a
 * folder that was never trusted opens in Restricted Mode, and no modal blocks
 * the page (see `startCodeServer`'s `workspaceTrust`).
 */
export const WORKSPACE_TRUST_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
};

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(host = HOST) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Whether `port` can be bound on `host`. */
export function portIsFree(port, host = HOST) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** Writes `<userDataDir>/User/settings.json` from an object. */
export function writeUserSettings(userDataDir, settings) {
  const dir = path.join(userDataDir, 'User');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'settings.json');
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + '\n');
  return file;
}

/**
 * Creates the folders of one isolated instance under a new temp folder.
 * @param {string} [label]
 */
export function makeDirs(label = 'code-server') {
  if (!fs.existsSync(CODE_SERVER_ENTRY)) {
    throw new Error(`code-server is not installed (${path.relative(ROOT, CODE_SERVER_ENTRY)} missing): run \`node scripts/provision.mjs\``);
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `de-${label}-`));
  const dirs = {
    root,
    home: path.join(root, 'home'),
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
    config: path.join(root, 'config.yaml'),
    log: path.join(root, 'code-server.log'),
  };
  for (const d of [dirs.home, dirs.userData, dirs.extensions]) fs.mkdirSync(d, { recursive: true });
  for (const d of ['.config', '.local/share', '.cache']) fs.mkdirSync(path.join(dirs.home, d), { recursive: true });
  return dirs;
}

/** Environment for code-server and everything it starts (extension hosts inherit it). */
export function codeServerEnv(dirs, extraEnv = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Nothing of an outer VS Code / Electron / npm run may leak in.
    if (/^(VSCODE_|ELECTRON_|npm_)/i.test(k) || k === 'NODE_OPTIONS' || k === 'NODE_CHANNEL_FD') continue;
    env[k] = v;
  }
  // A gallery on a loopback port that refuses connections: nothing reaches out.
  const gallery = 'http://127.0.0.1:9/gallery-disabled';
  Object.assign(env, {
    HOME: dirs.home,
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    XDG_DATA_HOME: path.join(dirs.home, '.local/share'),
    XDG_CACHE_HOME: path.join(dirs.home, '.cache'),
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: gallery, itemUrl: gallery, resourceUrlTemplate: gallery, controlUrl: '', nlsBaseUrl: '' }),
  }, extraEnv);
  return env;
}

function dirArgs(dirs) {
  return ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--config', dirs.config];
}

/** Installs a packaged extension (.vsix) into the instance's extensions folder. */
export function installExtension(dirs, vsix, extraEnv = {}) {
  if (!fs.existsSync(vsix)) throw new Error(`no such .vsix: ${vsix}`);
  if (!fs.existsSync(dirs.config)) fs.writeFileSync(dirs.config, 'auth: none\ncert: false\n');
  const t = Date.now();
  const r = spawnSync(process.execPath, [CODE_SERVER_ENTRY, ...dirArgs(dirs), '--install-extension', vsix, '--force'], {
    env: codeServerEnv(dirs, extraEnv), encoding: 'utf8', timeout: 120_000,
  });
  const out = `${r.stdout || ''}${r.stderr || ''}`;
  if (r.status !== 0 || !/successfully installed/i.test(out)) {
    throw new Error(`installing ${path.basename(vsix)} failed (exit ${r.status}):\n${out}`);
  }
  return { ms: Date.now() - t, output: out.trim() };
}

function get(url, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** SIGTERM the process group, SIGKILL it after `graceMs`. */
export async function killGroup(pgid, graceMs = 5000) {
  if (!pgid || !groupAlive(pgid)) return;
  try { process.kill(-pgid, 'SIGTERM'); } catch { /* gone */ }
  const until = Date.now() + graceMs;
  while (Date.now() < until && groupAlive(pgid)) await sleep(100);
  if (groupAlive(pgid)) {
    try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ }
    const until2 = Date.now() + 3000;
    while (Date.now() < until2 && groupAlive(pgid)) await sleep(50);
  }
}

/**
 * Starts code-server and waits for /healthz.
 * @param {object} o
 * @param {string} o.workspace folder to open
 * @param {object} [o.settings] user settings (written before start; defaults to QUIET_SETTINGS)
 * @param {Record<string,string>} [o.env] extra environment (inherited by the extension host)
 * @param {number} [o.port] port to bind (default: a free one)
 * @param {string} [o.host]
 * @param {string[]} [o.vsix] packaged extensions to install before start
 * @param {string} [o.label]
 * @param {(line: string) => void} [o.onOutput] code-server's own output lines (default: only to its log file)
 * @param {boolean} [o.keepDirs] keep the temp folders after stop (for debugging)
 * @param {boolean} [o.workspaceTrust] workspace trust on, as a user has it: no `--disable-workspace-trust`,
 *   and WORKSPACE_TRUST_SETTINGS over the user settings, so folders open in Restricted Mode until trusted
 * @param {string[]} [o.trustedDomains] domains whose links open without VS Code's "open the external website?" question
 *   (code-server's --link-protection-trusted-domains), e.g. ['*'] where the browser lets nothing leave loopback
 * @param {string[]} [o.prefix] a command that starts code-server's node after it (exec'ing it, so its pid stays the
 *   group's), e.g. `unshare` for a private mount namespace
 */
export async function startCodeServer(o) {
  const host = o.host || HOST;
  const port = o.port || await freePort(host);
  const dirs = makeDirs(o.label);
  fs.writeFileSync(dirs.config, `bind-addr: ${host}:${port}\nauth: none\ncert: false\n`);
  const settings = o.settings || QUIET_SETTINGS;
  writeUserSettings(dirs.userData, o.workspaceTrust ? { ...settings, ...WORKSPACE_TRUST_SETTINGS } : settings);
  const env = codeServerEnv(dirs, o.env);
  for (const vsix of o.vsix || []) installExtension(dirs, vsix, o.env);

  const args = [
    CODE_SERVER_ENTRY,
    '--bind-addr', `${host}:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(o.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(o.trustedDomains || []).flatMap((domain) => ['--link-protection-trusted-domains', domain]),
    ...dirArgs(dirs),
    o.workspace,
  ];
  const logStream = fs.createWriteStream(dirs.log);
  const [command, ...commandArgs] = [...(o.prefix || []), process.execPath, ...args];
  const child = spawn(command, commandArgs, { cwd: dirs.root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid;
  let exited = null;
  const exitPromise = new Promise((resolve) => child.on('exit', (code, signal) => { exited = { code, signal }; resolve(exited); }));
  let tail = '';
  const onData = (chunk) => {
    const s = chunk.toString();
    logStream.write(s);
    tail = (tail + s).slice(-4000);
    if (o.onOutput) for (const line of s.split('\n')) if (line.trim()) o.onOutput(line);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    unregister();
    await killGroup(pgid);
    logStream.end();
    if (!o.keepDirs) {
      try { fs.rmSync(dirs.root, { recursive: true, force: true, maxRetries: 3 }); } catch { /* best effort */ }
    }
  };
  const unregister = onCleanup(stop, () => { try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ } });

  const url = `http://${host}:${port}`;
  const t0 = Date.now();
  try {
    for (;;) {
      if (exited) throw new Error(`code-server exited early (${JSON.stringify(exited)}):\n${tail}`);
      if (Date.now() - t0 > 60_000) throw new Error(`code-server did not answer ${url}/healthz within 60 s:\n${tail}`);
      try {
        const r = await get(`${url}/healthz`);
        if (r.status === 200) break;
      } catch { /* not yet */ }
      await sleep(150);
    }
  } catch (e) {
    await stop();
    throw e;
  }

  return {
    url,
    host,
    port,
    pid: pgid,
    dirs,
    env,
    workspace: o.workspace,
    workspaceTrust: !!o.workspaceTrust,
    startupMs: Date.now() - t0,
    exited: exitPromise,
    stop,
    /** `vscode-remote://host:port/abs/path`: how the workbench names a path on this server. */
    remoteUri(absPath) {
      return `vscode-remote://${host}:${port}${absPath.split(path.sep).map(encodeURIComponent).join('/')}`;
    },
    /** Workbench URL opening `folder` (default: the workspace), with an optional payload. */
    workbenchUrl({ folder = o.workspace, payload } = {}) {
      let u = `${url}/?folder=${encodeURIComponent(folder)}`;
      if (payload && payload.length) u += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
      return u;
    },
    log() {
      try { return fs.readFileSync(dirs.log, 'utf8'); } catch { return tail; }
    },
  };
}
