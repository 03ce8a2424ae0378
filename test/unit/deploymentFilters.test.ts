import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDeploymentSearchParams } from '../../src/api';
import { describeFilters, DeploymentFilterStore, FILTERS_STATE_KEY, filterValueText, normalizeFilters } from '../../src/model/deploymentFilters';

class MemoryState {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
}

const ID = '3f2a9c1e-1111-4222-8333-444455556666';

describe('deployment filters', () => {
  it('describes active filters for the view description', () => {
    assert.equal(describeFilters({}), '');
    assert.equal(describeFilters({ status: 'READY', deploymentType: 'prod' }), 'status: READY · type: prod');
    assert.equal(
      describeFilters({ nameContains: 'api', remoteReconciled: false, imageVersion: '0.3.2', tagValueIds: ['a', 'b'], deploymentIds: [ID] }),
      `name: api · image: 0.3.2 · reconciled: no · tags: 2 selected · IDs: ${ID}`,
    );
  });

  it('shows each value for the quick pick', () => {
    assert.equal(filterValueText({}, 'status'), 'any');
    assert.equal(filterValueText({ remoteReconciled: true }, 'remoteReconciled'), 'yes');
    assert.equal(filterValueText({ tagValueIds: ['a', 'b'] }, 'tagValueIds'), 'a, b');
  });

  it('drops malformed stored values instead of failing', () => {
    assert.deepEqual(
      normalizeFilters({ status: '  ', nameContains: ' x ', deploymentType: 'huge', deploymentIds: ['nope'], remoteReconciled: 'yes', imageVersion: 3 }),
      { nameContains: 'x' },
    );
    assert.deepEqual(normalizeFilters('garbage'), {});
  });

  it('refuses a bad deployment ID naming it', async () => {
    const store = new DeploymentFilterStore(new MemoryState());
    await assert.rejects(store.update({ deploymentIds: [ID, 'not-a-uuid'] }), /not-a-uuid/);
    assert.deepEqual(store.filters, {});
  });

  it('persists in workspace state and survives re-creating the store', async () => {
    const state = new MemoryState();
    const store = new DeploymentFilterStore(state);
    let fired = 0;
    store.onDidChange(() => fired++);
    await store.update({ status: 'READY', deploymentType: 'prod', tagValueIds: ['t1'] });
    await store.update({ status: undefined, remoteReconciled: false });
    assert.equal(fired, 2);
    const reloaded = new DeploymentFilterStore(state);
    assert.deepEqual(reloaded.filters, { remoteReconciled: false, deploymentType: 'prod', tagValueIds: ['t1'] });
    assert.equal(reloaded.active, true);
    await reloaded.clear();
    assert.equal(state.data.has(FILTERS_STATE_KEY), false);
    assert.equal(new DeploymentFilterStore(state).active, false);
  });

  it('produces filters the client turns into every query parameter', () => {
    const filters = normalizeFilters({
      nameContains: 'api', status: 'READY', deploymentType: 'dev', imageVersion: '0.3.0', remoteReconciled: true, tagValueIds: ['t1', 't2'], deploymentIds: [ID],
    });
    const params = buildDeploymentSearchParams({ ...filters, limit: 5, offset: 0 });
    assert.equal(params.get('name_contains'), 'api');
    assert.equal(params.get('status'), 'READY');
    assert.equal(params.get('deployment_type'), 'dev');
    assert.equal(params.get('image_version'), '0.3.0');
    assert.equal(params.get('remote_reconciled'), 'true');
    assert.equal(params.get('tag_value_ids'), 't1,t2');
    assert.equal(params.get('deployment_ids'), ID);
  });
});
