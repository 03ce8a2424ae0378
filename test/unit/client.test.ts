import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ConnectionOptions, isErrorOf } from '../../src/api';
import { ControlPlaneClient, resourceSpecProblems } from '../../src/api/client';
import { StandIn } from '../server/standIn';
import { json, startScriptedServer } from './helpers/scriptedServer';

const fast = { maxAttempts: 3, baseDelayMs: 5, maxRetryAfterMs: 2000 };

describe('ControlPlaneClient against the stand-in', () => {
  let standIn: StandIn;
  const clients: ControlPlaneClient[] = [];
  /**
   * Resolves once `count` requests have reached the stand-in (recorded on arrival, before any fault holds them). A
   * request of an earlier test that ends late is not among them (reset() empties the list); nextRequest's callers
   * tell them apart the same way.
   */
  const arrived = async (count: number) => {
    while (standIn.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const clientFor = (options: Partial<ConnectionOptions> = {}) => {
    const client = new ControlPlaneClient({
      baseUrl: standIn.url,
      apiKey: standIn.apiKey ?? undefined,
      retry: fast,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const lastQuery = () => standIn.requests[standIn.requests.length - 1].query;

  before(async () => {
    standIn = await StandIn.start();
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await standIn.close();
  });
  beforeEach(() => standIn.reset());

  describe('repositories', () => {
    it('lists every repository of an integration with all six fields', async () => {
      const integration = standIn.integrations.find((entry) => entry.repositories.length > 10)!;
      const { repositories, offContract: invalid } = await clientFor().listRepositories(integration.id);
      assert.equal(invalid.length, 0);
      assert.equal(repositories.length, integration.repositories.length);
      for (const key of ['host_integration_id', 'id', 'name', 'owner', 'url', 'default_branch']) {
        assert.ok(key in repositories[0], `missing ${key}`);
      }
      assert.equal(repositories[0].host_integration_id, integration.id);
      assert.equal(standIn.requests[0].path, `/v1/integrations/forge/codehost/${integration.id}/repos`);
    });

    it('refuses an integration ID that is not a UUID before any request', async () => {
      await assert.rejects(clientFor().listRepositories('acme'), (error: unknown) => {
        assert.ok(isErrorOf(error, 'invalidInput'));
        assert.equal(error.parameter, 'integration_id');
        assert.match(error.message, /“acme” is not a UUID/);
        return true;
      });
      assert.equal(standIn.requests.length, 0);
    });

    it('refuses a header name, a key or a tenant that HTTP cannot carry, naming which, before any request', () => {
      for (const [options, parameter, message] of [
        [{ apiKeyHeader: 'X Api Key' }, 'API key header', /^Invalid API key header: “X Api Key” is not an HTTP header name/],
        [{ tenantHeader: 'X-Tenant-Id:' }, 'tenant header', /^Invalid tenant header: “X-Tenant-Id:” is not an HTTP header name/],
        [{ apiKeyHeader: 'Authorization', tenantHeader: 'authorization' }, 'tenant header', /^Invalid tenant header: “authorization” is the API key’s header too/],
        [{ apiKey: 'sk-copied\u200b-key' }, 'API key', /^Invalid API key: it holds a character that cannot be sent in an HTTP header \(U\+200B\)/],
        [{ tenantId: 'тенант' }, 'tenant ID', /^Invalid tenant ID: .*\(U\+0442\)/],
      ] as const) {
        assert.throws(
          () => clientFor(options),
          (error: unknown) =>
            isErrorOf(error, 'invalidInput') && error.parameter === parameter && message.test(error.message) && !error.message.includes('sk-copied'),
        );
      }
      assert.equal(standIn.requests.length, 0);
    });

    it('reports an unknown integration as not found with the server detail', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      await assert.rejects(clientFor().listRepositories(unknown), (error: unknown) => {
        assert.ok(isErrorOf(error, 'notFound'));
        assert.equal(error.status, 404);
        assert.match(error.message, /not found/i);
        assert.match(error.message, new RegExp(unknown));
        return true;
      });
    });
  });

  describe('deployment query', () => {
    it('sends every filter as the contract names it', async () => {
      const sample = standIn.deployments.find((d) => d.status && d.image_version && d.id)!;
      await clientFor().listDeployments({
        limit: 7,
        offset: 3,
        nameContains: 'api',
        status: 'READY',
        remoteReconciled: false,
        tagValueIds: ['tag-a', 'tag-b'],
        imageVersion: '0.3.0',
        deploymentType: 'prod',
        deploymentIds: [sample.id!, '6f1c1a52-0d7e-4a55-9b0e-3b2f7c1d9e10'],
      });
      assert.deepEqual(lastQuery(), {
        limit: '7',
        offset: '3',
        name_contains: 'api',
        status: 'READY',
        remote_reconciled: 'false',
        tag_value_ids: 'tag-a,tag-b',
        image_version: '0.3.0',
        deployment_type: 'prod',
        deployment_ids: `${sample.id},6f1c1a52-0d7e-4a55-9b0e-3b2f7c1d9e10`,
      });
    });

    it('omits empty filters and applies the defaults', async () => {
      await clientFor().listDeployments({ nameContains: '  ', status: '', tagValueIds: [], deploymentIds: [] });
      assert.deepEqual(lastQuery(), { limit: '20', offset: '0' });
    });

    it('gets the rows the server filtered', async () => {
      const page = await clientFor().listDeployments({ status: 'READY', deploymentType: 'prod', limit: 100 });
      assert.ok(page.deployments.length > 0);
      for (const deployment of page.deployments) {
        assert.equal(deployment.status, 'READY');
        assert.equal(deployment.deployment_type, 'prod');
      }
    });
  });

  describe('pagination', () => {
    it('walks every page with the response offset and stops on the short last page', async () => {
      const expected = standIn.deployments.filter((d) => d.status === 'UNUSED' && d.deployment_type === 'dev').length;
      assert.ok(expected > 10, 'sample data has enough rows');
      const seen: string[] = [];
      let pages = 0;
      for await (const page of clientFor().deploymentPages({ status: 'UNUSED', deploymentType: 'dev', limit: 10 })) {
        pages++;
        seen.push(...page.deployments.map((d) => d.id!));
      }
      assert.equal(seen.length, expected);
      assert.equal(new Set(seen).size, expected, 'no row twice');
      assert.equal(pages, Math.ceil((expected + 1) / 10), 'stops at the short page, or after one empty page when the count divides');
      const offsets = standIn.requests.map((request) => Number(request.query.offset));
      assert.deepEqual(offsets, offsets.map((_, index) => index * 10));
    });

    it('stops when the response offset is the one requested (a cycle) instead of looping', async () => {
      standIn.addFault({ fault: { kind: 'stuckOffset' }, pathPrefix: '/v2/deployments' });
      let pages = 0;
      for await (const page of clientFor().deploymentPages({ limit: 5 })) {
        pages++;
        assert.equal(page.mayHaveMore, false);
        assert.equal(page.end, 'cycle');
        if (pages > 3) break;
      }
      assert.equal(pages, 1);
      assert.equal(standIn.requests.length, 1);
    });

    it('stops on an empty page', async () => {
      const page = await clientFor().listDeployments({ nameContains: 'no-such-deployment-name-xyz' });
      assert.equal(page.deployments.length, 0);
      assert.equal(page.mayHaveMore, false);
      assert.equal(page.end, 'empty');
    });
  });

  describe('creating', () => {
    it('posts the body and answers the created record, which later listings show', async () => {
      const integration = standIn.integrations[0];
      const repository = integration.repositories[0];
      const created = await clientFor().createDeployment({
        name: 'unit-test-create',
        source_config: { integration_id: integration.id, repo_url: repository.url },
        source_revision_config: { repo_ref: repository.default_branch },
      });
      assert.equal(created.name, 'unit-test-create');
      assert.ok(created.id);
      const page = await clientFor().listDeployments({ deploymentIds: [created.id!] });
      assert.equal(page.deployments[0]?.name, 'unit-test-create');
    });

    it('renders each 422 reason as loc: msg', async () => {
      await assert.rejects(
        clientFor().createDeployment({ name: 'Bad Name!', source_config: {}, source_revision_config: {} }),
        (error: unknown) => {
          assert.ok(isErrorOf(error, 'validation'));
          assert.equal(error.status, 422);
          assert.ok(error.issues?.some((issue) => issue.loc === 'body.name'));
          assert.match(error.message, /^body\.name: /m);
          assert.match(error.message, /^body\.source_config\.integration_id: /m);
          return true;
        },
      );
    });

    it('never retries the POST', async () => {
      standIn.addFault({ fault: { kind: 'status', status: 503 }, method: 'POST' });
      await assert.rejects(clientFor().createDeployment({ name: 'x' }), (error: unknown) => isErrorOf(error, 'server'));
      assert.equal(standIn.requests.filter((request) => request.method === 'POST').length, 1);
    });
  });

  describe('errors and retries', () => {
    it('reports a missing key as 401 and a wrong key as 403, with the server detail', async () => {
      await assert.rejects(clientFor({ apiKey: undefined }).listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'auth'));
        assert.equal(error.status, 401);
        assert.match(error.message, /Missing API key/);
        return true;
      });
      await assert.rejects(clientFor({ apiKey: 'wrong-key-1234' }).listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'auth'));
        assert.equal(error.status, 403);
        assert.equal(error.needsTenant, false);
        assert.doesNotMatch(error.message, /wrong-key-1234/);
        return true;
      });
    });

    it('keeps the tenant hint of a 403 and sends the tenant header once set', async () => {
      const tenantStandIn = await StandIn.start({ requireTenant: 'tenant-1' });
      try {
        const base = { baseUrl: tenantStandIn.url, apiKey: tenantStandIn.apiKey!, retry: fast };
        const without = new ControlPlaneClient(base);
        await assert.rejects(without.listDeployments(), (error: unknown) => {
          assert.ok(isErrorOf(error, 'auth'));
          assert.equal(error.needsTenant, true);
          assert.match(error.message, /workspace/i);
          return true;
        });
        const withTenant = new ControlPlaneClient({ ...base, tenantId: 'tenant-1', tenantHeader: 'X-Tenant-Id' });
        const page = await withTenant.listDeployments({ limit: 1 });
        assert.equal(page.deployments.length, 1);
        await Promise.all([without.dispose(), withTenant.dispose()]);
      } finally {
        await tenantStandIn.close();
      }
    });

    it('retries 503 and succeeds on the third try', async () => {
      standIn.addFault({ fault: { kind: 'status', status: 503 }, times: 2 });
      const page = await clientFor().listDeployments({ limit: 2 });
      assert.equal(page.deployments.length, 2);
      assert.equal(standIn.requests.length, 3);
    });

    it('gives up after three tries of a 502 with a server error', async () => {
      standIn.addFault({ fault: { kind: 'status', status: 502, body: '{"detail":"upstream down"}' } });
      await assert.rejects(clientFor().listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'server'));
        assert.equal(error.status, 502);
        assert.equal(error.message, 'The control plane failed (HTTP 502): upstream down. Try again later.', 'the server text ends its sentence');
        return true;
      });
      assert.equal(standIn.requests.length, 3);
    });

    it('does not retry a 500', async () => {
      standIn.addFault({ fault: { kind: 'status', status: 500 } });
      await assert.rejects(clientFor().listDeployments(), (error: unknown) => isErrorOf(error, 'server'));
      assert.equal(standIn.requests.length, 1);
    });

    it('honours Retry-After of a 429', async () => {
      standIn.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 1 }, times: 1 });
      const started = Date.now();
      await clientFor().listDeployments({ limit: 1 });
      assert.ok(Date.now() - started >= 900, 'waited for Retry-After');
      assert.equal(standIn.requests.length, 2);
    });

    it('does not wait for a Retry-After beyond the cap', async () => {
      standIn.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 120 } });
      await assert.rejects(clientFor().listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'rateLimited'));
        assert.equal(error.retryAfterMs, 120_000);
        assert.match(error.message, /wait 120 s/);
        return true;
      });
      assert.equal(standIn.requests.length, 1);
    });

    it('retries a connection reset, then reports it', async () => {
      standIn.addFault({ fault: { kind: 'reset' } });
      await assert.rejects(clientFor().listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'network'));
        assert.match(error.message, /Cannot reach the control plane/);
        return true;
      });
      assert.equal(standIn.requests.length, 3);
    });

    it('explains an HTML page where a listing was expected, having tried the base URL with /api-host once', async () => {
      standIn.addFault({ fault: { kind: 'nonJson' } });
      await assert.rejects(clientFor().listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'invalidResponse'));
        assert.match(error.message, /^http:\/\/127\.0\.0\.1:\d+ served a web page, not the control-plane API \(HTTP 200, text\/html; charset=utf-8: “Sign in - Corporate Access”\)\./);
        assert.match(error.message, /but http:\/\/127\.0\.0\.1:\d+\/api-host did not answer the API either\. Check the base URL\.$/);
        assert.doesNotMatch(error.message, /<html|<body/i);
        return true;
      });
    });

    it('names the base URL with /api-host when that answers the API (a self-hosted control plane)', async () => {
      const selfHosted = await StandIn.start({ apiKey: standIn.apiKey, apiPrefix: '/api-host' });
      const client = new ControlPlaneClient({ baseUrl: selfHosted.url, apiKey: standIn.apiKey! });
      try {
        const error = await client.listDeployments().then(() => undefined, (caught: unknown) => caught);
        assert.ok(isErrorOf(error, 'invalidResponse'), String(error));
        assert.deepEqual(error.webPage, { baseUrl: selfHosted.url, suggestion: `${selfHosted.url}/api-host`, answers: true });
        assert.match(error.message, /A self-hosted control plane serves its API under a path prefix: http:\/\/127\.0\.0\.1:\d+\/api-host answers the API\. Set it as the base URL\.$/);
        assert.deepEqual(selfHosted.requests.map((request) => request.path), ['/v2/deployments', '/v2/deployments'], 'the listing, then one probe (recorded without the prefix)');
        assert.equal((await new ControlPlaneClient({ baseUrl: `${selfHosted.url}/api-host`, apiKey: standIn.apiKey! }).listDeployments({ limit: 1 })).deployments.length, 1);
      } finally {
        await client.dispose();
        await selfHosted.close();
      }
    });

    it('times out a request that never answers', async () => {
      standIn.addFault({ fault: { kind: 'hang' } });
      await assert.rejects(clientFor({ timeoutMs: 300 }).listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'timeout'));
        assert.match(error.message, /did not answer within 0.3 s/);
        return true;
      });
    });

    it('cancels mid-request through the AbortSignal', async () => {
      standIn.addFault({ fault: { kind: 'hang' } });
      const controller = new AbortController();
      // Aborted once the request is at the server (held there by the hang), not after a guessed delay.
      void arrived(1).then(() => controller.abort());
      await assert.rejects(clientFor().listDeployments({}, { signal: controller.signal }), (error: unknown) => isErrorOf(error, 'cancelled'));
    });

    it('cancels a retry wait', async () => {
      standIn.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 2 } });
      const controller = new AbortController();
      // Aborted once the 429 is answered: the client is then waiting (2 s) to try again.
      void standIn.nextRequest((r) => standIn.requests.includes(r)).then(() => controller.abort());
      await assert.rejects(clientFor().listDeployments({}, { signal: controller.signal }), (error: unknown) => isErrorOf(error, 'cancelled'));
      assert.equal(standIn.requests.length, 1);
    });

    it('cancels every call of a client whose connection signal aborts: in flight, in a retry wait and after', async () => {
      const connection = new AbortController();
      const client = clientFor({ signal: connection.signal });
      standIn.addFault({ fault: { kind: 'hang' }, times: 1 });
      void arrived(1).then(() => connection.abort());
      await assert.rejects(client.listDeployments(), (error: unknown) => isErrorOf(error, 'cancelled'));
      await assert.rejects(client.listDeployments(), (error: unknown) => isErrorOf(error, 'cancelled'));
      assert.equal(standIn.requests.length, 1, 'nothing is sent once the connection is cancelled');

      const waiting = new AbortController();
      standIn.reset();
      standIn.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 2 } });
      void standIn.nextRequest((r) => standIn.requests.includes(r)).then(() => waiting.abort());
      await assert.rejects(clientFor({ signal: waiting.signal }).listDeployments(), (error: unknown) => isErrorOf(error, 'cancelled'));
      assert.equal(standIn.requests.length, 1);
    });

    it('reports a refused connection with a next step', async () => {
      const closed = await StandIn.start();
      const url = closed.url;
      await closed.close();
      await assert.rejects(clientFor({ baseUrl: url }).listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'network'));
        assert.equal(error.code, 'ECONNREFUSED');
        assert.match(error.message, /refused; is the server running and the base URL right\?/);
        return true;
      });
    });

    it('refuses an unusable base URL', () => {
      assert.throws(() => clientFor({ baseUrl: 'ftp://example.test' }), /must start with http:\/\/ or https:\/\//);
      assert.throws(() => clientFor({ baseUrl: '' }), /no base URL is set/);
      assert.throws(() => clientFor({ baseUrl: 'not a url' }), /is not a URL/);
      // Neither a user name nor a password typed into the base URL is repeated.
      assert.throws(() => clientFor({ baseUrl: 'ftp://bob:hunter22@example.test' }), (error: unknown) =>
        (error as Error).message === 'Invalid base URL: “ftp://[redacted]@example.test” must start with http:// or https://');
      assert.throws(() => clientFor({ baseUrl: 'bob:hunter22@example.test' }), (error: unknown) => !/bob|hunter/.test((error as Error).message));
    });

    it('keeps the API key out of every error text', async () => {
      const key = standIn.apiKey!;
      const faults = [
        { kind: 'status', status: 500, body: JSON.stringify({ detail: `bad key ${key}` }) },
        { kind: 'status', status: 403, body: JSON.stringify({ detail: `key ${key} is revoked` }) },
        { kind: 'status', status: 404, body: `not here ${key}`, contentType: 'text/plain' },
        { kind: 'nonJson' },
        { kind: 'reset' },
      ] as const;
      for (const fault of faults) {
        standIn.reset();
        standIn.addFault({ fault });
        const error = await clientFor().listDeployments().then(
          () => assert.fail('expected a failure'),
          (caught: Error) => caught,
        );
        assert.ok(!error.message.includes(key), `${fault.kind} leaks the key: ${error.message}`);
      }
    });
  });
});

