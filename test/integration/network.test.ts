// Issue 20 inside VS Code's real extension host: an authenticating forward proxy (CONNECT) in front of a TLS
// stand-in on 127.0.0.2 (VS Code's own proxy resolver bypasses only localhost, 127.0.0.1 and ::1), and Check
// Connection's report for each way the connection fails. The system trust store and NODE_EXTRA_CA_CERTS are in
// trustStore.test.ts, which needs a code-server of its own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DeploymentsTreeElement } from '../../src/features/deployments/deploymentsTreeProvider';
import { startForwardProxy, type ForwardProxy } from '../server/forwardProxy';
import { makeAuthorities, type TestAuthority } from '../server/testCertificates';
import { captureLog, checkConnectionReport, config, connectionSettled, errorRows, useApiKey, useSuiteFixture, waitFor } from './support';

const random = () => Math.random().toString(36).slice(2);
const KEY = `sk-network-test-${random()}`;
const WRONG_KEY = `sk-wrong-${random()}`;
const PROXY_USER = 'proxy-user';
const PROXY_PASSWORD = `proxy-pw-${random()}`;
const WRONG_PASSWORD = `wrong-pw-${random()}`;
const basic = (password: string) => Buffer.from(`${PROXY_USER}:${password}`).toString('base64');
/** Nothing a person sees or the log holds may contain one of these. */
const SECRETS = [KEY, WRONG_KEY, PROXY_PASSWORD, WRONG_PASSWORD, basic(PROXY_PASSWORD), basic(WRONG_PASSWORD)];

let pkiDir: string | undefined;
let pki: Record<'gateway', TestAuthority> | undefined;
/** `gateway` signs the stand-in's certificate; caFile names it (no other store holds it). */
function authorities() {
  pkiDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'de-network-pki-'));
  return (pki ??= makeAuthorities(pkiDir, ['gateway']));
}

function assertNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `${where} holds a secret: ${text}`);
}

