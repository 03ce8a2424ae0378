import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ProxyAuthError } from '../../src/api';
import { ControlPlaneClient } from '../../src/api/client';
import type { ConnectionOptions } from '../../src/api/http';
import { proxyCredentials, proxyRoute } from '../../src/api/proxy';
import { ForwardProxy, startForwardProxy } from '../server/forwardProxy';
import { StandIn } from '../server/standIn';
import { makeAuthorities, TestAuthority } from '../server/testCertificates';

const route = (url: string, options: Parameters<typeof proxyRoute>[1]) => proxyRoute(new URL(url), { env: {}, ...options });

describe('the proxy route', () => {
  it('takes http.proxy first, then the environment variable of the scheme', () => {
    assert.deepEqual(route('https://api.example.com', { proxyUrl: 'http://proxy:3128', env: { HTTPS_PROXY: 'http://env:1' } }), {
      proxy: 'http://proxy:3128',
      reason: 'setting',
    });
    assert.deepEqual(route('https://api.example.com', { env: { https_proxy: 'http://env:1', HTTP_PROXY: 'http://other:2' } }), {
      proxy: 'http://env:1',
      reason: 'environment',
      source: 'https_proxy',
    });
    assert.deepEqual(route('http://api.example.com', { env: { HTTPS_PROXY: 'http://env:1' } }), { reason: 'none' }, 'HTTPS_PROXY is for https only');
    assert.deepEqual(route('https://api.example.com', {}), { reason: 'none' });
  });

  it('reads a proxy without a scheme (host:port, user:password@host:port) as an http:// proxy', () => {
    assert.deepEqual(route('https://api.example.com', { env: { HTTPS_PROXY: 'proxy.corp:3128' } }), {
      proxy: 'http://proxy.corp:3128',
      reason: 'environment',
      source: 'HTTPS_PROXY',
    });
    assert.deepEqual(route('https://api.example.com', { proxyUrl: ' alice:pw@10.0.0.1:8080 ' }), { proxy: 'http://alice:pw@10.0.0.1:8080', reason: 'setting' });
    assert.equal(route('https://api.example.com', { proxyUrl: 'https://proxy:443' }).proxy, 'https://proxy:443');
  });

  it('goes straight when http.proxySupport is off, whatever proxy is set', () => {
    assert.deepEqual(route('https://api.example.com', { proxyUrl: 'http://proxy:3128', proxySupport: 'off', env: { HTTPS_PROXY: 'http://env:1' } }), {
      reason: 'proxySupportOff',
    });
    assert.equal(route('https://api.example.com', { proxyUrl: 'http://proxy:3128', proxySupport: 'override' }).reason, 'setting');
  });

  it('matches http.noProxy and NO_PROXY as VS Code and curl do: a domain covers its subdomains, a port only that port', () => {
    const via = (url: string, noProxy: string, env: NodeJS.ProcessEnv = {}) => route(url, { proxyUrl: 'http://proxy:3128', noProxy, env });
    assert.deepEqual(via('https://api.example.com', 'example.com'), { reason: 'noProxy', source: 'example.com' });
    assert.equal(via('https://api.example.com', '.example.com').reason, 'noProxy');
    assert.equal(via('https://api.example.com', '*.example.com').reason, 'noProxy');
    assert.equal(via('https://example.com', '.example.com').reason, 'noProxy');
    assert.equal(via('https://api.example.com', 'ample.com').reason, 'setting', 'not a parent domain');
    assert.equal(via('https://api.example.com:8443', 'api.example.com:8443').reason, 'noProxy');
    assert.equal(via('https://api.example.com', 'api.example.com:8443').reason, 'setting', 'another port');
    assert.equal(via('https://api.example.com', 'api.example.com:443').reason, 'noProxy', 'the scheme’s default port');
    assert.equal(via('http://[::1]:8080', '::1').reason, 'noProxy');
    assert.equal(via('http://[::1]:8080', '[::1]:8080').reason, 'noProxy');
    assert.equal(via('https://api.example.com', 'other.org, *').reason, 'noProxy');
    assert.deepEqual(via('https://API.Example.com', '', { no_proxy: 'other.org example.com' }), { reason: 'noProxy', source: 'example.com' });
  });
});

describe('the Proxy-Authorization sent to a proxy', () => {
  it('is http.proxyAuthorization when set, else Basic of the URL’s user name and password, a stray % kept as written', () => {
    const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;
    assert.deepEqual(proxyCredentials('http://alice:pa55@proxy:3128', ' Negotiate abc '), { from: 'proxyAuthorization', header: 'Negotiate abc' });
    assert.deepEqual(proxyCredentials('http://alice:p%40ss@proxy:3128', undefined), { from: 'url', header: basic('alice:p@ss') });
    assert.deepEqual(proxyCredentials('http://alice:50%off@proxy:3128', undefined), { from: 'url', header: basic('alice:50%off') });
    assert.deepEqual(proxyCredentials('http://alice@proxy:3128', undefined), { from: 'none' });
  });
});

