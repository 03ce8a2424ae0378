import { lookup } from 'node:dns/promises';
import { once } from 'node:events';
import { isIP, Socket } from 'node:net';
import * as tls from 'node:tls';
import * as l10n from '@vscode/l10n';
import { clientBaseUrl, withoutUserInfo } from './baseUrl';
import { ControlPlaneClient } from './client';
import { CancelledError, isControlPlaneError, messageOf } from './errors';
import { credentialHeaders, headerNames, type ConnectionOptions } from './http';
import { proxyCredentials, proxyRoute, ProxyRoute } from './proxy';
import { CertificateStore, certificateKey, certificateStores, trustContext } from './trust';

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
  /** The trusted stores holding this very certificate. */
  readonly inStores: readonly Pick<CertificateStore, 'kind' | 'source'>[];
}

/** What Check Connection found, step by step; a step that was not tried is absent. Holds no key and no proxy credential. */
export interface ConnectionCheck {
  readonly baseUrl: string;
  /** The header names the key and the tenant are sent in. */
  readonly headers: { readonly apiKey: string; readonly tenant: string };
  /** Where requests go; `proxy` without user name and password. */
  readonly route: ProxyRoute & { readonly credentials: 'proxyAuthorization' | 'url' | 'none' };
  /** The trusted stores of CA certificates, and how many each holds. */
  readonly trust: readonly (Pick<CertificateStore, 'kind' | 'source'> & { readonly count: number })[];
  /** The scheme of a proxy the low-level steps (DNS, TCP, tunnel, TLS) cannot go through (SOCKS): they are not tried. */
  readonly lowLevelSkipped?: string;
  readonly dns?: { readonly host: string; readonly ms: number; readonly addresses?: readonly string[]; readonly failure?: StepFailure };
  readonly connect?: { readonly address: string; readonly port: number; readonly ms: number; readonly failure?: StepFailure };
  /** The proxy's answer to CONNECT host:port. */
  readonly tunnel?: { readonly target: string; readonly ms: number; readonly status?: number; readonly failure?: StepFailure };
  readonly tls?: {
    readonly ms: number;
    readonly protocol?: string;
    /** The presented chain, leaf first, completed by the trusted root when there is one. */
    readonly chain: readonly ChainCertificate[];
    /** Why the chain or the name is not trusted (an OpenSSL or Node code); undefined when it is. */
    readonly untrusted?: string;
    /** False when strictSSL or http.proxyStrictSSL is off: the client does not check certificates. */
    readonly checked: boolean;
    readonly failure?: StepFailure;
  };
  /** One listing call (`limit=1`) through the client itself. */
  readonly listing?: {
    readonly ms: number;
    readonly status?: number;
    readonly records?: number;
    /** The client's error: its kind and sealed message (key-free); `needsTenant`/`notEnabled` for a 403. */
    readonly error?: { readonly kind: string; readonly message: string; readonly needsTenant?: boolean; readonly notEnabled?: boolean };
  };
}

export type CheckStepName = 'dns' | 'connect' | 'tunnel' | 'tls' | 'listing';

/**
 * Tries the connection `options` describe, one step at a time, as the client would make it (the same proxy
 * decision, the same trusted stores), and stops at the first step that fails: the name lookup, the TCP connection,
 * the proxy's tunnel, the TLS handshake (reading the chain even when it is not trusted), then one listing call.
 * `onStep` hears each step as it starts; `signal` cancels (CancelledError).
 */
