// ext-runner: private-trust-store
// Certificates no setting names, inside VS Code's real extension host: scripts/run-extension-tests.mjs runs this
// file in two code-servers of its own, each in a private mount namespace whose system CA bundle
// (/etc/ssl/certs/ca-certificates.crt) is a copy: with the test CA `system` (DE_TRUST_STORE=with-test-ca) and,
// as the control, without it (without-test-ca). NODE_EXTRA_CA_CERTS names the test CA `extra`; SSL_CERT_FILE and
// the like are unset. The test CAs are in DE_TEST_PKI.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeploymentsTreeElement } from '../../src/features/deployments/deploymentsTreeProvider';
import { StandIn } from '../server/standIn';
import { readAuthorities } from '../server/testCertificates';
import { checkConnectionReport, config, connectionSettled, errorRows, useApiKey, useSuiteFixture } from './support';

const KEY = `sk-trust-store-test-${Math.random().toString(36).slice(2)}`;
const STORE = process.env.DE_TRUST_STORE;
const PKI = process.env.DE_TEST_PKI;
const authorities = () => readAuthorities(PKI!, ['system', 'extra', 'file', 'stranger']);

const TITLE = `Certificates from the system store and NODE_EXTRA_CA_CERTS (${STORE ?? 'run by scripts/run-extension-tests.mjs only'})`;

(STORE && PKI ? describe : describe.skip)(TITLE, function () {
  this.timeout(60000);
  const fx = useSuiteFixture({
    key: KEY,
    capture: ['error', 'warning', 'info'],
    // Signed by the CA only the system bundle of the with-test-ca launch holds.
    standIn: () => ({ tls: authorities().system.server }),
    settings: () => ({ autoRefreshSeconds: 0, pageSize: 10, caFile: '' }),
  });
  const deployments = () => fx.api.deployments;
  const rows = () => deployments().provider.getChildren() as DeploymentsTreeElement[];
  const items = () => rows().map((row) => deployments().provider.getTreeItem(row) as vscode.TreeItem);
  const loaded = () => rows().filter((row) => row.kind === 'deployment').length;
  const others: StandIn[] = [];

  beforeEach(() => {
    fx.messages.clear();
    fx.standIn.reset();
  });
  after(async () => {
    for (const standIn of others) await standIn.close();
  });

  /** Points the base URL at `url` (the key with it) and loads the Deployments view. */
  async function loadFrom(url: string): Promise<void> {
    await config().update('baseUrl', url, vscode.ConfigurationTarget.Global);
    await useApiKey(fx.api, KEY);
    await connectionSettled(fx.api);
    await deployments().refresh();
  }

  if (STORE === 'with-test-ca') {
    it('trusts a server whose CA only the system store holds, with caFile empty', async () => {
      await deployments().refresh();
      assert.equal(loaded(), 10);
      const { ok, text } = await checkConnectionReport();
      assert.equal(ok, true, text);
      // Node's roots alone (the direct probe) do not trust it: VS Code's fetch adds the system bundle.
      assert.match(text, /Direct connection to `127\.0\.0\.1:\d+`, without a proxy: TLSv1\.3; the certificate is not trusted by Node\.js’s roots: UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    });
  } else {
    it('without the CA in the system store, names the certificate problem, caFile and Check Connection', async () => {
      await deployments().refresh();
      assert.equal(loaded(), 0);
      const { message, rows: shown } = errorRows(items());
      const problem =
        `Cannot reach the control plane at ${fx.standIn.url}: the TLS certificate is not trusted (unable to verify the first certificate); ` +
        'run “Check Connection” to see the certificate chain, and add its CA certificate in the setting deploymentsExplorer.caFile';
      assert.ok(message.startsWith(problem), message);
      assert.ok(message.includes('(UNABLE_TO_VERIFY_LEAF_SIGNATURE).'), message);
      assert.deepEqual(shown.slice(1), [
        ['Open Settings', 'workbench.action.openSettings', ['deploymentsExplorer.caFile']],
        ['Check Connection', 'deploymentsExplorer.checkConnection', []],
      ]);
      const { ok, text } = await checkConnectionReport();
      assert.equal(ok, false);
      assert.match(text, /The certificate chain is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*issued by `O=Deployments Explorer tests, CN=system test CA`/);
      assert.ok(text.includes('deploymentsExplorer.caFile'), text);
    });
  }

  it('trusts NODE_EXTRA_CA_CERTS and caFile together, each naming another CA; a server signed by neither fails', async () => {
    const { extra, file, stranger } = authorities();
    for (const authority of [extra, file, stranger]) others.push(await StandIn.start({ apiKey: KEY, tls: authority.server }));
    const [byExtra, byFile, byStranger] = others.slice(-3);
    try {
      await config().update('caFile', file.certFile, vscode.ConfigurationTarget.Global);
      await loadFrom(byExtra.url);
      assert.equal(loaded(), 10, 'signed by the NODE_EXTRA_CA_CERTS CA, with caFile set');
      await loadFrom(byFile.url);
      assert.equal(loaded(), 10, 'signed by the caFile CA');
      if (STORE === 'with-test-ca') {
        // caFile's CA list replaces the OS's in VS Code's fetch (docs/network.md).
        await loadFrom(fx.standIn.url);
        assert.equal(loaded(), 0, 'signed by the system store’s CA, with caFile set');
      }
      await loadFrom(byStranger.url);
      assert.equal(loaded(), 0, 'signed by a CA no store holds');
      assert.match(errorRows(items()).message, /the TLS certificate is not trusted/);
    } finally {
      await config().update('caFile', '', vscode.ConfigurationTarget.Global);
      await config().update('baseUrl', fx.standIn.url, vscode.ConfigurationTarget.Global);
      await useApiKey(fx.api, KEY);
    }
  });
});
