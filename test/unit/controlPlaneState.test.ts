// State that belongs to a control plane (deployment filters, watched deployments, discovered integrations),
// through ConnectionManager.scoped() over the fake vscode module: kept per base URL and tenant, read again
// when the connection changes, and the filters 0.1.0 kept given to the control plane they were used with.
import { extensionContext, resetFake, workspace } from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConnectionManager } from '../../src/platform/connection';
import { ProfileStore } from '../../src/platform/profileStore';
import { DeploymentFilterStore, FILTERS_STATE_KEY } from '../../src/model/deploymentFilters';

type Context = ReturnType<typeof extensionContext>;
const log = { info: () => undefined, warn: () => undefined, error: () => undefined };

function connect(context: Context): ConnectionManager {
  return new ConnectionManager(context as never, new ProfileStore(context as never, log as never), log as never);
}

/** Changes a setting as the Settings editor would, and waits until the connection announces it. */
async function change(connection: ConnectionManager, name: string, value: unknown): Promise<void> {
  const announced = new Promise<void>((resolve) => {
    const subscription = connection.onDidChange(() => {
      subscription.dispose();
      resolve();
    });
  });
  workspace.set(`deploymentsExplorer.${name}`, value);
  await announced;
}

describe('state that belongs to a control plane', () => {
  it('is kept per base URL and tenant, however they are written, and read again when the connection changes', async () => {
    resetFake();
    workspace.set('deploymentsExplorer.baseUrl', 'https://eu.example.com');
    const context = extensionContext();
    const connection = connect(context);
    const filters = new DeploymentFilterStore(connection.scoped(context.workspaceState));
    await filters.update({ status: 'READY' });

    await change(connection, 'baseUrl', 'https://us.example.com');
    filters.reload();
    assert.deepEqual(filters.filters, {});
    await filters.update({ nameContains: 'api' });

    await change(connection, 'tenantId', '0b0b0b0b-1c1c-4d4d-8e8e-2f2f2f2f2f2f');
    filters.reload();
    assert.deepEqual(filters.filters, {}, 'another tenant is another control plane');

    await change(connection, 'tenantId', undefined);
    await change(connection, 'baseUrl', 'HTTPS://EU.example.com/');
    filters.reload();
    assert.deepEqual(filters.filters, { status: 'READY' });
    await change(connection, 'baseUrl', 'https://us.example.com');
    filters.reload();
    assert.deepEqual(filters.filters, { nameContains: 'api' });
    connection.dispose();
  });

  it('names the new control plane the moment a setting changes, so two quick changes end on the last one', async () => {
    resetFake();
    workspace.set('deploymentsExplorer.baseUrl', 'https://eu.example.com');
    const context = extensionContext();
    const connection = connect(context);
    const announced: string[] = [];
    connection.onDidChange(() => announced.push(connection.controlPlane()));

    workspace.set('deploymentsExplorer.baseUrl', 'https://us.example.com');
    assert.equal(connection.controlPlane(), 'https://us.example.com|', 'a view that asks right away gets the new control plane');
    workspace.set('deploymentsExplorer.baseUrl', 'https://eu.example.com');
    // Announced as the setting changes, not later: nothing to wait for.
    assert.deepEqual(announced, ['https://us.example.com|', 'https://eu.example.com|'], 'announced in order, each naming its own');
    assert.equal(connection.controlPlane(), 'https://eu.example.com|');
    assert.equal((await connection.resolve()).effective.baseUrl, 'https://eu.example.com');
    connection.dispose();
  });

  it('gives the filters 0.1.0 kept in a workspace to the control plane it pointed at, and to no other', async () => {
    resetFake();
    workspace.set('deploymentsExplorer.baseUrl', 'https://eu.example.com');
    const context = extensionContext();
    await context.workspaceState.update(FILTERS_STATE_KEY, { status: 'READY', imageVersion: '0.3.2' });
    const connection = connect(context);
    const filters = new DeploymentFilterStore(connection.scoped(context.workspaceState));
    assert.deepEqual(filters.filters, { status: 'READY', imageVersion: '0.3.2' });

    await change(connection, 'baseUrl', 'https://us.example.com');
    filters.reload();
    assert.deepEqual(filters.filters, {});
    connection.dispose();

    // The next window starts on the other control plane: 0.1.0's filters stay with the first.
    const next = connect(context);
    assert.deepEqual(new DeploymentFilterStore(next.scoped(context.workspaceState)).filters, {});
    await change(next, 'baseUrl', 'https://eu.example.com');
    assert.deepEqual(new DeploymentFilterStore(next.scoped(context.workspaceState)).filters, { status: 'READY', imageVersion: '0.3.2' });
    next.dispose();
  });
  it('drops the state of a control plane once the profile that pointed at it is removed, and only then', async () => {
    resetFake();
    workspace.set('deploymentsExplorer.profiles', [
      { id: 'eu', name: 'EU', baseUrl: 'https://eu.example.com' },
      { id: 'us', name: 'US', baseUrl: 'https://us.example.com' },
    ]);
    const context = extensionContext();
    const kept = { 'https://eu.example.com|': { status: 'READY' }, 'https://us.example.com|': { nameContains: 'api' } };
    await context.workspaceState.update(FILTERS_STATE_KEY, kept);
    const connection = connect(context);
    const filters = new DeploymentFilterStore(connection.scoped(context.workspaceState));
    assert.deepEqual(filters.filters, { status: 'READY' });

    await change(connection, 'profiles', [
      { id: 'eu', name: 'EU (renamed)', baseUrl: 'https://eu.example.com' },
      { id: 'us', name: 'US', baseUrl: 'https://us.example.com' },
    ]);
    assert.deepEqual(context.workspaceState.get(FILTERS_STATE_KEY), kept, 'no profile removed: everything stays');

    await change(connection, 'profiles', [{ id: 'eu', name: 'EU', baseUrl: 'https://eu.example.com' }]);
    assert.deepEqual(context.workspaceState.get(FILTERS_STATE_KEY), { 'https://eu.example.com|': { status: 'READY' } });
    connection.dispose();
  });
});
