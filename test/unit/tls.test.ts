import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isErrorOf } from '../../src/api';
import { ControlPlaneClient } from '../../src/api/client';

/** A self-signed certificate for 127.0.0.1, made for this run only. */
function makeCertificate(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8'), certFile };
}

describe('ControlPlaneClient over TLS on loopback', () => {
  let dir: string;
  let server: https.Server;
  let baseUrl: string;
  let certFile: string;
  const clients: ControlPlaneClient[] = [];
  const client = (options: { caFile?: string }) => {
    const created = new ControlPlaneClient({ baseUrl, retry: { maxAttempts: 1 }, ...options });
    clients.push(created);
    return created;
  };

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'de-tls-'));
    const material = makeCertificate(dir);
    certFile = material.certFile;
    server = https.createServer({ key: material.key, cert: material.cert }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ resources: [{ name: 'tls-ok' }], offset: 1 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an untrusted certificate and says what to do', async () => {
    await assert.rejects(client({}).listDeployments(), (error: unknown) => {
      assert.ok(isErrorOf(error, 'network'));
      assert.match(error.message, /TLS certificate is not trusted \(self-signed certificate\).*deploymentsExplorer\.caFile or to the operating system’s store \(DEPTH_ZERO_SELF_SIGNED_CERT\)\.$/);
      return true;
    });
  });

  it('trusts the certificate given as an extra CA file', async () => {
    const page = await client({ caFile: certFile }).listDeployments();
    assert.equal(page.deployments[0].name, 'tls-ok');
  });

  it('names a CA file it cannot read', () => {
    assert.throws(
      () => client({ caFile: path.join(dir, 'missing.pem') }),
      (error: unknown) => isErrorOf(error, 'invalidInput') && error.parameter === 'CA file' && /cannot read .*missing\.pem/.test(error.message),
    );
  });
});
