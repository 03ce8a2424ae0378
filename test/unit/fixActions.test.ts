import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthError, InvalidInputError, NetworkError, ProxyAuthError, SchemaError, ServerError, TimeoutError } from '../../src/api';
import { fixActionsFor, fixRows, isConnectionFix } from '../../src/model/fixActions';

const kinds = (error: unknown) => fixActionsFor(error).map((action) => action.kind);

describe('fix actions', () => {
  it('puts only fixes of one thing, and Check Connection for the network, in tree rows', () => {
    const check = { kind: 'fix', id: 'view/fix/checkConnection', action: { kind: 'checkConnection' } };
    assert.deepEqual(fixRows(new NetworkError('http://127.0.0.1:9', 'ECONNREFUSED', 'connection refused'), 'view'), [check]);
    assert.deepEqual(fixRows(new AuthError(401, undefined), 'view'), [{ kind: 'fix', id: 'view/fix/setApiKey', action: { kind: 'setApiKey' } }]);
    assert.deepEqual(fixRows(new NetworkError('https://127.0.0.1:9', 'SELF_SIGNED_CERT_IN_CHAIN', 'untrusted'), 'view'), [
      { kind: 'fix', id: 'view/fix/openSettings', action: { kind: 'openSettings', setting: 'deploymentsExplorer.caFile' } },
      check,
    ]);
    assert.deepEqual(fixRows(new ProxyAuthError('http://proxy.example:3128', false), 'view'), [
      { kind: 'fix', id: 'view/fix/openSettings', action: { kind: 'openSettings', setting: 'http.proxy' } },
      check,
    ]);
    assert.deepEqual(fixRows(new ServerError(502, undefined), 'view'), [], 'a failing server is not the network');
  });

  it('opens the proxy settings for a proxy that wants credentials, then offers Check Connection', () => {
    assert.deepEqual(fixActionsFor(new ProxyAuthError('http://proxy.example:3128', true)), [
      { kind: 'openSettings', setting: 'http.proxy' },
      { kind: 'checkConnection' },
      { kind: 'retry' },
      { kind: 'showLog' },
    ]);
  });

  it('offers the key first for a rejected key, the tenant first when the server asks for one', () => {
    assert.deepEqual(kinds(new AuthError(401, 'Invalid API key')), ['setApiKey']);
    assert.deepEqual(kinds(new AuthError(403, 'Forbidden')), ['setApiKey', 'setTenant']);
    assert.deepEqual(kinds(new AuthError(403, 'This key requires workspace specification')), ['setTenant', 'setApiKey']);
  });

  it('points a bad connection setting at that setting', () => {
    assert.deepEqual(fixActionsFor(new InvalidInputError('CA file', 'cannot be read')), [
      { kind: 'openSettings', setting: 'deploymentsExplorer.caFile' },
    ]);
    assert.deepEqual(fixActionsFor(new InvalidInputError('base URL', 'is empty')), [
      { kind: 'openSettings', setting: 'deploymentsExplorer.baseUrl' },
    ]);
    assert.deepEqual(fixActionsFor(new InvalidInputError('API key header', 'is not a header name')), [
      { kind: 'openSettings', setting: 'deploymentsExplorer.apiKeyHeader' },
    ]);
    assert.deepEqual(fixActionsFor(new InvalidInputError('tenant header', 'is not a header name')), [
      { kind: 'openSettings', setting: 'deploymentsExplorer.tenantHeader' },
    ]);
    assert.deepEqual(kinds(new InvalidInputError('API key', 'holds a character that cannot be sent')), ['setApiKey']);
    assert.deepEqual(kinds(new InvalidInputError('tenant ID', 'holds a character that cannot be sent')), ['setTenant']);
    assert.deepEqual(kinds(new InvalidInputError('limit', 'must be 1–100')), []);
  });

  it('opens the CA file setting for an untrusted certificate', () => {
    const error = new NetworkError('https://127.0.0.1:9', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'the TLS certificate is not trusted');
    assert.deepEqual(fixActionsFor(error)[0], { kind: 'openSettings', setting: 'deploymentsExplorer.caFile' });
  });

  it('offers Retry for transient failures and only the log for a contract mismatch or a bug', () => {
    assert.deepEqual(kinds(new TimeoutError(1000)), ['retry', 'checkConnection', 'showLog']);
    assert.deepEqual(kinds(new ServerError(502, undefined)), ['retry', 'showLog']);
    assert.equal(kinds(new NetworkError('http://127.0.0.1:9', 'ECONNREFUSED', 'connection refused'))[0], 'retry');
    assert.deepEqual(kinds(new SchemaError('deployment listing', [{ path: 'resources', message: 'Required' }])), ['showLog']);
    assert.deepEqual(kinds(new TypeError('x is undefined')), ['showLog']);
  });

  it('calls only key, tenant and settings connection fixes', () => {
    const fixes = fixActionsFor(new AuthError(403, undefined)).filter(isConnectionFix).map((action) => action.kind);
    assert.deepEqual(fixes, ['setApiKey', 'setTenant']);
    assert.equal(isConnectionFix({ kind: 'retry' }), false);
    assert.equal(isConnectionFix({ kind: 'showLog' }), false);
  });
});
