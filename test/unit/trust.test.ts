import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rootCertificates } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { InvalidInputError, NetworkError } from '../../src/api';
import { ControlPlaneClient } from '../../src/api/client';
import type { ConnectionOptions } from '../../src/api/http';
import { certificateStores, loadSystemCertificates, trustContext } from '../../src/api/trust';
import { StandIn } from '../server/standIn';
import { makeAuthorities, TestAuthority } from '../server/testCertificates';

describe('the certificates a connection trusts', () => {
  let dir: string;
  let pki: Record<'extra' | 'file' | 'system', TestAuthority>;
  const standIns: Partial<Record<keyof typeof pki, StandIn>> = {};
  const clients: ControlPlaneClient[] = [];
  const list = (server: keyof typeof pki, options: Partial<ConnectionOptions>) => {
    const client = new ControlPlaneClient({ baseUrl: standIns[server]!.url, apiKey: 'dev-key', env: {}, retry: { maxAttempts: 1 }, ...options });
    clients.push(client);
    return client.listDeployments({ limit: 1 });
  };
  const untrusted = (error: unknown) =>
    error instanceof NetworkError && /TLS certificate is not trusted.*Check Connection.*deploymentsExplorer\.caFile/.test(error.message);

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'de-trust-'));
    pki = makeAuthorities(dir, ['extra', 'file', 'system']);
    for (const name of ['extra', 'file', 'system'] as const) standIns[name] = await StandIn.start({ tls: pki[name].server });
  });

  after(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await Promise.all(Object.values(standIns).map((standIn) => standIn.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('adds caFile to NODE_EXTRA_CA_CERTS, never in its place', async () => {
    const env = { NODE_EXTRA_CA_CERTS: pki.extra.certFile };
    assert.equal((await list('extra', { env, caFile: pki.file.certFile })).deployments.length, 1, 'NODE_EXTRA_CA_CERTS with caFile set');
    assert.equal((await list('file', { env, caFile: pki.file.certFile })).deployments.length, 1, 'caFile');
    await assert.rejects(list('extra', { caFile: pki.file.certFile }), untrusted, 'without NODE_EXTRA_CA_CERTS its CA is not trusted');
  });

  it('trusts the operating system’s certificates it is given, with caFile empty', async () => {
    const systemCertificates = { source: 'test store', certificates: [pki.system.cert] };
    assert.equal((await list('system', { systemCertificates })).deployments.length, 1);
    assert.equal((await list('system', { systemCertificates, caFile: pki.file.certFile })).deployments.length, 1, 'and with caFile set');
    await assert.rejects(list('system', {}), untrusted, 'without them the CA is not trusted');
  });

  it('names the stores in order, and refuses a caFile it cannot read or that holds no certificate', () => {
    const stores = certificateStores(
      { env: { NODE_EXTRA_CA_CERTS: pki.extra.certFile }, caFile: pki.file.certFile },
      { source: 'test store', certificates: [pki.system.cert] },
    );
    assert.deepEqual(
      stores.map(({ kind, source, certificates }) => [kind, source, certificates.length]),
      [
        ['node', '', rootCertificates.length],
        ['environment', pki.extra.certFile, 1],
        ['system', 'test store', 1],
        ['caFile', pki.file.certFile, 1],
      ],
    );
    assert.equal(certificateStores({ env: { NODE_EXTRA_CA_CERTS: path.join(dir, 'missing.pem') } }).length, 1, 'Node too leaves out an unreadable one');
    const key = path.join(dir, 'file-server.key');
    assert.throws(() => certificateStores({ env: {}, caFile: key }), (error: unknown) => error instanceof InvalidInputError && /holds no PEM certificate/.test(error.message));
  });

  it('reads a caFile under ~ from the home folder, and refuses a relative one naming it', (t) => {
    // os.homedir() reads these first.
    const saved = { HOME: process.env.HOME, USERPROFILE: process.env.USERPROFILE };
    t.after(() => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
    Object.assign(process.env, { HOME: dir, USERPROFILE: dir });
    const stores = certificateStores({ env: {}, caFile: `~/${path.basename(pki.file.certFile)}` });
    assert.deepEqual(stores.at(-1)?.certificates, certificateStores({ env: {}, caFile: pki.file.certFile }).at(-1)?.certificates);
    assert.throws(
      () => certificateStores({ env: {}, caFile: 'certs/corp-ca.pem' }),
      (error: unknown) => error instanceof InvalidInputError && error.message === `Invalid CA file: certs/corp-ca.pem is not a full path; give the whole path of the file, e.g. ${path.join(dir, 'certs/corp-ca.pem')}`,
    );
  });

  it('makes one TLS context per set of certificates, and none when they add nothing to Node’s roots', () => {
    const nodeOnly = certificateStores({ env: {} }, { source: 'same as Node', certificates: rootCertificates.slice(0, 5).map((pem) => pem.replace(/\n/g, '\r\n')) });
    assert.equal(trustContext(nodeOnly), undefined);
    const stores = certificateStores({ env: {}, caFile: pki.file.certFile });
    const context = trustContext(stores);
    assert.ok(context);
    assert.equal(trustContext(certificateStores({ env: {}, caFile: pki.file.certFile })), context, 'the same certificates: the same context');
  });

  it('reads the system store of this platform once', { skip: process.platform !== 'linux' && 'Linux bundle files only' }, async () => {
    const first = await loadSystemCertificates();
    assert.match(first.source, /^\/etc\//);
    assert.ok(first.certificates.length > 0);
    assert.equal(await loadSystemCertificates(), first);
  });
});
