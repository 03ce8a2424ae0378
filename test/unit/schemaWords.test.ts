// The problems of a record off the contract, as the schemas word them (src/api/schemas.ts, zod's own
// error customisation): the kind expected and the kind received, never the value.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as l10n from '@vscode/l10n';
import { ControlPlaneClient, resourceSpecProblems } from '../../src/api/client';
import { isErrorOf } from '../../src/api';
import { deploymentSchema, repositorySchema } from '../../src/api/schemas';
import { readCreateArgument } from '../../src/model/createArguments';
import { json, startScriptedServer } from './helpers/scriptedServer';

const INTEGRATION = '0f8e7c8a-3b3d-4d5e-9a59-2f8c1e5b7a10';

/** Each issue of `value` against a schema, as `path: message`. */
function worded(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }, value: unknown): string[] {
  const result = schema.safeParse(value);
  assert.equal(result.success, false, `${JSON.stringify(value)} should not match`);
  return result.error!.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
}

describe('problems of records in our words', () => {
  afterEach(() => l10n.config({ contents: {} }));

  it('name the kind expected and the kind received, each at its path', () => {
    const repository = { host_integration_id: INTEGRATION, id: 1, name: 'n', owner: 'o', url: 'u', default_branch: 'main' };
    assert.deepEqual(worded(repositorySchema, { ...repository, id: 1.5, url: undefined, name: 'hunter2-secret'.length, default_branch: null }), [
      'id: expected a whole number, got a number with a fraction',
      'name: expected a string, got a number',
      'url: expected a string, got nothing',
      'default_branch: expected a string, got null',
    ]);
    assert.deepEqual(worded(repositorySchema, { ...repository, host_integration_id: 'x', id: 2 ** 60 }), [
      'host_integration_id: expected a UUID',
      `id: expected a whole number between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
    ]);
    assert.deepEqual(worded(repositorySchema, ['a']), [': expected an object, got an array']);
    assert.deepEqual(
      worded(deploymentSchema, { secrets: { TOKEN: 'hunter2-secret' }, source_config: { build_on_push: 'yes', resource_spec: { volumes: [{ name: 3 }] } } }),
      [
        'source_config.build_on_push: expected a boolean, got a string',
        'source_config.resource_spec.volumes.0.name: expected a string, got a number',
        'secrets: expected an array, got an object',
      ],
    );
  });

  it('never repeat a value the server sent', () => {
    const messages = worded(deploymentSchema, { id: 'hunter2-secret', name: { value: 'hunter2-secret' }, secrets: [{ name: 'T', value: 12345678 }] });
    assert.ok(messages.length === 3, messages.join('\n'));
    for (const message of messages) assert.ok(!/hunter2|12345678/.test(message), message);
  });

  it('are structured from the client to the views: a path and a message per problem', async () => {
    const server = await startScriptedServer((req, res) =>
      req.method === 'POST'
        ? json(res, 201, { id: 5, name: 'made', secrets: [{ name: 'TOKEN', value: 42 }] })
        : req.url?.startsWith('/v2/')
          ? json(res, 200, { resources: [{ id: 'not-a-uuid', created_at: 1700000000 }, { name: 'ok', source_config: { resource_spec: { cpu: 'two' } } }], offset: 2 })
          : json(res, 200, [{ host_integration_id: INTEGRATION, id: 1, name: 'r', owner: 'o', default_branch: 'main' }]),
    );
    const client = new ControlPlaneClient({ baseUrl: server.url, retry: { maxAttempts: 1 } });
    try {
      const listing = await client.listRepositories(INTEGRATION);
      assert.deepEqual(listing.offContract[0].problems, [{ path: 'url', message: 'expected a string, got nothing' }]);
      assert.equal(listing.offContract[0].reason, 'It does not match the API contract (url: expected a string, got nothing), so it cannot be used to create a deployment.');
      const page = await client.listDeployments({ limit: 2 });
      assert.deepEqual(page.offContract[0].problems, [
        { path: 'id', message: 'expected a UUID' },
        { path: 'created_at', message: 'expected a string, got a number' },
      ]);
      assert.deepEqual(resourceSpecProblems(page.deployments[0]), [{ path: 'source_config.resource_spec.cpu', message: 'expected a number, got a string' }]);
      await assert.rejects(client.createDeployment({ name: 'made' }), (error: unknown) => {
        assert.ok(isErrorOf(error, 'schema'));
        assert.deepEqual(error.problems, [
          { path: 'secrets[0].value', message: 'expected a string, got a number' },
          { path: 'id', message: 'expected a string, got a number' },
        ]);
        assert.equal(error.message, 'The created deployment does not match the API contract:\nsecrets[0].value: expected a string, got a number\nid: expected a string, got a number');
        return true;
      });
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('word a repository record given to Create Deployment…', () => {
    assert.throws(
      () => readCreateArgument({ repository: { host_integration_id: 'x', id: '1', name: 'n', owner: 'o', url: 'u' } }),
      (error: unknown) =>
        (error as Error).message ===
        'Create Deployment… was given a repository record that is not usable: host_integration_id: expected a UUID; id: expected a whole number, got a string; default_branch: expected a string, got nothing',
    );
  });
});