export async function checkConnection(
  options: ConnectionOptions,
  onStep: (step: CheckStepName) => void = () => undefined,
  signal?: AbortSignal,
): Promise<ConnectionCheck> {
  const baseUrl = clientBaseUrl(options.baseUrl);
  const base = new URL(baseUrl);
  const route = proxyRoute(base, options);
  const credentials = route.proxy ? proxyCredentials(route.proxy, options.proxyAuthorization) : undefined;
  const stores = certificateStores(options, options.systemCertificates);
  credentialHeaders(options);
  const check: Mutable<ConnectionCheck> = {
    baseUrl,
    headers: headerNames(options),
    route: { ...route, proxy: route.proxy && withoutUserInfo(route.proxy), credentials: credentials?.from ?? 'none' },
    trust: stores.map(({ kind, source, certificates }) => ({ kind, source, count: certificates.length })),
  };
  const secureContext = trustContext(stores);
  const strict = options.strictSSL !== false;

  const proxy = route.proxy && URL.canParse(route.proxy) ? new URL(route.proxy) : undefined;
  if (route.proxy && (!proxy || !['http:', 'https:'].includes(proxy.protocol))) {
    check.lowLevelSkipped = proxy?.protocol ?? withoutUserInfo(route.proxy);
  } else {
    const hop = proxy ?? base;
    const host = hop.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = portOf(hop);
    let socket: Socket | tls.TLSSocket = new Socket();
    // Every wait ends at the timeout or when `signal` aborts; the socket is then destroyed.
    const run = <T>(work: Promise<T>): Promise<T> => bounded(work, options.timeoutMs ?? 30_000, signal, () => socket.destroy());
    const step = async <T>(name: CheckStepName, work: () => Promise<T>) => {
      onStep(name);
      const started = Date.now();
      try {
        const value = await work();
        return { ms: Date.now() - started, value };
      } catch (error) {
        return { ms: Date.now() - started, failure: failureOf(error, signal) };
      }
    };
    try {
      const dns = await step('dns', () => run(lookup(host, { all: true })));
      const addresses = dns.value?.map((entry) => entry.address);
      check.dns = { host, ms: dns.ms, addresses, failure: dns.failure };
      if (!addresses) return check;

      let address = addresses[0];
      const connect = await step('connect', async () => {
        // Each address in turn until one answers, as the client's connection tries them (a host whose IPv6 is unreachable still connects over IPv4).
        for (const [i, candidate] of addresses.entries()) {
          address = candidate;
          try {
            return await run(once(socket.connect({ host: address, port }), 'connect'));
          } catch (error) {
            if (i === addresses.length - 1 || signal?.aborted) throw error;
            socket.destroy();
            socket = new Socket();
          }
        }
      });
      check.connect = { address, port, ms: connect.ms, failure: connect.failure };
      if (connect.failure) return check;

      if (proxy) {
        const target = `${base.hostname}:${portOf(base)}`;
        const tunnelled = await step('tunnel', async () => {
          if (proxy.protocol === 'https:') socket = await run(handshake(socket, proxy.hostname, secureContext, strict));
          return run(tunnel(socket, target, credentials?.header));
        });
        check.tunnel = { target, ms: tunnelled.ms, status: tunnelled.value, failure: tunnelled.failure };
        if (tunnelled.value !== 200) return check;
      }

      if (base.protocol === 'https:') {
        const { ms, value: secured, failure } = await step('tls', () => run(handshake(socket, base.hostname, secureContext, false)));
        if (!secured) {
          check.tls = { ms, chain: [], checked: strict, failure };
          return check;
        }
        socket = secured;
        const untrusted = secured.authorized ? undefined : String(secured.authorizationError);
        check.tls = { ms, protocol: secured.getProtocol() ?? undefined, chain: chainOf(secured, stores), untrusted, checked: strict };
        if (untrusted && strict) return check;
      }
    } finally {
      socket.destroy();
    }
  }

  onStep('listing');
  const client = new ControlPlaneClient({ ...options, retry: { maxAttempts: 1 } });
  const started = Date.now();
  try {
    const page = await client.listDeployments({ limit: 1, offset: 0 }, { signal });
    check.listing = { ms: Date.now() - started, status: 200, records: page.deployments.length + page.offContract.length };
  } catch (error) {
    if (signal?.aborted) throw new CancelledError();
    const { kind, status, needsTenant, notEnabled } = error as { kind?: string; status?: number; needsTenant?: boolean; notEnabled?: boolean };
    check.listing = {
      ms: Date.now() - started,
      status,
      error: { kind: isControlPlaneError(error) ? (kind ?? 'unknown') : 'unknown', message: messageOf(error), needsTenant, notEnabled },
    };
  } finally {
    void client.dispose().catch(() => undefined);
  }
  return check;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const portOf = (url: URL): number => Number(url.port) || (url.protocol === 'https:' ? 443 : 80);

/** `work`, rejected with a timeout after `timeoutMs` or with CancelledError when `signal` aborts; `cleanup` then runs. */
function bounded<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal | undefined, cleanup: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAbort = () => stop(new CancelledError());
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
  if (signal?.aborted || error instanceof CancelledError) throw new CancelledError();
  const code = (error as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : undefined, message: messageOf(error) };
}

/** A TLS session over `socket`; with `verify` false it is made whatever the certificate (its trust is read after). */
async function handshake(socket: Socket, host: string, secureContext: tls.SecureContext | undefined, verify: boolean): Promise<tls.TLSSocket> {
  const servername = isIP(host.replace(/^\[(.*)\]$/, '$1')) ? undefined : host;
  const secured = tls.connect({ socket, servername, secureContext, rejectUnauthorized: verify, ALPNProtocols: ['http/1.1'] });
  await once(secured, 'secureConnect');
  return secured;
}

/** Asks the proxy for a tunnel to `target` (CONNECT) and answers the status of its reply. */
function tunnel(socket: Socket, target: string, authorization: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head)?.[1];
      if (status) resolve(Number(status));
      else reject(new Error(l10n.t('the proxy did not answer in HTTP')));
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('end', () => reject(new Error(l10n.t('the proxy closed the connection'))));
    const lines = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`, ...(authorization ? [`Proxy-Authorization: ${authorization}`] : []), '', ''];
    socket.write(lines.join('\r\n'));
  });
}

/** The chain as Node completed it, leaf first, each certificate with the stores that hold it. */
function chainOf(socket: tls.TLSSocket, stores: readonly CertificateStore[]): ChainCertificate[] {
  const chain: ChainCertificate[] = [];
  const seen = new Set<string>();
  for (let cert = socket.getPeerCertificate(true); cert?.raw && !seen.has(cert.fingerprint256); cert = cert.issuerCertificate) {
    seen.add(cert.fingerprint256);
    const key = cert.raw.toString('base64');
    chain.push({
      subject: distinguishedName(cert.subject),
      issuer: distinguishedName(cert.issuer),
      validTo: cert.valid_to,
      fingerprint256: cert.fingerprint256,
      inStores: stores.filter((store) => store.certificates.some((pem) => certificateKey(pem) === key)).map(({ kind, source }) => ({ kind, source })),
    });
  }
  return chain;
}

function distinguishedName(name: tls.Certificate | undefined): string {
  return Object.entries(name ?? {})
    .map(([field, value]) => `${field}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ');
}
