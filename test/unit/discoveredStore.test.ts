import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { DiscoveredSnapshot, RepositoryCatalog } from '../../src/model/repositoryCatalog';
import { integrationsUsedBy } from '../../src/model/integrationDiscovery';
import { discoveryAgeText } from '../../src/model/integrationPresentation';
import type { Deployment } from '../../src/api';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

/** A catalog over an in-memory store keyed like the platform's (one entry per connection). */
function catalogFor(store: Map<string, DiscoveredSnapshot>, connection: { key: string }) {
  return new RepositoryCatalog({
    client: () => Promise.reject(new Error('no requests in this test')),
    addedIntegrations: () => [],
    discoveredStore: {
      load: () => store.get(connection.key),
      save: (snapshot) => void store.set(connection.key, snapshot),
    },
  });
}

describe('discovered integrations per connection', () => {
  beforeEach(() => mock.timers.enable({ apis: ['Date'], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  it('are collected from loaded deployments, kept with their age, and read back per connection', () => {
    const store = new Map<string, DiscoveredSnapshot>();
    const connection = { key: 'https://one|' };
    const deployments: Deployment[] = [
      { id: '1', source_config: { integration_id: A.toUpperCase(), repo_url: 'https://github.com/o/r' } },
      { id: '2', source_config: { integration_id: 'not-a-uuid' } },
      { id: '3' },
    ];
    const used = integrationsUsedBy(deployments);
    assert.deepEqual(used, { integrationIds: [A], codeHosts: { [A]: 'github.com' } });

    const catalog = catalogFor(store, connection);
    assert.equal(catalog.addDiscovered(used.integrationIds, used.codeHosts), 1);
    assert.deepEqual(catalog.discoveryAge(), { refreshedAt: 1_000_000, scannedAt: undefined });
    assert.deepEqual(store.get('https://one|')?.ids, [A]);

    // A new window: the same connection shows what was found, without a request.
    const later = catalogFor(store, connection);
    assert.deepEqual(later.integrations().map((entry) => entry.id), [A]);
    assert.equal(later.facts(A).codeHost, 'github.com');

    // A full scan records its time even when it finds nothing new.
    mock.timers.tick(1_000_000);
    assert.equal(later.addDiscovered([A], {}, { scan: true }), 0);
    assert.deepEqual(later.discoveryAge(), { refreshedAt: 2_000_000, scannedAt: 2_000_000 });
    mock.timers.tick(5 * 60_000);
    assert.match(discoveryAgeText(later.discoveryAge()), /last refreshed 5 minutes ago; last full scan 5 minutes ago/);

    // Another connection has its own list.
    connection.key = 'https://two|tenant';
    assert.deepEqual(later.integrations(), []);
    later.addDiscovered([B]);
    assert.deepEqual(store.get('https://two|tenant')?.ids, [B]);
    assert.deepEqual(store.get('https://one|')?.ids, [A]);
  });

  it('reads the other connection’s integrations as soon as the store answers for it, without being told', () => {
    const store = new Map<string, DiscoveredSnapshot>([
      ['https://one|', { ids: [A], hosts: {} }],
      ['https://two|', { ids: [], hosts: {} }],
    ]);
    const connection = { key: 'https://one|' };
    const catalog = catalogFor(store, connection);
    assert.deepEqual(catalog.integrations().map((i) => i.id), [A.toLowerCase()]);
    connection.key = 'https://two|';
    assert.deepEqual(catalog.integrations(), [], 'nothing of the first connection shows for the second');
  });
});
