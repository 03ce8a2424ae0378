import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it, mock } from 'node:test';
import dnsPromises from 'node:dns/promises';
import { isErrorOf } from '../../src/api';
import { checkConnection } from '../../src/api/connectionCheck';
import type { ConnectionCheck, ConnectionOptions, NetworkSettings } from '../../src/api';
import { connectionReport, ReportContext } from '../../src/model/connectionReport';
import { StandIn } from '../server/standIn';
import { makeAuthorities, TestAuthority } from '../server/testCertificates';

const KEY = 'sk-check-connection-0123456789';
const PASSWORD = 'check-proxy-pa55word';

describe('Check Connection over loopback', () => {
  let dir: string;
  let pki: Record<'trusted' | 'unknown', TestAuthority>;
  let standIn: StandIn;
  let untrustedStandIn: StandIn;
  const context = (key: ReportContext['key'] = 'send'): ReportContext => ({
    profile: 'Default',
    tenantId: undefined,
    key,
    userAgent: 'deployments-explorer/0.1.0 VSCode/test',
    time: new Date('2025-01-02T03:04:05Z'),
  });
  /** The report of a check with `options` over the trusted stand-in; asserts that no secret is in it. */
  const report = async (options: Partial<ConnectionOptions>, key: ReportContext['key'] = 'send', settings: NetworkSettings = {}) => {
    const check = await checkConnection({ baseUrl: standIn.url, apiKey: KEY, caFile: pki.trusted.certFile, timeoutMs: 5000, ...options }, settings);
    return reportOf(check, key);
  };
  /** The report of `check`; asserts that no secret is in it. */
  const reportOf = (check: ConnectionCheck, key: ReportContext['key'] = 'send') => {
    const text = connectionReport(check, context(key));
    for (const secret of [KEY, PASSWORD, Buffer.from(`alice:${PASSWORD}`).toString('base64')]) assert.ok(!text.includes(secret), `${secret} in:\n${text}`);
    return text;
  };
  const result = (text: string) => text.slice(text.indexOf('## Result'), text.indexOf('## Steps'));

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'de-check-'));
    pki = makeAuthorities(dir, ['trusted', 'unknown']);
    standIn = await StandIn.start({ apiKey: KEY, host: '127.0.0.2', tls: pki.trusted.server });
    untrustedStandIn = await StandIn.start({ apiKey: KEY, tls: pki.unknown.server });
  });

  after(async () => {
    await Promise.all([standIn.close(), untrustedStandIn.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports success: every step, the chain and the store that trusted it', async () => {
    const text = await report({});
    assert.match(result(text), /✔ Connected\.\*\* The control plane answered the listing call \(HTTP 200\): the base URL and the API key are accepted\./);
    assert.match(result(text), /Next step:\*\* Nothing to do\./);
    assert.match(text, /Base URL: `https:\/\/127\.0\.0\.2:\d+`/);
    assert.match(text, /^- http\.proxy: not set \(VS Code uses the environment’s or the operating system’s proxy, if any\)$/m);
    assert.match(text, /^- http\.proxySupport: `override`; http\.systemCertificates: `on`; http\.fetchAdditionalSupport: `on`$/m);
    assert.match(text, /^- deploymentsExplorer\.caFile: `[^`]+trusted-ca\.pem`/m);
    assert.match(text, /Name lookup of `127\.0\.0\.2`: `127\.0\.0\.2`/);
    assert.match(text, /Direct connection to `127\.0\.0\.2:\d+`, without a proxy: TLSv1\.3; the certificate is trusted by Node\.js’s roots and deploymentsExplorer\.caFile/);
    assert.match(text, /Listing call `GET \/v2\/deployments\?limit=1` through VS Code’s network stack, as the views make it: HTTP 200, 1 record/);
    assert.match(text, /1\. `CN=127\.0\.0\.1`, issued by `O=Deployments Explorer tests, CN=trusted test CA`/);
    assert.match(text, /2\. `O=Deployments Explorer tests, CN=trusted test CA`/);
  });

  it('reports a refused key, with Set API Key… as the next step', async () => {
    const text = await report({ apiKey: 'sk-not-the-right-one-42' });
    assert.match(result(text), /✘ Failed\.\*\* The API key was refused, or it may not access this tenant\. Access denied \(HTTP 403\): Invalid API key/);
    assert.match(result(text), /Next step:\*\* Set the right key with “Set API Key…”/);
    assert.ok(!text.includes('sk-not-the-right-one-42'));
    const none = await report({ apiKey: undefined }, 'none');
    assert.match(result(none), /No API key is stored for this profile/);
  });

  it('reports a tenant that was sent and refused as that tenant refused, not as a tenant missing', async () => {
    const tenanted = await StandIn.start({ apiKey: KEY, requireTenant: 'tenant-a' });
    try {
      const check = async (tenantId: string | undefined) =>
        result(connectionReport(await checkConnection({ baseUrl: tenanted.url, apiKey: KEY, tenantId, timeoutMs: 5000 }), { ...context(), tenantId }));
      assert.match(await check(undefined), /The API key needs a tenant \(workspace\) ID \(HTTP 403\)\.[\s\S]*Set it with “Set Tenant ID…”/);
      const wrong = await check('tenant-b');
      assert.doesNotMatch(wrong, /needs a tenant/);
      assert.match(wrong, /✘ Failed\.\*\* The control plane refused the tenant `tenant-b` for this API key\. Access denied \(HTTP 403\): This API key requires workspace/);
      assert.match(wrong, /Next step:\*\* Check the tenant ID \(“Set Tenant ID…”\), and that the API key belongs to that tenant\./);
    } finally {
      await tenanted.close();
    }
  });

  it('reports a proxy’s 407, naming the proxy without its password, and http.proxy as the next step', async () => {
    // Node's fetch (these tests) uses no proxy; VS Code's does (test/integration/network.test.ts). The listing's error is a `proxyAuth` ControlPlaneError.
    const proxy = `http://alice:${PASSWORD}@127.0.0.1:3128`;
    const healthy = await checkConnection({ baseUrl: standIn.url, apiKey: KEY, caFile: pki.trusted.certFile, proxyUrl: proxy }, { proxy, proxySupport: 'override' });
    assert.match(reportOf(healthy), /^- http\.proxy: `http:\/\/\[redacted\]@127\.0\.0\.1:3128`, with a user name and password \(not shown here\)$/m);
    const refused = (credentialsSent: boolean): ConnectionCheck => ({
      ...healthy,
      listing: {
        ms: 3,
        status: 407,
        error: { kind: 'proxyAuth', proxy: 'http://[redacted]@127.0.0.1:3128', credentialsSent, message: `The proxy http://[redacted]@127.0.0.1:3128 refused the credentials (HTTP 407).` },
      },
    });
    assert.match(result(reportOf(refused(true))), /✘ Failed\.\*\* The proxy `http:\/\/\[redacted\]@127\.0\.0\.1:3128` refused the credentials it was given \(the user name and password in its URL\) \(HTTP 407\)\./);
    const asks = result(reportOf(refused(false)));
    assert.match(asks, /The proxy `http:\/\/\[redacted\]@127\.0\.0\.1:3128` asks for credentials \(HTTP 407\), and none are set\./);
    assert.match(asks, /Next step:\*\* Give the proxy its credentials in the setting http\.proxy \(http:\/\/user:password@host:port\)/);
  });

  it('reports an untrusted certificate with the chain and caFile as the next step', async () => {
    const text = await report({ baseUrl: untrustedStandIn.url, caFile: undefined });
    assert.match(result(text), /The certificate chain is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): its last certificate, `CN=127\.0\.0\.1`, issued by `O=Deployments Explorer tests, CN=unknown test CA`, is in none of the trusted stores\./);
    assert.match(result(text), /Next step:\*\* .*operating system’s store.*http\.systemCertificates.*NODE_EXTRA_CA_CERTS.*deploymentsExplorer\.caFile/);
    assert.match(text, /Direct connection to `127\.0\.0\.1:\d+`, without a proxy: TLSv1\.3; the certificate is not trusted by Node\.js’s roots: UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    assert.match(text, /Listing call `GET \/v2\/deployments\?limit=1` through VS Code’s network stack, as the views make it: Cannot reach the control plane/);
    assert.match(text, /TLS certificate chain \(leaf first\)/);
  });

  it('connects to the next address of the host when the first refuses, as the client does (IPv6 first, the server on IPv4)', async (t) => {
    const lookup = mock.method(dnsPromises, 'lookup', async () => [
      { address: '::1', family: 6 },
      { address: '127.0.0.2', family: 4 },
    ]);
    t.after(() => lookup.mock.restore());
    const check = await checkConnection({ baseUrl: `https://localhost:${standIn.port}`, apiKey: KEY, caFile: pki.trusted.certFile, timeoutMs: 5000 });
    assert.deepEqual(check.dns?.addresses, ['::1', '127.0.0.2']);
    assert.equal(check.probe?.failure, undefined, JSON.stringify(check.probe));
    assert.equal(check.probe?.address, '127.0.0.2');
    assert.equal(check.probe?.untrusted, undefined);
  });

  it('reports a server that is down: nothing accepts connections', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const text = await report({ baseUrl: `https://127.0.0.1:${port}` });
    assert.match(result(text), new RegExp(`Nothing accepts connections at \`127\\.0\\.0\\.1:${port}\` \\(ECONNREFUSED\\)\\.`));
    assert.match(result(text), /Next step:\*\* Check that the control plane is running/);
  });

  it('writes an IPv6 address as a URL does: in brackets before the port', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const text = await report({ baseUrl: `https://[::1]:${port}` });
    assert.match(result(text), new RegExp(`Nothing accepts connections at \`\\[::1\\]:${port}\``));
  });

  it('names VS Code’s network settings in force', async () => {
    const text = await report({}, 'send', { noProxy: ['127.0.0.2', '.corp'], proxySupport: 'off', systemCertificates: false, fetchAdditionalSupport: false });
    assert.match(text, /^- http\.noProxy: `127\.0\.0\.2`, `\.corp`$/m);
    assert.match(text, /^- http\.proxySupport: `off`; http\.systemCertificates: `off`; http\.fetchAdditionalSupport: `off`$/m);
  });

  it('names the headers the key and the tenant were sent in', async () => {
    const text = await report({ apiKeyHeader: 'Authorization', tenantHeader: 'X-Org' });
    assert.match(text, /^- API key: sent in the header `Authorization` \(not shown here\)$/m);
    const tenanted = connectionReport(await checkConnection({ baseUrl: standIn.url }), { ...context(), tenantId: 'acme' });
    assert.match(tenanted, /^- Tenant: `acme` \(sent with the API key, in the header `X-Tenant-Id`\)$/m);
  });

  it('names a header setting that is not a header name before trying any step', async () => {
    const steps: string[] = [];
    await assert.rejects(
      checkConnection({ baseUrl: standIn.url, apiKeyHeader: 'X Api Key' }, {}, (step) => steps.push(step)),
      (error: unknown) => isErrorOf(error, 'invalidInput') && /^Invalid API key header: “X Api Key” is not an HTTP header name/.test(error.message),
    );
    assert.deepEqual(steps, []);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(checkConnection({ baseUrl: standIn.url }, {}, undefined, controller.signal), (error: unknown) => isErrorOf(error, 'cancelled'));
  });
});
