import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ControlPlaneError, invalidInput } from '../../src/api';
import { fixActionsFor, fixRows, isConnectionFix } from '../../src/model/fixActions';

const kinds = (error: unknown) => fixActionsFor(error).map((action) => action.kind);

describe('fix actions', () => {
  it('puts only fixes of one thing, and Check Connection for the network, in tree rows', () => {
    const check = { kind: 'fix', id: 'view/fix/checkConnection', action: { kind: 'checkConnection' } };
    assert.deepEqual(fixRows(new ControlPlaneError('network', { target: 'http://127.0.0.1:9', code: 'ECONNREFUSED', reason: 'connection refused' }), 'view'), [check]);
    assert.deepEqual(fixRows(new ControlPlaneError('auth', { status: 401 }), 'view'), [{ kind: 'fix', id: 'view/fix/setApiKey', action: { kind: 'setApiKey' } }]);
    assert.deepEqual(fixRows(new ControlPlaneError('network', { target: 'https://127.0.0.1:9', code: 'SELF_SIGNED_CERT_IN_CHAIN', reason: 'untrusted' }), 'view'), [
      { kind: 'fix', id: 'view/fix/openSettings', action: { kind: 'openSettings', setting: 'deploymentsExplorer.caFile' } },
      check,
    ]);
    assert.deepEqual(fixRows(new ControlPlaneError('proxyAuth', { proxy: 'http://proxy.example:3128', credentialsSent: false, status: 407 }), 'view'), [
      { kind: 'fix', id: 'view/fix/openSettings', action: { kind: 'openSettings', setting: 'http.proxy' } },
      check,
    ]);
    assert.deepEqual(fixRows(new ControlPlaneError('server', { status: 502 }), 'view'), [], 'a failing server is not the network');
  });

  it('opens the proxy settings for a proxy that wants credentials, then offers Check Connection', () => {
    assert.deepEqual(fixActionsFor(new ControlPlaneError('proxyAuth', { proxy: 'http://proxy.example:3128', credentialsSent: true, status: 407 })), [
      { kind: 'openSettings', setting: 'http.proxy' },
      { kind: 'checkConnection' },
      { kind: 'retry' },
      { kind: 'showLog' },
    ]);
  });

  it('offers the key first for a rejected key, the tenant first when the server asks for one', () => {
    assert.deepEqual(kinds(new ControlPlaneError('auth', { status: 401, detail: 'Invalid API key' })), ['setApiKey']);
    assert.deepEqual(kinds(new ControlPlaneError('auth', { status: 403, detail: 'Forbidden' })), ['setApiKey', 'setTenant']);
    assert.deepEqual(kinds(new ControlPlaneError('auth', { status: 403, detail: 'This key requires workspace specification' })), ['setTenant', 'setApiKey']);
  });

  it('points a bad connection setting at that setting', () => {
    assert.deepEqual(fixActionsFor(invalidInput('CA file', 'cannot be read')), [
      { kind: 'openSettings', setting: 'deploymentsExplorer.caFile' },
    ]);
    assert.deepEqual(fixActionsFor(invalidInput('base URL', 'is empty')), [
      { kind: 'openSettings', setting: 'deploymentsExplorer.baseUrl' },
    ]);
    assert.deepEqual(fixActionsFor(invalidInput('API key header', 'is not a header name')), [
      { kind: 'openSettings', setting: 'deploymentsExplorer.apiKeyHeader' },
    ]);
    assert.deepEqual(fixActionsFor(invalidInput('tenant header', 'is not a header name')), [
      { kind: 'openSettings', setting: 'deploymentsExplorer.tenantHeader' },
    ]);
    assert.deepEqual(kinds(invalidInput('API key', 'holds a character that cannot be sent')), ['setApiKey']);
    assert.deepEqual(kinds(invalidInput('tenant ID', 'holds a character that cannot be sent')), ['setTenant']);
    assert.deepEqual(kinds(invalidInput('limit', 'must be 1–100')), []);
  });

  it('opens the CA file setting for an untrusted certificate', () => {
    const error = new ControlPlaneError('network', { target: 'https://127.0.0.1:9', code: 'DEPTH_ZERO_SELF_SIGNED_CERT', reason: 'the TLS certificate is not trusted' });
    assert.deepEqual(fixActionsFor(error)[0], { kind: 'openSettings', setting: 'deploymentsExplorer.caFile' });
  });

  it('offers Retry for transient failures and only the log for a contract mismatch or a bug', () => {
    assert.deepEqual(kinds(new ControlPlaneError('timeout', { timeoutMs: 1000 })), ['retry', 'checkConnection', 'showLog']);
    assert.deepEqual(kinds(new ControlPlaneError('server', { status: 502 })), ['retry', 'showLog']);
    assert.equal(kinds(new ControlPlaneError('network', { target: 'http://127.0.0.1:9', code: 'ECONNREFUSED', reason: 'connection refused' }))[0], 'retry');
    assert.deepEqual(kinds(new ControlPlaneError('schema', { what: 'deployment listing', problems: [{ path: 'resources', message: 'Required' }] })), ['showLog']);
    assert.deepEqual(kinds(new TypeError('x is undefined')), ['showLog']);
  });

  it('calls only key, tenant and settings connection fixes', () => {
    const fixes = fixActionsFor(new ControlPlaneError('auth', { status: 403 })).filter(isConnectionFix).map((action) => action.kind);
    assert.deepEqual(fixes, ['setApiKey', 'setTenant']);
    assert.equal(isConnectionFix({ kind: 'retry' }), false);
    assert.equal(isConnectionFix({ kind: 'showLog' }), false);
  });
});
