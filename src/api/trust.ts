import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { promisify } from 'node:util';
import * as l10n from '@vscode/l10n';
import { InvalidInputError } from './errors';
import type { ConnectionOptions } from './http';

/** The operating system's trusted CA certificates, and where they were read from. */
export interface SystemCertificates {
  /** A bundle file, the `security` tool, Node's API; empty when this platform has no source the extension can read. */
  readonly source: string;
  readonly certificates: readonly string[];
}

/** One set of CA certificates a connection trusts. */
export interface CertificateStore {
  /** `node`: Node.js's built-in roots; `environment`: NODE_EXTRA_CA_CERTS; `system`: the OS's; `caFile`: the setting. */
  readonly kind: 'node' | 'environment' | 'system' | 'caFile';
  /** The file or tool it was read from (empty for Node's roots). */
  readonly source: string;
  readonly certificates: readonly string[];
}

/** The bundle file of each Linux family (the first found is read): Debian, Ubuntu, Arch, Alpine; Fedora, RHEL; openSUSE. */
const LINUX_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

let systemCertificates: Promise<SystemCertificates> | undefined;

/**
 * The OS's trusted CA certificates, read once per process, for what VS Code calls http.systemCertificates: Node's
 * `tls.getCACertificates('system')` where the extension host's Node has it (22.15 and later; every platform);
 * on Linux also the distribution's bundle file (Node's own list there depends on where its OpenSSL looks); on
 * macOS without that API, the keychains' certificates as `security find-certificate` lists them. On Windows
 * only Node's API can read the store.
 */
export function loadSystemCertificates(): Promise<SystemCertificates> {
  return (systemCertificates ??= readSystemCertificates());
}

async function readSystemCertificates(): Promise<SystemCertificates> {
  const found: SystemCertificates[] = [];
  const fromNode = (tls as { getCACertificates?: (type: 'system') => string[] }).getCACertificates?.('system');
  if (fromNode) found.push({ source: "Node.js tls.getCACertificates('system')", certificates: fromNode });
  if (process.platform === 'linux') {
    for (const source of LINUX_BUNDLES) {
      const certificates = await readFile(source, 'utf8').then(pemCertificates, () => undefined);
      if (!certificates) continue;
      found.push({ source, certificates });
      break;
    }
  } else if (process.platform === 'darwin' && !fromNode) {
    const security = promisify(execFile)('/usr/bin/security', ['find-certificate', '-a', '-p'], { maxBuffer: 64 * 1024 * 1024 });
    const certificates = await security.then(({ stdout }) => pemCertificates(stdout), () => undefined);
    if (certificates) found.push({ source: 'security find-certificate -a -p', certificates });
  }
  return { source: found.map(({ source }) => source).join(' + '), certificates: found.flatMap(({ certificates }) => certificates) };
}

/**
 * The stores a connection trusts, in the order a report names them: Node's roots, NODE_EXTRA_CA_CERTS (read from
 * `env` as Node reads it at start-up: a file it cannot read is left out), the OS's (`system`) when given, and the
 * caFile setting (a file it cannot read is an error: the user named it).
 */
export function certificateStores(options: Pick<ConnectionOptions, 'caFile' | 'env'>, system?: SystemCertificates): CertificateStore[] {
  const stores: CertificateStore[] = [{ kind: 'node', source: '', certificates: tls.rootCertificates }];
  const extra = (options.env ?? process.env).NODE_EXTRA_CA_CERTS?.trim();
  try {
    if (extra) stores.push({ kind: 'environment', source: extra, certificates: pemCertificates(readFileSync(extra, 'utf8')) });
  } catch {
    // Node leaves it out too (with a warning at start-up).
  }
  if (system?.certificates.length) stores.push({ kind: 'system', ...system });
  const caFile = caFilePath(options.caFile);
  if (!caFile) return stores;
  let certificates: string[];
  try {
    certificates = pemCertificates(readFileSync(caFile, 'utf8'));
  } catch (error) {
    throw new InvalidInputError('CA file', l10n.t('cannot read {0}: {1}', caFile, (error as Error).message));
  }
  if (certificates.length === 0) throw new InvalidInputError('CA file', l10n.t('{0} holds no PEM certificate (-----BEGIN CERTIFICATE-----)', caFile));
  return [...stores, { kind: 'caFile', source: caFile, certificates }];
}

/**
 * The caFile setting as a path to read: `~` is the home folder, as in a shell; a relative path is refused, since it
 * would be read from wherever VS Code happened to start.
 */
function caFilePath(setting: string | undefined): string | undefined {
  const text = setting?.trim();
  if (!text) return undefined;
  const file = /^~(?=$|[\\/])/.test(text) ? path.join(os.homedir(), text.slice(1)) : text;
  if (!path.isAbsolute(file)) throw new InvalidInputError('CA file', l10n.t('{0} is not a full path; give the whole path of the file, e.g. {1}', text, path.join(os.homedir(), text)));
  return file;
}

let lastContext: { ca: string; context: tls.SecureContext } | undefined;

/**
 * The TLS context trusting every store, or undefined when they add nothing to Node's roots (Node's default context
 * is then the same, and free). Made once per set of certificates: a context parses each one, which for a few
 * hundred takes tens of milliseconds, too long for every new connection.
 */
export function trustContext(stores: readonly CertificateStore[]): tls.SecureContext | undefined {
  const roots = new Set(tls.rootCertificates.map(certificateKey));
  const unique = new Map<string, string>();
  for (const certificate of stores.flatMap((store) => store.certificates)) unique.set(certificateKey(certificate), certificate);
  if ([...unique.keys()].every((key) => roots.has(key))) return undefined;
  const ca = [...unique.values()].join('\n');
  if (lastContext?.ca !== ca) lastContext = { ca, context: tls.createSecureContext({ ca }) };
  return lastContext.context;
}

/** A certificate's identity whatever its PEM line breaks: its base64 body. */
export const certificateKey = (pem: string): string => pem.replace(/-----[^-]+-----|\s+/g, '');

function pemCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