describe('ControlPlaneClient against scripted servers', () => {
  it('passes the response offset verbatim, never offset + limit', async () => {
    const server = await startScriptedServer((req, res) => {
      const offset = Number(new URL(req.url!, 'http://x').searchParams.get('offset'));
      const next = offset === 0 ? 37 : offset === 37 ? 1000 : 1001;
      const count = offset === 1000 ? 1 : 2;
      json(res, 200, { resources: Array.from({ length: count }, (_, i) => ({ name: `d-${offset}-${i}` })), offset: next });
    });
    const client = new ControlPlaneClient({ baseUrl: server.url, retry: fast });
    try {
      const names: string[] = [];
      for await (const page of client.deploymentPages({ limit: 2 })) names.push(...page.deployments.map((d) => d.name!));
      assert.deepEqual(
        server.seen.map((request) => new URL(request.url, 'http://x').searchParams.get('offset')),
        ['0', '37', '1000'],
      );
      assert.equal(names.length, 5);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('names the record index and field path of a schema mismatch, keeping the good records', async () => {
    const server = await startScriptedServer((_req, res) =>
      json(res, 200, {
        resources: [{ name: 'ok' }, { name: 'bad', source_revision_config: { repo_ref: 42 } }],
        offset: 2,
      }),
    );
    const client = new ControlPlaneClient({ baseUrl: server.url, retry: fast });
    try {
      const page = await client.listDeployments();
      assert.deepEqual(page.deployments.map((d) => d.name), ['ok']);
      assert.equal(page.offContract.length, 1);
      assert.equal(page.offContract[0].index, 1);
      assert.equal(page.offContract[0].name, 'bad');
      assert.deepEqual(page.offContract[0].problems, [{ path: 'source_revision_config.repo_ref', message: 'expected a string, got a number' }]);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('still refuses a listing whose envelope (resources, offset) does not match the contract', async () => {
    const server = await startScriptedServer((_req, res) => json(res, 200, { resources: {}, offset: 'next' }));
    const client = new ControlPlaneClient({ baseUrl: server.url, retry: fast });
    try {
      await assert.rejects(client.listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'schema'));
        assert.match(error.message, /resources: expected an array/);
        assert.match(error.message, /offset: expected a whole number of 0 or more, got a string/);
        return true;
      });
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('checks resource_spec as an object in listings and in full when it is shown', async () => {
    const records = [
      { name: 'good', source_config: { resource_spec: { cpu: 0.5, sidecars: [{ name: 's', env: [{ name: 'A', value: 'b' }] }] } } },
      { name: 'deep', source_config: { resource_spec: { cpu: 'two', init_containers: [{ args: [1] }] } } },
    ];
    const server = await startScriptedServer((req, res) =>
      req.url!.includes('offset=5')
        ? json(res, 200, { resources: [{ name: 'x', source_config: { resource_spec: [1, 2] } }], offset: 6 })
        : json(res, 200, { resources: records, offset: 2 }),
    );
    const client = new ControlPlaneClient({ baseUrl: server.url, retry: fast });
    try {
      const page = await client.listDeployments();
      assert.deepEqual(resourceSpecProblems(page.deployments[0]), []);
      assert.deepEqual(resourceSpecProblems(page.deployments[1]), [
        { path: 'source_config.resource_spec.cpu', message: 'expected a number, got a string' },
        { path: 'source_config.resource_spec.init_containers[0].args[0]', message: 'expected a string, got a number' },
      ]);
      assert.deepEqual(resourceSpecProblems({ name: 'none' }), []);
      const odd = await client.listDeployments({ offset: 5 });
      assert.equal(odd.deployments.length, 0);
      assert.deepEqual(odd.offContract[0].problems, [{ path: 'source_config.resource_spec', message: 'expected an object, got an array' }]);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('requires all six repository fields and keeps unknown deployment fields', async () => {
    const server = await startScriptedServer((req, res) => {
      if (req.url!.startsWith('/v1/')) {
        json(res, 200, [{ host_integration_id: '0f8e7c8a-3b3d-4d5e-9a59-2f8c1e5b7a10', id: 1, name: 'x', owner: 'o', url: 'u' }]);
      } else {
        json(res, 200, { resources: [{ name: 'd', status: null, custom_field: { nested: true } }], offset: 1 });
      }
    });
    const client = new ControlPlaneClient({ baseUrl: server.url, retry: fast });
    try {
      const listing = await client.listRepositories('0f8e7c8a-3b3d-4d5e-9a59-2f8c1e5b7a10');
      assert.equal(listing.repositories.length, 0);
      assert.equal(listing.offContract.length, 1);
      assert.deepEqual(listing.offContract[0].problems, [{ path: 'default_branch', message: 'expected a string, got nothing' }]);
      assert.equal(listing.offContract[0].usableForCreate, false);
      assert.match(listing.offContract[0].reason, /default_branch/);
      const page = await client.listDeployments();
      assert.deepEqual((page.deployments[0] as Record<string, unknown>).custom_field, { nested: true });
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('keeps a base URL path prefix, sends the configured headers and a User-Agent', async () => {
    const server = await startScriptedServer((_req, res) => json(res, 200, { resources: [], offset: 0 }));
    const client = new ControlPlaneClient({
      baseUrl: `${server.url}/api-host//`,
      apiKey: 'k-123',
      apiKeyHeader: 'Authorization-Key',
      tenantId: 'tenant-9',
      tenantHeader: 'X-Workspace',
      userAgent: 'deployments-explorer/0.1.0',
    });
    try {
      await client.listDeployments({ status: 'READY' });
      const [request] = server.seen;
      assert.equal(request.url, '/api-host/v2/deployments?limit=20&offset=0&status=READY');
      assert.equal(request.headers['authorization-key'], 'k-123');
      assert.equal(request.headers['x-workspace'], 'tenant-9');
      assert.equal(request.headers['user-agent'], 'deployments-explorer/0.1.0');
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('renders a 422 whose detail is a string', async () => {
    const server = await startScriptedServer((_req, res) => json(res, 422, { detail: 'limit is out of range' }));
    const client = new ControlPlaneClient({ baseUrl: server.url });
    try {
      await assert.rejects(client.listDeployments(), (error: unknown) => {
        assert.ok(isErrorOf(error, 'validation'));
        assert.match(error.message, /limit is out of range/);
        return true;
      });
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});
