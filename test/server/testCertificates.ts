/**
 * Certificate authorities made for one test run with openssl (EC keys: fast), each with a server certificate
 * for the loopback addresses the tests use (127.0.0.1, 127.0.0.2, localhost). Nothing is installed anywhere:
 * a test trusts an authority by naming its file (caFile, NODE_EXTRA_CA_CERTS, a private trust store).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface TestAuthority {
  /** The CA certificate (PEM) and its file. */
  readonly cert: string;
  readonly certFile: string;
  /** A server certificate signed by the CA, with its key (PEM). */
  readonly server: { readonly key: string; readonly cert: string };
}

const SERVER_EXTENSIONS = [
  'subjectAltName=IP:127.0.0.1,IP:127.0.0.2,DNS:localhost',
  'basicConstraints=critical,CA:FALSE',
  'keyUsage=critical,digitalSignature',
  'extendedKeyUsage=serverAuth',
].join('\n');

/** One authority per name, in `dir` (files `<name>-ca.pem`, …); the common name says it is a test CA. */
export function makeAuthorities<N extends string>(dir: string, names: readonly N[]): Record<N, TestAuthority> {
  fs.mkdirSync(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  fs.writeFileSync(file('server.ext'), `${SERVER_EXTENSIONS}\n`);
  const authorities = {} as Record<N, TestAuthority>;
  for (const name of names) {
    openssl('req', '-x509', ...ec, '-days', '3', '-subj', `/O=Deployments Explorer tests/CN=${name} test CA`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout', file(`${name}-ca.key`), '-out', file(`${name}-ca.pem`));
    openssl('req', ...ec, '-subj', '/CN=127.0.0.1', '-keyout', file(`${name}-server.key`), '-out', file(`${name}-server.csr`));
    openssl('x509', '-req', '-in', file(`${name}-server.csr`), '-CA', file(`${name}-ca.pem`), '-CAkey', file(`${name}-ca.key`),
      '-CAcreateserial', '-days', '2', '-extfile', file('server.ext'), '-out', file(`${name}-server.pem`));
    authorities[name] = {
      cert: fs.readFileSync(file(`${name}-ca.pem`), 'utf8'),
      certFile: file(`${name}-ca.pem`),
      server: { key: fs.readFileSync(file(`${name}-server.key`), 'utf8'), cert: fs.readFileSync(file(`${name}-server.pem`), 'utf8') },
    };
  }
  return authorities;
}

/** The authorities a runner made, from the folder it names in `DE_TEST_PKI` (see scripts/run-extension-tests.mjs). */
export function readAuthorities<N extends string>(dir: string, names: readonly N[]): Record<N, TestAuthority> {
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  const authorities = {} as Record<N, TestAuthority>;
  for (const name of names) {
    authorities[name] = {
      cert: read(`${name}-ca.pem`),
      certFile: path.join(dir, `${name}-ca.pem`),
      server: { key: read(`${name}-server.key`), cert: read(`${name}-server.pem`) },
    };
  }
  return authorities;
}