describe('Behind an authenticating proxy, and Check Connection', function () {
  this.timeout(60000);
  const logged: string[] = [];
  const fx = useSuiteFixture({
    key: KEY,
    capture: ['error', 'warning', 'info'],
    standIn: () => ({ host: '127.0.0.2', tls: authorities().gateway.server }),
    settings: () => ({ autoRefreshSeconds: 0, pageSize: 10, caFile: authorities().gateway.certFile }),
    prepare: ({ api, onRestore }) => {
      const http = vscode.workspace.getConfiguration('http');
      const previous = ['proxy', 'proxyAuthorization', 'noProxy', 'proxySupport'].map((name) => [name, http.inspect(name)?.globalValue] as const);
      onRestore(async () => {
        for (const [name, value] of previous) await vscode.workspace.getConfiguration('http').update(name, value, vscode.ConfigurationTarget.Global);
      });
      captureLog(api, logged, onRestore);
    },
  });
  let proxy: ForwardProxy;
  const deployments = () => fx.api.deployments;
  const rootRows = () => deployments().provider.getChildren() as DeploymentsTreeElement[];
  const rootItems = () => rootRows().map((row) => deployments().provider.getTreeItem(row) as vscode.TreeItem);
  const deploymentRows = () => rootRows().filter((row) => row.kind === 'deployment');
  /**
   * Waits until the connection has picked up a change, then forgets what the stand-in saw: a view an earlier suite
   * left visible reloads on every change. (The proxy's tunnels are counted from the test's start: a refresh may reuse
   * a tunnel such a reload opened.)
   */
  async function settled(): Promise<void> {
    await connectionSettled(fx.api);
    fx.standIn.reset();
  }
  /** Sets VS Code's `http.*` settings in this order (null: unset), then settled(). */
  async function setHttp(values: Record<string, unknown>): Promise<void> {
    const http = vscode.workspace.getConfiguration('http');
    for (const [name, value] of Object.entries(values)) await http.update(name, value ?? undefined, vscode.ConfigurationTarget.Global);
    await settled();
  }
  const proxyAt = (user?: string) => `http://${user ? `${user}@` : ''}${new URL(proxy.url).host}`;
  /** How messages and the report name a proxy whose URL holds credentials. */
  const redactedProxy = () => proxyAt('[redacted]');

  before(async () => {
    proxy = await startForwardProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } });
  });
  after(async () => {
    await proxy?.close();
    if (pkiDir) fs.rmSync(pkiDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    fx.messages.clear();
    await setHttp({ proxy: '', proxyAuthorization: null, noProxy: null, proxySupport: null });
    proxy.requests.length = 0;
  });

  it('http.noProxy, then http.proxySupport: off, send requests straight to the server, around the proxy', async () => {
    // A proxy without its credentials: a request through it would be refused (407).
    await setHttp({ proxy: proxyAt(), noProxy: ['127.0.0.2'] });
    proxy.requests.length = 0;
    await deployments().refresh();
    assert.equal(deploymentRows().length, 10, 'http.noProxy');
    await setHttp({ noProxy: null, proxySupport: 'off' });
    await deployments().refresh();
    assert.equal(deploymentRows().length, 10, 'http.proxySupport: off');
    assert.equal(proxy.requests.length, 0, 'nothing went through the proxy');
    await setHttp({ proxySupport: null });
    await deployments().refresh();
    assert.equal(deploymentRows().length, 0, 'the control: through the proxy, refused');
    assert.ok(proxy.requests.length > 0);
  });

  it('lists deployments through the proxy with user:password@ in http.proxy', async () => {
    await setHttp({ proxy: proxyAt(`${PROXY_USER}:${PROXY_PASSWORD}`) });
    await deployments().refresh();
    assert.equal(deploymentRows().length, 10);
    const tunnels = proxy.requests.filter((request) => request.tunnel);
    assert.ok(tunnels.length > 0, 'the requests went through the proxy');
    for (const tunnel of tunnels) {
      const authorization = `Basic ${basic(PROXY_PASSWORD)}`;
      assert.deepEqual(tunnel, { target: `127.0.0.2:${fx.standIn.port}`, tunnel: true, authorization, status: 200 });
    }
  });

  it('http.proxyAuthorization is not sent by VS Code’s fetch: a 407, and one message saying to put the credentials in http.proxy', async () => {
    await setHttp({ proxyAuthorization: `Basic ${basic(PROXY_PASSWORD)}`, proxy: proxyAt() });
    await deployments().refresh();
    assert.equal(deploymentRows().length, 0);
    assert.ok(proxy.requests.length > 0 && proxy.requests.every((request) => request.status === 407 && request.authorization === undefined), 'measured: not sent');
    const retired = fx.messages.shown.filter((shown) => shown.message.includes('no longer sends http.proxyAuthorization'));
    assert.equal(retired.length, 1, fx.messages.shown.map((shown) => shown.message).join('\n'));
    assert.deepEqual(retired[0].actions, ['Open Settings']);
  });

  it('without credentials shows the 407 naming the proxy, with Open Settings (http.proxy) and Check Connection', async () => {
    await setHttp({ proxy: proxyAt() });
    await deployments().refresh();
    assert.equal(deploymentRows().length, 0);
    const { message, rows } = errorRows(rootItems());
    assert.equal(
      message,
      `The proxy ${proxyAt()} asks for credentials (HTTP 407). ` +
        'Give them in the setting http.proxy (http://user:password@host:port).\n\nClick to retry.',
    );
    assert.deepEqual(rows, [
      ["Couldn't load deployments: Retry", 'deploymentsExplorer.loadMoreDeployments', rows[0][2]],
      ['Open Settings', 'workbench.action.openSettings', ['http.proxy']],
      ['Check Connection', 'deploymentsExplorer.checkConnection', []],
    ]);
    assert.ok(proxy.requests.length > 0 && proxy.requests.every((request) => request.status === 407 && request.authorization === undefined));
    assert.equal(fx.standIn.requests.length, 0, 'nothing reached the server');
  });

  it('refused credentials: the message names the proxy without them, and neither the log nor its file holds a credential or the key', async () => {
    await setHttp({ proxy: proxyAt(`${PROXY_USER}:${PROXY_PASSWORD}`) });
    await deployments().refresh();
    assert.equal(deploymentRows().length, 10);
    await setHttp({ proxy: proxyAt(`${PROXY_USER}:${WRONG_PASSWORD}`) });
    await deployments().refresh();
    const { message } = errorRows(rootItems());
    const refusal = `The proxy ${redactedProxy()} refused the credentials it was given (HTTP 407). Check the user name and password`;
    assert.ok(message.startsWith(refusal), message);
    assert.equal(proxy.requests.at(-1)?.authorization, `Basic ${basic(WRONG_PASSWORD)}`, 'the wrong credentials did go to the proxy');
    await setHttp({ proxy: proxyAt(`${PROXY_USER}:${PROXY_PASSWORD}`) });
    await deployments().refresh();
    assert.equal(deploymentRows().length, 10);
    assert.equal((await checkConnectionReport()).ok, true);

    assert.ok(fx.messages.shown.length > 0, 'the failures were notified');
    for (const shown of fx.messages.shown) assertNoSecret(`${shown.message} ${shown.actions.join(' ')}`, 'a notification');
    assert.ok(logged.some((line) => line.includes('/v2/deployments')), 'requests are logged');
    for (const line of logged) assertNoSecret(line, 'a log line');
    const marker = `network-log-marker-${random()}`;
    fx.api.services.log.info(marker);
    const logRoot = path.dirname(fx.api.services.context.logUri.fsPath);
    const content = await waitFor('the log file to hold the marker', () => {
      const text = logFiles(logRoot).map((file) => fs.readFileSync(file, 'utf8')).join('\n');
      return text.includes(marker) ? text : undefined;
    });
    assert.ok(content.includes(redactedProxy()), 'the log names the proxy');
    assertNoSecret(content, 'the log file');
  });

  describe('Check Connection', () => {
    it('reports success through the proxy, naming it without its credentials and the store that trusted the certificate', async () => {
      await setHttp({ proxy: proxyAt(`${PROXY_USER}:${PROXY_PASSWORD}`) });
      const { ok, text } = await checkConnectionReport();
      assert.equal(ok, true);
      assert.ok(text.includes(`- Base URL: \`${fx.standIn.url}\``), text);
      assert.ok(text.includes(`- http.proxy: \`${redactedProxy()}\`, with a user name and password (not shown here)`), text);
      assert.ok(text.includes('**✔ Connected.** The control plane answered the listing call (HTTP 200): the base URL and the API key are accepted.'), text);
      assert.ok(text.includes('**Next step:** Nothing to do.'), text);
      assert.match(text, /Direct connection to `127\.0\.0\.2:\d+`, without a proxy: TLSv1\.3; the certificate is trusted by Node\.js’s roots and deploymentsExplorer\.caFile/);
      assert.match(text, /^- deploymentsExplorer\.caFile: `[^`]+gateway-ca\.pem`/m);
      assert.ok(proxy.requests.some((request) => request.tunnel && request.status === 200), 'the listing call went through the proxy');
      assertNoSecret(text, 'the report');
    });

    it('reports a refused key with Set API Key… as the next step', async () => {
      try {
        await useApiKey(fx.api, WRONG_KEY);
        const { ok, text } = await checkConnectionReport();
        assert.equal(ok, false);
        // The stand-in answers an unknown key as the service does: 403 "Invalid API key".
        assert.ok(text.includes('**✘ Failed.** The API key was refused, or it may not access this tenant. Access denied (HTTP 403): Invalid API key'), text);
        assert.ok(text.includes('**Next step:** Set the right key with “Set API Key…”'), text);
        assert.match(text, /Listing call `GET \/v2\/deployments\?limit=1` through VS Code’s network stack, as the views make it: HTTP 403/);
        assertNoSecret(text, 'the report');
      } finally {
        await useApiKey(fx.api, KEY);
      }
    });

    it('reports the proxy’s 407 to wrong credentials, naming where they came from and where to set them', async () => {
      await setHttp({ proxy: proxyAt(`${PROXY_USER}:${WRONG_PASSWORD}`) });
      const { ok, text } = await checkConnectionReport();
      assert.equal(ok, false);
      assert.ok(
        text.includes(`**✘ Failed.** The proxy \`${redactedProxy()}\` refused the credentials it was given (the user name and password in its URL) (HTTP 407).`),
        text,
      );
      assert.ok(text.includes('**Next step:** Give the proxy its credentials in the setting http.proxy'), text);
      assert.match(text, /Listing call `GET \/v2\/deployments\?limit=1` through VS Code’s network stack, as the views make it: HTTP 407/);
      assert.equal(fx.standIn.requests.length, 0);
      assertNoSecret(text, 'the report');
    });

    it('reports an untrusted certificate, naming its issuer and caFile as the next step', async () => {
      try {
        await config().update('caFile', '', vscode.ConfigurationTarget.Global);
        await settled();
        const { ok, text } = await checkConnectionReport();
        assert.equal(ok, false);
        assert.match(text, /\*\*✘ Failed\.\*\* The certificate chain is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): its last certificate, `CN=127\.0\.0\.1`, issued by `O=Deployments Explorer tests, CN=gateway test CA`, is in none of the trusted stores\./);
        assert.ok(text.includes('or put it (PEM) in the setting deploymentsExplorer.caFile'), text);
        assert.equal(fx.standIn.requests.length, 0, 'no listing call with an untrusted certificate');
        assertNoSecret(text, 'the report');
      } finally {
        await config().update('caFile', authorities().gateway.certFile, vscode.ConfigurationTarget.Global);
        await connectionSettled(fx.api);
      }
    });

    it('reports a server that is down, with starting it or the port as the next step', async () => {
      const port = await new Promise<number>((resolve) => {
        const server = net.createServer().listen(0, '127.0.0.2', () => {
          const { port } = server.address() as net.AddressInfo;
          server.close(() => resolve(port));
        });
      });
      try {
        await config().update('baseUrl', `https://127.0.0.2:${port}`, vscode.ConfigurationTarget.Global);
        await useApiKey(fx.api, KEY);
        const { ok, text } = await checkConnectionReport();
        assert.equal(ok, false);
        assert.ok(text.includes(`**✘ Failed.** Nothing accepts connections at \`127.0.0.2:${port}\` (ECONNREFUSED).`), text);
        assert.ok(text.includes('**Next step:** Check that the control plane is running and that the port in the base URL is right.'), text);
        assertNoSecret(text, 'the report');
      } finally {
        await config().update('baseUrl', fx.standIn.url, vscode.ConfigurationTarget.Global);
        await useApiKey(fx.api, KEY);
      }
    });
  });
});

function logFiles(dir: string, depth = 0): string[] {
  if (depth > 4 || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return logFiles(full, depth + 1);
    return entry.name.endsWith('.log') && entry.name.includes('Deployments Explorer') ? [full] : [];
  });
}
