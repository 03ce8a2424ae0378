import { lookup } from 'node:dns/promises';
import { once } from 'node:events';
import { isIP, Socket } from 'node:net';
import * as tls from 'node:tls';
import * as l10n from '@vscode/l10n';
import { clientBaseUrl, withoutUserInfo } from './baseUrl';
import { ControlPlaneClient } from './client';
import { ControlPlaneError, isControlPlaneError, isErrorOf, messageOf } from './errors';
import { caFileTrust, credentialHeaders, headerNames, type ConnectionOptions } from './http';

/** Why a step failed: the system's error code when there is one, and its message (never a secret). */
export interface StepFailure {
  readonly code?: string;
  readonly message: string;
}

/** One certificate the server presented (or the root that completed its chain), as a report shows it. */
export interface ChainCertificate {
  readonly subject: string;
  readonly issuer: string;
  readonly validTo: string;
  readonly fingerprint256: string;
}

/** VS Code's network settings in force, as the extension host's `fetch` applies them. */
export interface NetworkSettings {
  /** http.proxy as set (its user name and password are never reported). */
  readonly proxy?: string;
  readonly proxySupport?: string;
  readonly noProxy?: readonly string[];
  readonly systemCertificates?: boolean;
  readonly fetchAdditionalSupport?: boolean;
}

/** What Check Connection found, step by step; a step that was not tried is absent. Holds no key and no proxy credential. */
export interface ConnectionCheck {
  readonly baseUrl: string;
  /** The header names the key and the tenant are sent in. */
  readonly headers: { readonly apiKey: string; readonly tenant: string };
  /** The settings in force; `proxy` without user name and password, `proxyCredentials` whether its URL holds some. */
  readonly settings: NetworkSettings & { readonly proxyCredentials: boolean };
  /** deploymentsExplorer.caFile when set. */
  readonly caFile?: string;
  readonly dns?: { readonly host: string; readonly ms: number; readonly addresses?: readonly string[]; readonly failure?: StepFailure };
  /**
   * A direct connection to the server (not through a proxy), with TLS for https: its chain, and whether Node's roots,
   * NODE_EXTRA_CA_CERTS and caFile validate it (the OS's store, which VS Code adds to `fetch`, is not among them).
   */
  readonly probe?: {
    readonly address: string;
    readonly port: number;
    readonly ms: number;
    readonly protocol?: string;
    /** The presented chain, leaf first, completed by the trusted root when there is one. */
    readonly chain: readonly ChainCertificate[];
    /** Why the chain or the name is not trusted (an OpenSSL or Node code); undefined when it is. */
    readonly untrusted?: string;
    readonly failure?: StepFailure;
  };
  /** One listing call (`limit=1`) through the client itself, over the same `fetch` the views use. */
  readonly listing?: {
    readonly ms: number;
    readonly status?: number;
    readonly records?: number;
    /** The client's error: its kind, code and message (key-free); `needsTenant`/`notEnabled` for a 403. */
    readonly error?: {
      readonly kind: string;
      readonly code?: string;
      readonly message: string;
      readonly needsTenant?: boolean;
      readonly notEnabled?: boolean;
      readonly credentialsSent?: boolean;
      readonly proxy?: string;
    };
  };
}

export type CheckStepName = 'dns' | 'probe' | 'listing';

/**
 * Tries the connection `options` describe: the name lookup and a direct connection (TLS for https, reading the chain
 * even when it is not trusted), then one listing call through the client, which the views' requests take too.
 * `onStep` hears each step as it starts; `signal` cancels (a `cancelled` error).
 */
