import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { webConsoleUrl } from '../../src/model/deploymentPresentation';

const deployment = { id: '0b5e…'.replace('…', '-1'), tenant_id: 't 1', name: 'storefront/prod' };

describe('webConsoleUrl', () => {
  it('fills {id}, {tenant_id} and {name}, URL-encoded', () => {
    assert.deepEqual(webConsoleUrl('https://console.example.com/{tenant_id}/deployments/{id}?n={name}', deployment), {
      url: 'https://console.example.com/t%201/deployments/0b5e-1?n=storefront%2Fprod',
    });
  });

  it('names the field a record lacks', () => {
    assert.deepEqual(webConsoleUrl('https://c.example.com/{tenant_id}/{id}', { id: 'x' }), {
      problem: 'This deployment has no tenant_id for the web console URL.',
    });
  });

  it('refuses templates that do not make an http(s) address', () => {
    assert.match((webConsoleUrl('console/{id}', deployment) as { problem: string }).problem, /does not make an address/);
    assert.match((webConsoleUrl('javascript:alert({id})', deployment) as { problem: string }).problem, /http:\/\/ or https:\/\//);
  });
});
