// The API client's and the model's messages go through t(): English with placeholders filled until the
// extension installs vscode.l10n.t as the translator, then whatever that answers.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isErrorOf } from '../../src/api';
import { ControlPlaneClient, resourceSpecProblems } from '../../src/api/client';
import * as l10n from '@vscode/l10n';
import fs from 'node:fs';
import path from 'node:path';
import { StandIn } from '../server/standIn';
import { json, startScriptedServer } from './helpers/scriptedServer';

/**
 * A stand-in for a translation: every message of the committed bundle (l10n/bundle.l10n.json, which
 * lint holds equal to what `npm run l10n` collects from src/) translated as itself in «…», given to
 * @vscode/l10n as extension.ts gives it VS Code's bundle. A message missing from the bundle stays
 * English, so the tests below also show that the client's texts are collected.
 */
function guillemets(): void {
  const english = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
  l10n.config({ contents: Object.fromEntries(Object.keys(english).map((key) => [key, `«${key}»`])) });
}

const english = () => l10n.config({ contents: {} });

describe('API client messages with a bundle configured', () => {
  afterEach(english);

  it('translates a 404 from the stand-in, the integration and the server detail filled in', async () => {
    const standIn = await StandIn.start();
    const client = new ControlPlaneClient({ baseUrl: standIn.url, apiKey: standIn.apiKey ?? undefined });
    try {
      guillemets();
      const unknown = '00000000-0000-4000-8000-000000000000';
      await assert.rejects(client.listRepositories(unknown), (error: unknown) => {
        assert.ok(isErrorOf(error, 'notFound'));
        assert.equal(error.message, `««Integration ${unknown}» was not found (HTTP 404): Integration ${unknown} not found»`);
        return true;
      });
    } finally {
      await client.dispose();
      await standIn.close();
    }
  });

  it('translates a refusal that echoes the key: the key stays out of the message', async () => {
    const apiKey = 'sk-live-0123456789abcdefghij';
    const server = await startScriptedServer((req, res) => json(res, 401, { detail: `Unknown API key ${String(req.headers['x-api-key'])}` }));
    const client = new ControlPlaneClient({ baseUrl: server.url, apiKey, retry: { maxAttempts: 1 } });
    try {
      guillemets();
      await assert.rejects(client.listDeployments({ limit: 5 }), (error: unknown) => {
        assert.ok(isErrorOf(error, 'auth'));
        assert.equal(error.message, '«Not authenticated (HTTP 401): Unknown API key [redacted]»');
        return true;
      });
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('translates the tables built per call: network reasons, setting names', async () => {
    // Built once in English first, as a module-level table would be before activation.
    assert.throws(() => new ControlPlaneClient({ baseUrl: 'not a url' }), /^ControlPlaneError: Invalid base URL: /);
    const closed = await startScriptedServer((_req, res) => res.end());
    await closed.close();
    guillemets();
    assert.throws(
      () => new ControlPlaneClient({ baseUrl: 'not a url' }),
      (error: unknown) =>
        isErrorOf(error, 'invalidInput') &&
        error.parameter === 'base URL' &&
        error.message === '«Invalid «base URL»: «“not a url” is not a URL (expected e.g. https://api.example.com)»»',
    );
    const client = new ControlPlaneClient({ baseUrl: closed.url, retry: { maxAttempts: 1 } });
    try {
      await assert.rejects(client.listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'network'));
        assert.equal(
          error.message,
          `«Cannot reach the control plane at ${closed.url}: «the connection was refused; is the server running and the base URL right?» (ECONNREFUSED).»`,
        );
        return true;
      });
    } finally {
      await client.dispose();
    }
  });

  it('words the problems of off-contract records from the stand-in, field paths as they are', async () => {
    const standIn = await StandIn.start();
    const client = new ControlPlaneClient({ baseUrl: standIn.url, apiKey: standIn.apiKey ?? undefined });
    try {
      const [odd, deep] = standIn.deployments;
      Object.assign(odd, { id: 'not-a-uuid', created_at: 1700000000 });
      Object.assign(deep, { source_config: { ...deep.source_config, resource_spec: { cpu: 'two', min_scale: 1.5, sidecars: {} } } });
      guillemets();
      const page = await client.listDeployments({ limit: 5 });
      assert.equal(page.offContract.length, 1);
      assert.equal(page.offContract[0].index, 0);
      assert.deepEqual(page.offContract[0].problems, [{ path: 'id', message: '«expected a UUID»' }, { path: 'created_at', message: '«expected «a string», got «a number»»' }]);
      // resource_spec, checked in full when it is shown.
      assert.deepEqual(resourceSpecProblems(page.deployments[0]), [
        { path: 'source_config.resource_spec.min_scale', message: '«expected «a whole number», got «a number with a fraction»»' },
        { path: 'source_config.resource_spec.cpu', message: '«expected «a number», got «a string»»' },
        { path: 'source_config.resource_spec.sidecars', message: '«expected «an array», got «an object»»' },
      ]);
    } finally {
      await client.dispose();
      await standIn.close();
    }
  });

  it('words an off-contract repository and created deployment from a scripted server', async () => {
    const integration = '0f8e7c8a-3b3d-4d5e-9a59-2f8c1e5b7a10';
    const server = await startScriptedServer((req, res) =>
      req.method === 'POST'
        ? json(res, 201, { id: 5, name: 'made', secrets: [{ name: 'TOKEN', value: 42 }] })
        : json(res, 200, [{ host_integration_id: integration, id: 1, name: 'r', owner: 'o', default_branch: 'main' }]),
    );
    const client = new ControlPlaneClient({ baseUrl: server.url, retry: { maxAttempts: 1 } });
    try {
      guillemets();
      const listing = await client.listRepositories(integration);
      assert.deepEqual(listing.offContract[0].problems, [{ path: 'url', message: '«expected «a string», got «nothing»»' }]);
      assert.equal(
        listing.offContract[0].reason,
        '«It does not match the API contract (url: «expected «a string», got «nothing»»), so it cannot be used to create a deployment.»',
      );
      await assert.rejects(client.createDeployment({ name: 'made' }), (error: unknown) => {
        assert.ok(isErrorOf(error, 'schema'));
        // In the schema's order of fields.
        assert.deepEqual(error.problems, [{ path: 'secrets[0].value', message: '«expected «a string», got «a number»»' }, { path: 'id', message: '«expected «a string», got «a number»»' }]);
        assert.ok(!error.message.includes('42'), error.message);
        return true;
      });
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('is English again with an empty bundle', () => {
    guillemets();
    english();
    assert.throws(() => new ControlPlaneClient({ baseUrl: '' }), (error: unknown) => (error as Error).message === 'Invalid base URL: no base URL is set');
  });
});