export async function checkConnection(
  options: ConnectionOptions,
  settings: NetworkSettings = {},
  onStep: (step: CheckStepName) => void = () => undefined,
  signal?: AbortSignal,
): Promise<ConnectionCheck> {
  const baseUrl = clientBaseUrl(options.baseUrl);
  const base = new URL(baseUrl);
  credentialHeaders(options);
  const proxy = settings.proxy?.trim();
  const proxyUrl = proxy && URL.canParse(proxy) ? new URL(proxy) : undefined;
  const check: Mutable<ConnectionCheck> = {
    baseUrl,
    headers: headerNames(options),
    settings: { ...settings, proxy: proxy ? withoutUserInfo(proxy) : undefined, proxyCredentials: !!(proxyUrl?.username && proxyUrl.password) },
    caFile: options.caFile?.trim() || undefined,
  };
  if (signal?.aborted) throw new ControlPlaneError('cancelled');

  const host = base.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(base.port) || (base.protocol === 'https:' ? 443 : 80);
  let socket: Socket | tls.TLSSocket = new Socket();
  // Every wait ends at the timeout or when `signal` aborts; the socket is then destroyed.
  const run = <T>(work: Promise<T>): Promise<T> => bounded(work, options.timeoutMs ?? 30_000, signal, () => socket.destroy());
  const step = async <T>(name: CheckStepName, work: () => Promise<T>) => {
    onStep(name);
    const started = Date.now();
    try {
      return { ms: Date.now() - started, value: await work() };
    } catch (error) {
      return { ms: Date.now() - started, failure: failureOf(error, signal) };
    }
  };
  try {
    const dns = await step('dns', () => run(lookup(host, { all: true })));
    const addresses = dns.value?.map((entry) => entry.address);
    check.dns = { host, ms: dns.ms, addresses, failure: dns.failure };
    if (addresses) {
      let address = addresses[0];
      const probe = await step('probe', async () => {
        // Each address in turn until one answers (a host whose IPv6 is unreachable still connects over IPv4).
        for (const [i, candidate] of addresses.entries()) {
          address = candidate;
          try {
            await run(once(socket.connect({ host: address, port }), 'connect'));
            break;
          } catch (error) {
            if (i === addresses.length - 1 || signal?.aborted) throw error;
            socket.destroy();
            socket = new Socket();
          }
        }
        if (base.protocol !== 'https:') return undefined;
        const secured = await run(handshake(socket, host, options.caFile));
        socket = secured;
        return secured;
      });
      const secured = probe.value;
      check.probe = {
        address,
        port,
        ms: probe.ms,
        protocol: secured?.getProtocol() ?? undefined,
        chain: secured ? chainOf(secured) : [],
        untrusted: secured && !secured.authorized ? String(secured.authorizationError) : undefined,
        failure: probe.failure,
      };
    }
  } finally {
    socket.destroy();
  }

  onStep('listing');
  const client = new ControlPlaneClient({ ...options, retry: { maxAttempts: 1 } });
  const started = Date.now();
  try {
    const page = await client.listDeployments({ limit: 1, offset: 0 }, { signal });
    check.listing = { ms: Date.now() - started, status: 200, records: page.deployments.length + page.offContract.length };
  } catch (error) {
    if (signal?.aborted) throw new ControlPlaneError('cancelled');
    const known = isControlPlaneError(error) ? error : undefined;
    const { code, needsTenant, notEnabled, credentialsSent, proxy } = known ?? {};
    check.listing = { ms: Date.now() - started, status: known?.status, error: { kind: known?.kind ?? 'unknown', code, message: messageOf(error), needsTenant, notEnabled, credentialsSent, proxy } };
  } finally {
    void client.dispose().catch(() => undefined);
  }
  return check;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** `work`, rejected with a timeout after `timeoutMs` or with a `cancelled` error when `signal` aborts; `cleanup` then runs. */
function bounded<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal | undefined, cleanup: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAbort = () => stop(new ControlPlaneError('cancelled'));
    if (signal?.aborted) return onAbort();
    const timer = setTimeout(() => stop(Object.assign(new Error(l10n.t('no answer within {0} s', timeoutMs / 1000)), { code: 'ETIMEDOUT' })), timeoutMs);
    signal?.addEventListener('abort', onAbort);
    work.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

function failureOf(error: unknown, signal: AbortSignal | undefined): StepFailure {
  if (signal?.aborted || isErrorOf(error, 'cancelled')) throw new ControlPlaneError('cancelled');
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : undefined, message: messageOf(error) };
}

/** A TLS session over `socket`, made whatever the certificate (its trust is read after): Node's roots, or those and caFile's. */
async function handshake(socket: Socket, host: string, caFile: string | undefined): Promise<tls.TLSSocket> {
  const servername = isIP(host) ? undefined : host;
  const ca = caFile?.trim() ? caFileTrust(caFile) : undefined;
  const secured = tls.connect({ socket, servername, ca, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
  await once(secured, 'secureConnect');
  return secured;
}

/** The chain as Node completed it, leaf first. */
function chainOf(socket: tls.TLSSocket): ChainCertificate[] {
  const chain: ChainCertificate[] = [];
  const seen = new Set<string>();
  for (let cert = socket.getPeerCertificate(true); cert?.raw && !seen.has(cert.fingerprint256); cert = cert.issuerCertificate) {
    seen.add(cert.fingerprint256);
    chain.push({ subject: distinguishedName(cert.subject), issuer: distinguishedName(cert.issuer), validTo: cert.valid_to, fingerprint256: cert.fingerprint256 });
  }
  return chain;
}

function distinguishedName(name: tls.Certificate | undefined): string {
  return Object.entries(name ?? {})
    .map(([field, value]) => `${field}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ');
}