describe('ControlPlaneClient through an authenticating proxy (CONNECT) to a TLS stand-in', () => {
  const USER = 'alice';
  const PASSWORD = 'pr0xy-s3cret-pass';
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  let dir: string;
  let authority: TestAuthority;
  let standIn: StandIn;
  let proxy: ForwardProxy;
  const logged: string[] = [];
  const clients: ControlPlaneClient[] = [];
  const client = (options: Partial<ConnectionOptions>) => {
    const created = new ControlPlaneClient({
      baseUrl: standIn.url,
      apiKey: standIn.apiKey!,
      caFile: authority.certFile,
      env: {},
      retry: { maxAttempts: 1 },
      logger: { info: (line: string) => logged.push(line), warn: (line: string) => logged.push(line) },
      ...options,
    });
    clients.push(created);
    return created;
  };
  const proxyAt = (credentials = '') => proxy.url.replace('://', `://${credentials}`);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'de-proxy-'));
    ({ gateway: authority } = makeAuthorities(dir, ['gateway']));
    standIn = await StandIn.start({ host: '127.0.0.2', tls: authority.server });
    proxy = await startForwardProxy({ credentials: { user: USER, password: PASSWORD } });
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await proxy.close();
    await standIn.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends the user name and password of http.proxy to the proxy', async () => {
    const page = await client({ proxyUrl: proxyAt(`${USER}:${PASSWORD}@`) }).listDeployments({ limit: 2 });
    assert.equal(page.deployments.length, 2);
    assert.deepEqual(proxy.requests.at(-1), { target: `127.0.0.2:${standIn.port}`, tunnel: true, authorization: basic(USER, PASSWORD), status: 200 });
  });

  it('sends http.proxyAuthorization as the Proxy-Authorization header, instead of the URL’s credentials', async () => {
    const page = await client({ proxyUrl: proxyAt('someone:else@'), proxyAuthorization: basic(USER, PASSWORD) }).listDeployments({ limit: 1 });
    assert.equal(page.deployments.length, 1);
    assert.equal(proxy.requests.at(-1)?.authorization, basic(USER, PASSWORD));
  });

  it('says the proxy wants credentials (407), naming it without any credential, and the settings to change', async () => {
    for (const [options, sent] of [
      [{ proxyUrl: proxyAt() }, false],
      [{ proxyUrl: proxyAt(`${USER}:wrong-password-1@`) }, true],
      [{ proxyUrl: proxyAt(), proxyAuthorization: basic(USER, 'wrong-password-2') }, true],
    ] as const) {
      logged.length = 0;
      await assert.rejects(client(options).listDeployments(), (error: unknown) => {
        assert.ok(error instanceof ProxyAuthError, String(error));
        assert.equal(error.kind, 'proxyAuth');
        assert.equal(error.status, 407);
        assert.equal(error.credentialsSent, sent);
        assert.equal(error.proxy, sent && !('proxyAuthorization' in options) ? proxyAt('[redacted]@') : proxy.url);
        assert.match(error.message, sent ? /refused the credentials/ : /asks for credentials/);
        assert.match(error.message, /http\.proxy\b.*http\.proxyAuthorization/);
        const everything = `${JSON.stringify(error)} ${error.message} ${error.stack} ${logged.join('\n')}`;
        for (const secret of ['wrong-password-1', 'wrong-password-2', basic(USER, 'wrong-password-2').slice(6), basic(USER, 'wrong-password-1').slice(6)]) {
          assert.ok(!everything.includes(secret), `${secret} leaked: ${everything}`);
        }
        return true;
      });
    }
  });

  it('goes through a proxy given without a scheme (HTTPS_PROXY=user:password@host:port)', async () => {
    const page = await client({ env: { HTTPS_PROXY: proxyAt(`${USER}:${PASSWORD}@`).replace('http://', '') } }).listDeployments({ limit: 1 });
    assert.equal(page.deployments.length, 1);
    assert.deepEqual(proxy.requests.at(-1), { target: `127.0.0.2:${standIn.port}`, tunnel: true, authorization: basic(USER, PASSWORD), status: 200 });
  });

  it('goes straight to the server when http.proxySupport is off', async () => {
    const before = proxy.requests.length;
    await client({ proxyUrl: proxyAt(`${USER}:${PASSWORD}@`), proxySupport: 'off' }).listDeployments({ limit: 1 });
    assert.equal(proxy.requests.length, before);
  });

  it('goes around the proxy for a host in http.noProxy', async () => {
    const before = proxy.requests.length;
    await client({ proxyUrl: proxyAt(), noProxy: '127.0.0.2' }).listDeployments({ limit: 1 });
    assert.equal(proxy.requests.length, before);
  });
});
