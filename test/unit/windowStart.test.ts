// A window start against the stand-in sends exactly one request: the first page of the Deployments
// view. The Integrations view shows its integrations without a request (repositories load when one
// is expanded), and the integrations the first page uses appear as discovered for free.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StandIn } from '../server/standIn';
import { simulateWindowStart, WindowStart } from './helpers/windowStart';

describe('window start', () => {
  let standIn: StandIn;
  let start: WindowStart | undefined;

  before(async () => {
    standIn = await StandIn.start();
  });
  after(async () => {
    start?.dispose();
    await standIn.close();
  });

  it('sends exactly the first page of the visible view, with discovery at its defaults', async () => {
    start = await simulateWindowStart(standIn);
    // The stand-in's own request log.
    const log = start.requests.map((request) => `${request.method} ${request.path}?${new URLSearchParams(request.query).toString()}`);
    assert.deepEqual(log, ['GET /v2/deployments?limit=20&offset=0']);

    const deploymentRows = start.rows.get('deploymentsExplorer.deployments') ?? [];
    assert.equal(deploymentRows.filter((row) => (row as { kind: string }).kind === 'deployment').length, 20);
    const firstPageIntegrations = new Set(
      standIn.deployments.slice(0, 20).map((d) => d.source_config?.integration_id?.toLowerCase()).filter(Boolean),
    );
    const integrationRows = (start.rows.get('deploymentsExplorer.integrations') ?? []) as Array<{ integration: { id: string; origin: string } }>;
    for (const id of firstPageIntegrations) {
      assert.ok(
        integrationRows.some((row) => row.integration.id === id && row.integration.origin === 'discovered'),
        `${id} is shown as discovered`,
      );
    }
  });
});
