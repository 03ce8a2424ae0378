import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import {
  LARGE_INTEGRATION,
  ORPHAN_INTEGRATION_ID,
  SAMPLE_INTEGRATION_IDS,
  SAMPLE_TAG_VALUE_IDS,
  StandIn,
  sampleData,
  type Deployment,
  type RecordedRequest,
} from '../server/standIn';

const KEY = 'dev-key';
const ACME = SAMPLE_INTEGRATION_IDS[0];

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function call(base: string, pathAndQuery: string, init: RequestInit & { key?: string | null } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? KEY : init.key;
  if (key !== null) headers.set('X-Api-Key', key);
  const res = await fetch(base + pathAndQuery, { ...init, headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

function page(a: Answer): { resources: Deployment[]; offset: number } {
  assert.equal(a.status, 200, a.text.slice(0, 300));
  return a.json as { resources: Deployment[]; offset: number };
}

function detailList(a: Answer): Array<{ loc: unknown[]; msg: string; type: string }> {
  assert.equal(a.status, 422, a.text);
  assert.match(a.headers.get('content-type') ?? '', /^application\/json/);
  const detail = (a.json as { detail: unknown }).detail;
  assert.ok(Array.isArray(detail), 'detail is a list');
  return detail as Array<{ loc: unknown[]; msg: string; type: string }>;
}

function validBody(name: string): Record<string, unknown> {
  return {
    name,
    source_config: { integration_id: ACME, repo_url: 'https://github.com/acme/storefront' },
    source_revision_config: { repo_ref: 'main' },
  };
}

/** Also has the fields the shared server's requiredCreateFields asks for. */
function fullBody(name: string): Record<string, unknown> {
  return {
    ...validBody(name),
    source: 'github',
    secrets: [],
    source_revision_config: { repo_ref: 'main', graph_config_path: 'config.json' },
  };
}

describe('sampleData', () => {
  it('is deterministic and varied', () => {
    const a = sampleData(1, 1200);
    assert.deepEqual(JSON.parse(JSON.stringify(sampleData(1, 1200))), JSON.parse(JSON.stringify(a)));
    assert.notDeepEqual(sampleData(2, 50).deployments[0], a.deployments[0]);
    assert.deepEqual(
      a.integrations.map((i) => i.id),
      [...SAMPLE_INTEGRATION_IDS],
    );
    assert.deepEqual(
      sampleData(99, 1).integrations.map((i) => i.id),
      [...SAMPLE_INTEGRATION_IDS],
    );
    assert.equal(a.deployments.length, 1200);
    assert.equal(new Set(a.deployments.map((d) => d.name)).size, 1200);
    const nameRe = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
    assert.ok(a.deployments.every((d) => nameRe.test(d.name)));
    const statuses = new Set(a.deployments.map((d) => d.status));
    for (const s of ['AWAITING_DATABASE', 'READY', 'UNUSED', 'AWAITING_DELETE', 'UNKNOWN', 'DEGRADED', undefined]) assert.ok(statuses.has(s), String(s));
    assert.ok(a.deployments.some((d) => d.source_config?.integration_id === ORPHAN_INTEGRATION_ID));
    assert.ok(a.deployments.some((d) => d.source_config?.resource_spec === undefined));
    assert.ok(a.deployments.some((d) => d.secrets?.some((s) => s.value.startsWith('sk-live-'))));
    const uuidRe = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    assert.ok(a.deployments.every((d) => uuidRe.test(d.id)));
    const created = a.deployments.map((d) => Date.parse(String(d.created_at)));
    assert.ok(created.every((t, i) => i === 0 || t <= created[i - 1]), 'newest first');
  });
});

describe('StandIn over HTTP', () => {
  let s: StandIn;
  before(async () => {
    s = await StandIn.start({ requiredCreateFields: ['source', 'source_revision_config.graph_config_path', 'secrets'] });
  });
  after(() => s.close());
  beforeEach(() => s.reset());

  it('exposes url, port and data', () => {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(s.url, `http://127.0.0.1:${s.port}`);
    assert.equal(s.apiKey, KEY);
    assert.equal(s.integrations.length, 4);
    assert.equal(s.deployments.length, 1200);
  });

  describe('auth', () => {
    it('401 without key, 403 with a wrong key, never echoing it', async () => {
      const missing = await call(s.url, '/v2/deployments', { key: null });
      assert.equal(missing.status, 401);
      assert.deepEqual(missing.json, { detail: 'Missing API key' });
      const wrong = await call(s.url, '/v2/deployments', { key: 'sk-wrong-123' });
      assert.equal(wrong.status, 403);
      assert.deepEqual(wrong.json, { detail: 'Invalid API key' });
      assert.ok(!wrong.text.includes('sk-wrong-123'));
      const repos = await call(s.url, `/v1/integrations/forge/codehost/${ACME}/repos`, { key: null });
      assert.equal(repos.status, 401);
    });

    it('custom header name, case-insensitive; null key disables the check', async () => {
      const custom = await StandIn.start({ apiKey: 'k2', apiKeyHeader: 'Authorization-Key', deploymentCount: 5 });
      const open = await StandIn.start({ apiKey: null, deploymentCount: 5 });
      try {
        const ok = await call(custom.url, '/v2/deployments', { key: null, headers: { 'authorization-key': 'k2' } });
        assert.equal(ok.status, 200);
        assert.equal((await call(custom.url, '/v2/deployments')).status, 401);
        assert.equal((await call(open.url, '/v2/deployments', { key: null })).status, 200);
      } finally {
        await custom.close();
        await open.close();
      }
    });

    it('tenant requirement → 403 with the workspace message', async () => {
      const t = await StandIn.start({ requireTenant: 'ws-1', deploymentCount: 5 });
      try {
        const without = await call(t.url, '/v2/deployments');
        assert.equal(without.status, 403);
        assert.deepEqual(without.json, { detail: 'This API key requires workspace specification (X-Tenant-Id header)' });
        assert.equal((await call(t.url, '/v2/deployments', { headers: { 'X-Tenant-Id': 'other' } })).status, 403);
        assert.equal((await call(t.url, '/v2/deployments', { headers: { 'x-tenant-id': 'ws-1' } })).status, 200);
        assert.equal((await call(t.url, '/v2/deployments', { key: 'bad', headers: { 'x-tenant-id': 'ws-1' } })).status, 403);
      } finally {
        await t.close();
      }
    });
  });

  describe('repositories', () => {
    it('returns exactly the six contract fields', async () => {
      const a = await call(s.url, `/v1/integrations/forge/codehost/${ACME}/repos`);
      assert.equal(a.status, 200);
      assert.equal(a.headers.get('content-type'), 'application/json');
      const repos = a.json as Array<Record<string, unknown>>;
      assert.equal(repos.length, 5);
      for (const r of repos) {
        assert.deepEqual(Object.keys(r).sort(), ['default_branch', 'host_integration_id', 'id', 'name', 'owner', 'url']);
        assert.equal(r.host_integration_id, ACME);
        assert.ok(Number.isInteger(r.id));
      }
      const counts = await Promise.all(
        SAMPLE_INTEGRATION_IDS.map(async (id) => ((await call(s.url, `/v1/integrations/forge/codehost/${id}/repos`)).json as unknown[]).length),
      );
      assert.deepEqual(counts, [5, 60, 400, 0]);
    });

    it('accepts an upper-case UUID', async () => {
      assert.equal((await call(s.url, `/v1/integrations/forge/codehost/${ACME.toUpperCase()}/repos`)).status, 200);
    });

    it('adds an integration with as many repositories as asked, listed shuffled, and takes it away again', async () => {
      const large = s.addIntegration({ repositoryCount: 2500 });
      assert.equal(large.id, LARGE_INTEGRATION.id);
      try {
        const listed = (await call(s.url, `/v1/integrations/forge/codehost/${large.id}/repos`)).json as Array<{ id: number; name: string; owner: string; url: string }>;
        assert.equal(listed.length, 2500);
        assert.equal(new Set(listed.map((r) => r.id)).size, 2500);
        const names = listed.map((r) => r.name);
        assert.notDeepEqual(names.slice(0, 5), ['service-0000', 'service-0001', 'service-0002', 'service-0003', 'service-0004'], 'not in order');
        assert.deepEqual([...names].sort().slice(0, 2), ['service-0000', 'service-0001']);
        assert.equal([...names].sort()[2400], 'service-2400', 'sorted, the one at index k is service-k');
        assert.equal(listed[0].url, `https://github.com/large-org/${listed[0].name}`);
        assert.deepEqual(s.addIntegration({ repositoryCount: 2500 }).repositories, large.repositories, 'the same listing again; replaced, not added twice');
        assert.equal(s.integrations.filter((i) => i.id === large.id).length, 1);
      } finally {
        assert.equal(s.removeIntegration(large.id), true);
      }
      assert.equal((await call(s.url, `/v1/integrations/forge/codehost/${large.id}/repos`)).status, 404);
      assert.equal(s.removeIntegration(large.id), false);
    });

    it('422 for a non-UUID, 404 for an unknown one', async () => {
      const bad = detailList(await call(s.url, '/v1/integrations/forge/codehost/not-a-uuid/repos'));
      assert.equal(bad.length, 1);
      assert.deepEqual(bad[0].loc, ['path', 'integration_id']);
      assert.equal(bad[0].type, 'uuid_parsing');
      assert.match(bad[0].msg, /^Input should be a valid UUID/);
      const unknown = await call(s.url, `/v1/integrations/forge/codehost/${ORPHAN_INTEGRATION_ID}/repos`);
      assert.equal(unknown.status, 404);
      assert.deepEqual(unknown.json, { detail: `Integration ${ORPHAN_INTEGRATION_ID} not found` });
    });
  });

  describe('deployment listing', () => {
    it('defaults to limit 20 from offset 0, newest first', async () => {
      const p = page(await call(s.url, '/v2/deployments'));
      assert.equal(p.resources.length, 20);
      assert.equal(p.offset, 20);
      assert.deepEqual(
        p.resources.map((d) => d.id),
        s.deployments.slice(0, 20).map((d) => d.id),
      );
    });

    it('pages through everything by passing back offset', async () => {
      const ids: string[] = [];
      let offset = 0;
      for (;;) {
        const p = page(await call(s.url, `/v2/deployments?limit=100&offset=${offset}`));
        ids.push(...p.resources.map((d) => d.id));
        if (p.resources.length < 100) {
          assert.equal(p.offset, offset + p.resources.length);
          break;
        }
        offset = p.offset;
      }
      assert.equal(ids.length, 1200);
      assert.equal(new Set(ids).size, 1200);
      const beyond = page(await call(s.url, '/v2/deployments?offset=5000'));
      assert.deepEqual(beyond, { resources: [], offset: 5000 });
    });

    it('422 for out-of-range or malformed parameters', async () => {
      const cases: Array<[string, string, RegExp]> = [
        ['limit=0', 'limit', /greater than or equal to 1/],
        ['limit=101', 'limit', /less than or equal to 100/],
        ['limit=abc', 'limit', /valid integer/],
        ['limit=2.5', 'limit', /valid integer/],
        ['offset=-1', 'offset', /greater than or equal to 0/],
        ['offset=x', 'offset', /valid integer/],
        ['remote_reconciled=maybe', 'remote_reconciled', /valid boolean/],
        ['deployment_type=staging', 'deployment_type', /'dev_free', 'dev' or 'prod'/],
      ];
      for (const [query, field, msg] of cases) {
        const detail = detailList(await call(s.url, `/v2/deployments?${query}`));
        assert.equal(detail.length, 1, query);
        assert.deepEqual(detail[0].loc, ['query', field], query);
        assert.match(detail[0].msg, msg, query);
        assert.equal(typeof detail[0].type, 'string');
      }
      assert.equal(detailList(await call(s.url, '/v2/deployments?limit=0&offset=-3')).length, 2);
      assert.equal(page(await call(s.url, '/v2/deployments?limit=1')).resources.length, 1);
      assert.equal(page(await call(s.url, '/v2/deployments?limit=100')).resources.length, 100);
    });

    async function all(query: string): Promise<Deployment[]> {
      const out: Deployment[] = [];
      let offset = 0;
      for (;;) {
        const p = page(await call(s.url, `/v2/deployments?limit=100&offset=${offset}&${query}`));
        out.push(...p.resources);
        if (p.resources.length < 100) return out;
        offset = p.offset;
      }
    }

    function expectSame(got: Deployment[], want: Deployment[], label: string): void {
      assert.ok(want.length > 0, `${label}: fixture has matches`);
      assert.deepEqual(
        got.map((d) => d.id),
        want.map((d) => d.id),
        label,
      );
    }

    it('name_contains is a case-insensitive substring', async () => {
      const got = await all('name_contains=STOREfront');
      expectSame(got, s.deployments.filter((d) => d.name.includes('storefront')), 'name_contains');
    });

    it('status is exact, including unknown values', async () => {
      for (const status of ['READY', 'AWAITING_DELETE', 'DEGRADED']) {
        expectSame(await all(`status=${status}`), s.deployments.filter((d) => d.status === status), status);
      }
      assert.equal((await all('status=ready')).length, 0);
    });

    it('remote_reconciled', async () => {
      expectSame(await all('remote_reconciled=true'), s.deployments.filter((d) => d.remote_reconciled === true), 'true');
      expectSame(await all('remote_reconciled=false'), s.deployments.filter((d) => d.remote_reconciled === false), 'false');
    });

    it('tag_value_ids matches any of the listed tags', async () => {
      const [t1, t2] = SAMPLE_TAG_VALUE_IDS;
      expectSame(
        await all(`tag_value_ids=${t1},${t2}`),
        s.deployments.filter((d) => d.tag_value_ids?.includes(t1) || d.tag_value_ids?.includes(t2)),
        'tags',
      );
    });

    it('image_version is exact', async () => {
      expectSame(await all('image_version=0.2.74'), s.deployments.filter((d) => d.image_version === '0.2.74'), 'image');
      assert.equal((await all('image_version=0.2')).length, 0);
    });

    it('deployment_type', async () => {
      for (const t of ['dev_free', 'dev', 'prod']) {
        expectSame(await all(`deployment_type=${t}`), s.deployments.filter((d) => d.deployment_type === t), t);
      }
    });

    it('deployment_ids (comma-separated)', async () => {
      const ids = [s.deployments[500].id, s.deployments[3].id, s.deployments[1100].id];
      const got = await all(`deployment_ids=${ids.join(',')}`);
      assert.deepEqual(
        got.map((d) => d.id),
        [s.deployments[3].id, s.deployments[500].id, s.deployments[1100].id],
      );
    });

    it('combines filters with AND and pages within the filtered set', async () => {
      const want = s.deployments.filter((d) => d.status === 'READY' && d.deployment_type === 'prod' && d.image_version === '0.3.2');
      expectSame(await all('status=READY&deployment_type=prod&image_version=0.3.2'), want, 'combined');
      const second = page(await call(s.url, '/v2/deployments?status=READY&limit=5&offset=5'));
      assert.deepEqual(
        second.resources.map((d) => d.id),
        s.deployments
          .filter((d) => d.status === 'READY')
          .slice(5, 10)
          .map((d) => d.id),
      );
      assert.equal(second.offset, 10);
    });
  });

  describe('deployment creation', () => {
    it('201 with the full record, first in later listings; reset() removes it', async () => {
      const body = { ...fullBody('my-new-app'), secrets: [{ name: 'K', value: 'sk-live-x' }], extra: { kept: true } };
      const created = await call(s.url, '/v2/deployments', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      assert.equal(created.status, 201, created.text);
      const rec = created.json as Deployment;
      assert.equal(rec.name, 'my-new-app');
      assert.equal(rec.status, 'AWAITING_DATABASE');
      assert.match(rec.id, /^[0-9a-f-]{36}$/);
      assert.ok(rec.tenant_id && rec.created_at && rec.updated_at);
      assert.deepEqual(rec.extra, { kept: true });
      assert.deepEqual(rec.secrets, [{ name: 'K', value: 'sk-live-x' }]);
      assert.equal(rec.source_config?.integration_id, ACME);
      const first = page(await call(s.url, '/v2/deployments?limit=1'));
      assert.equal(first.resources[0].id, rec.id);
      assert.equal(s.deployments.length, 1201);
      const dup = await call(s.url, '/v2/deployments', { method: 'POST', body: JSON.stringify(body) });
      assert.equal(dup.status, 409);
      assert.deepEqual(dup.json, { detail: 'A deployment named my-new-app already exists' });
      s.reset();
      assert.equal(s.deployments.length, 1200);
      assert.notEqual(page(await call(s.url, '/v2/deployments?limit=1')).resources[0].id, rec.id);
    });

    it('422 lists every violation with its loc', async () => {
      const body = {
        name: 'Bad_Name',
        source_config: { integration_id: 'nope' },
        source_revision_config: { repo_ref: '' },
        deployment_type: 'staging',
      };
      const detail = detailList(await call(s.url, '/v2/deployments', { method: 'POST', body: JSON.stringify(body) }));
      const locs = detail.map((d) => d.loc.join('.'));
      assert.deepEqual(locs.sort(), [
        'body.deployment_type',
        'body.name',
        'body.secrets',
        'body.source',
        'body.source_config.integration_id',
        'body.source_config.repo_url',
        'body.source_revision_config.graph_config_path',
        'body.source_revision_config.repo_ref',
      ]);
      for (const d of detail) assert.ok(d.msg && d.type);
      const unknownIntegration = detailList(
        await call(s.url, '/v2/deployments', {
          method: 'POST',
          body: JSON.stringify({
            ...validBody('x1'),
            source: 'github',
            secrets: [],
            source_config: { integration_id: ORPHAN_INTEGRATION_ID, repo_url: 'u' },
            source_revision_config: { repo_ref: 'main', graph_config_path: 'c.json' },
          }),
        }),
      );
      assert.deepEqual(
        unknownIntegration.map((d) => d.loc),
        [['body', 'source_config', 'integration_id']],
      );
    });

    it('422 for invalid JSON, empty body and a non-object', async () => {
      const invalid = detailList(await call(s.url, '/v2/deployments', { method: 'POST', body: '{"name": ' }));
      assert.equal(invalid[0].type, 'json_invalid');
      assert.equal(invalid[0].loc[0], 'body');
      assert.equal(detailList(await call(s.url, '/v2/deployments', { method: 'POST' }))[0].type, 'missing');
      assert.deepEqual(detailList(await call(s.url, '/v2/deployments', { method: 'POST', body: '[]' }))[0].loc, ['body']);
    });

    it('413 for bodies over 1 MB', async () => {
      const big = JSON.stringify({ ...validBody('big'), pad: 'x'.repeat(1024 * 1024 + 10) });
      const a = await call(s.url, '/v2/deployments', { method: 'POST', body: big });
      assert.equal(a.status, 413);
    });
  });

  describe('routing', () => {
    it('404, 405, HEAD and OPTIONS', async () => {
      const nf = await call(s.url, '/v2/nothing');
      assert.equal(nf.status, 404);
      assert.deepEqual(nf.json, { detail: 'Not Found' });
      assert.equal((await call(s.url, '//v2/deployments')).status, 404);
      const wrong = await call(s.url, '/v2/deployments', { method: 'DELETE' });
      assert.equal(wrong.status, 405);
      assert.deepEqual(wrong.json, { detail: 'Method Not Allowed' });
      assert.equal((await call(s.url, `/v1/integrations/forge/codehost/${ACME}/repos`, { method: 'POST' })).status, 405);
      const head = await call(s.url, '/v2/deployments', { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      assert.equal(head.headers.get('content-type'), 'application/json');
      const options = await call(s.url, '/v2/deployments', { method: 'OPTIONS', key: null });
      assert.equal(options.status, 204);
      assert.match(options.headers.get('allow') ?? '', /GET/);
    });
  });

  describe('faults', () => {
    it('latency delays the answer', async () => {
      s.addFault({ fault: { kind: 'latency', ms: 150 }, times: 1 });
      const t0 = performance.now();
      assert.equal((await call(s.url, '/v2/deployments?limit=1')).status, 200);
      assert.ok(performance.now() - t0 >= 140);
      assert.deepEqual(s.faults, [], 'times: 1 used up');
    });

    it('status with JSON, plain and default bodies', async () => {
      s.addFault({ fault: { kind: 'status', status: 500, body: '{"detail":"boom"}' }, times: 1 });
      s.addFault({ fault: { kind: 'status', status: 502, body: 'Bad gateway' }, times: 1 });
      s.addFault({ fault: { kind: 'status', status: 503 }, times: 1 });
      const a = await call(s.url, '/v2/deployments');
      assert.equal(a.status, 500);
      assert.deepEqual(a.json, { detail: 'boom' });
      assert.equal(a.headers.get('content-type'), 'application/json');
      const b = await call(s.url, '/v2/deployments');
      assert.equal(b.status, 502);
      assert.equal(b.text, 'Bad gateway');
      assert.match(b.headers.get('content-type') ?? '', /^text\/plain/);
      const c = await call(s.url, '/v2/deployments');
      assert.equal(c.status, 503);
      assert.deepEqual(c.json, { detail: 'Service Unavailable' });
      assert.equal((await call(s.url, '/v2/deployments')).status, 200);
    });

    it('rateLimit answers 429 with Retry-After', async () => {
      s.addFault({ fault: { kind: 'rateLimit', retryAfterSeconds: 7 }, times: 1 });
      const a = await call(s.url, '/v2/deployments');
      assert.equal(a.status, 429);
      assert.equal(a.headers.get('retry-after'), '7');
      assert.deepEqual(a.json, { detail: 'Too many requests' });
    });

    it('nonJson answers an HTML page', async () => {
      s.addFault({ fault: { kind: 'nonJson' }, times: 1 });
      s.addFault({ fault: { kind: 'nonJson', status: 502 }, times: 1 });
      const a = await call(s.url, '/v2/deployments');
      assert.equal(a.status, 200);
      assert.match(a.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(a.text, /<html/i);
      assert.equal((await call(s.url, '/v2/deployments')).status, 502);
    });

    it('reset destroys the socket: fetch rejects', async () => {
      s.addFault({ fault: { kind: 'reset' }, times: 1 });
      await assert.rejects(fetch(`${s.url}/v2/deployments`, { headers: { 'x-api-key': KEY } }));
      assert.equal((await call(s.url, '/v2/deployments')).status, 200);
    });

    it('hang never answers; AbortSignal.timeout ends the wait', async () => {
      s.addFault({ fault: { kind: 'hang' }, times: 1 });
      const done = s.nextRequest();
      await assert.rejects(fetch(`${s.url}/v2/deployments`, { headers: { 'x-api-key': KEY }, signal: AbortSignal.timeout(200) }), (err: Error) => {
        assert.equal(err.name, 'TimeoutError');
        return true;
      });
      assert.equal((await done).path, '/v2/deployments', 'done once the client gave up');
    });

    it('hang holds a request until releaseHung(), which lets it be answered as without the fault', async () => {
      s.addFault({ fault: { kind: 'hang' }, pathPrefix: '/v2/', times: 1 });
      let answered = false;
      const held = call(s.url, '/v2/deployments?limit=2').then((response) => ((answered = true), response));
      // Another request is answered meanwhile: the hang holds only its own.
      const other = s.nextRequest((r) => r.path.startsWith('/v1/'));
      assert.equal((await call(s.url, `/v1/integrations/forge/codehost/${ACME}/repos`)).status, 200);
      assert.equal((await other).path, `/v1/integrations/forge/codehost/${ACME}/repos`);
      assert.equal(answered, false, 'still held');
      const done = s.nextRequest((r) => r.path === '/v2/deployments');
      assert.equal(s.releaseHung(), 1);
      const response = await held;
      assert.equal(response.status, 200);
      assert.equal(page(response).resources.length, 2);
      assert.deepEqual((await done).query, { limit: '2' });
      assert.equal(s.releaseHung(), 0, 'nothing held any more');
    });

    it('stuckOffset keeps the request offset', async () => {
      s.addFault({ fault: { kind: 'stuckOffset' } });
      assert.equal(page(await call(s.url, '/v2/deployments?offset=40')).offset, 40);
      assert.equal(page(await call(s.url, '/v2/deployments')).offset, 0);
      assert.equal((await call(s.url, `/v1/integrations/forge/codehost/${ACME}/repos`)).status, 200);
    });

    it('whenOffset, method, pathPrefix and times select the requests hit', async () => {
      s.addFault({ fault: { kind: 'status', status: 500 }, whenOffset: 20, times: 2 });
      s.addFault({ fault: { kind: 'status', status: 418 }, method: 'POST', pathPrefix: '/v2/' });
      s.addFault({ fault: { kind: 'status', status: 504 }, pathPrefix: '/v1/' });
      assert.equal((await call(s.url, '/v2/deployments?offset=0')).status, 200);
      assert.equal((await call(s.url, '/v2/deployments?offset=20')).status, 500);
      assert.equal((await call(s.url, '/v2/deployments?offset=20')).status, 500);
      assert.equal((await call(s.url, '/v2/deployments?offset=20')).status, 200);
      assert.equal((await call(s.url, '/v2/deployments', { method: 'POST', body: '{}' })).status, 418);
      assert.equal((await call(s.url, `/v1/integrations/forge/codehost/${ACME}/repos`)).status, 504);
      s.clearFaults();
      assert.equal((await call(s.url, `/v1/integrations/forge/codehost/${ACME}/repos`)).status, 200);
    });

    it('the latencyMs option delays every answer, errors included, and survives reset()', async () => {
      const slow = await StandIn.start({ latencyMs: 120, deploymentCount: 3 });
      try {
        slow.reset();
        const t0 = performance.now();
        assert.equal((await call(slow.url, '/v2/deployments', { key: null })).status, 401);
        assert.ok(performance.now() - t0 >= 110);
      } finally {
        await slow.close();
      }
    });

    it('auth is checked before faults', async () => {
      s.addFault({ fault: { kind: 'status', status: 500 } });
      assert.equal((await call(s.url, '/v2/deployments', { key: null })).status, 401);
    });
  });

  describe('progress of created deployments (watching)', () => {
    const create = async (name: string) =>
      (await call(s.url, '/v2/deployments', { method: 'POST', body: JSON.stringify(fullBody(name)) })).json as Deployment;
    const watchPoll = async (id: string) => page(await call(s.url, `/v2/deployments?deployment_ids=${id}&limit=1`)).resources[0];

    it('AWAITING_DATABASE for N listings, then READY; the active revision catches up later', async () => {
      assert.equal((await call(s.url, '/__admin/progress', { key: null, method: 'POST', body: JSON.stringify({ awaitingPolls: 2, activeLagPolls: 1 }) })).status, 200);
      const rec = await create('progress-app');
      assert.equal(rec.status, 'AWAITING_DATABASE');
      assert.ok(rec.latest_revision_id);
      assert.equal(rec.active_revision_id, undefined);
      const seen = [];
      for (let i = 0; i < 5; i++) {
        const r = await watchPoll(rec.id!);
        seen.push(`${r.status}:${r.active_revision_id === rec.latest_revision_id}`);
      }
      assert.deepEqual(seen, ['AWAITING_DATABASE:false', 'AWAITING_DATABASE:false', 'READY:false', 'READY:true', 'READY:true']);
    });

    it('activeLagPolls "never": READY, and the latest revision never becomes active (a rollout that never lands)', async () => {
      const set = await call(s.url, '/__admin/progress', { key: null, method: 'POST', body: JSON.stringify({ awaitingPolls: 1, activeLagPolls: 'never' }) });
      assert.equal(set.status, 200);
      assert.equal((set.json as { activeLagPolls: unknown }).activeLagPolls, 'never');
      const rec = await create('never-lands');
      const seen = [];
      for (let i = 0; i < 6; i++) {
        const r = await watchPoll(rec.id!);
        seen.push(`${r.status}:${r.active_revision_id === rec.latest_revision_id}`);
      }
      assert.deepEqual(seen, ['AWAITING_DATABASE:false', 'READY:false', 'READY:false', 'READY:false', 'READY:false', 'READY:false']);
      const last = await watchPoll(rec.id!);
      assert.equal((await watchPoll(rec.id!)).updated_at, last.updated_at, 'nothing changes any more');
      const refused = await call(s.url, '/__admin/progress', { key: null, method: 'POST', body: JSON.stringify({ activeLagPolls: 'soon' }) });
      assert.equal(refused.status, 400);
    });

    it('an admin PATCH may set updated_at: a deployment stuck since long ago', async () => {
      const rec = await create('stuck-since');
      const longAgo = new Date(Date.now() - 3600_000).toISOString();
      const body = JSON.stringify({ status: 'READY', active_revision_id: null, updated_at: longAgo });
      assert.equal((await call(s.url, `/__admin/deployments/${rec.id}`, { key: null, method: 'PATCH', body })).status, 200);
      const listed = await watchPoll(rec.id!);
      assert.equal(listed.updated_at, longAgo);
      assert.notEqual(listed.active_revision_id, listed.latest_revision_id);
    });

    it('a plan with neither polls nor time never progresses; reset() restores the default plan', async () => {
      s.setProgress({ finalStatus: 'READY' });
      const rec = await create('stuck-app');
      for (let i = 0; i < 4; i++) assert.equal((await watchPoll(rec.id!)).status, 'AWAITING_DATABASE');
      s.reset();
      assert.equal(s.progress.awaitingPolls, 3);
    });

    it('admin routes set the fields of a deployment and remove it; a fault can target only deployment_ids requests', async () => {
      const rec = await create('admin-app');
      const set = await call(s.url, `/__admin/deployments/${rec.id}`, { key: null, method: 'PATCH', body: JSON.stringify({ status: 'DEGRADED' }) });
      assert.equal(set.status, 200);
      assert.equal((await watchPoll(rec.id!)).status, 'DEGRADED');
      assert.equal((await watchPoll(rec.id!)).status, 'DEGRADED', 'no longer progresses on its own');
      await call(s.url, '/__admin/faults', { key: null, method: 'POST', body: JSON.stringify({ fault: { kind: 'status', status: 503 }, whenQuery: 'deployment_ids' }) });
      assert.equal((await call(s.url, `/v2/deployments?deployment_ids=${rec.id}&limit=1`)).status, 503);
      assert.equal((await call(s.url, '/v2/deployments?limit=1')).status, 200);
      s.clearFaults();
      assert.equal((await call(s.url, `/__admin/deployments/${rec.id}`, { key: null, method: 'DELETE' })).status, 204);
      assert.equal(page(await call(s.url, `/v2/deployments?deployment_ids=${rec.id}&limit=1`)).resources.length, 0);
      assert.equal((await call(s.url, `/__admin/deployments/${rec.id}`, { key: null, method: 'PATCH', body: '{}' })).status, 404);
    });
  });

  describe('recording and admin routes', () => {
    it('records requests in order with query, headers and body', async () => {
      await call(s.url, '/v2/deployments?limit=3&status=READY');
      await call(s.url, '/v2/deployments', { method: 'POST', body: JSON.stringify({ a: 1 }) });
      assert.equal(s.requests.length, 2);
      assert.deepEqual(s.requests[0].query, { limit: '3', status: 'READY' });
      assert.equal(s.requests[0].headers['x-api-key'], KEY);
      assert.equal(s.requests[1].method, 'POST');
      assert.deepEqual(s.requests[1].body, { a: 1 });
    });

    it('drives faults, reads requests (key redacted), resets and reports state', async () => {
      const add = await call(s.url, '/__admin/faults', {
        key: null,
        method: 'POST',
        body: JSON.stringify({ fault: { kind: 'status', status: 503 }, pathPrefix: '/v2/deployments', times: 1 }),
      });
      assert.equal(add.status, 201);
      assert.equal((await call(s.url, '/v2/deployments')).status, 503);
      assert.equal((await call(s.url, '/v2/deployments')).status, 200);
      assert.equal((await call(s.url, '/__admin/faults', { key: null, method: 'POST', body: '{"fault":{"kind":"nope"}}' })).status, 400);

      await call(s.url, '/__admin/faults', { key: null, method: 'POST', body: JSON.stringify({ fault: { kind: 'status', status: 500 } }) });
      assert.equal((await call(s.url, '/__admin/faults', { key: null, method: 'DELETE' })).status, 204);
      assert.equal((await call(s.url, '/v2/deployments')).status, 200);

      const recorded = (await call(s.url, '/__admin/requests', { key: null })).json as RecordedRequest[];
      assert.equal(recorded.length, 3);
      assert.ok(recorded.every((r) => !r.path.startsWith('/__admin')));
      assert.equal(recorded[0].headers['x-api-key'], '[redacted]');
      assert.ok(!JSON.stringify(recorded).includes(KEY));

      await call(s.url, '/v2/deployments', { method: 'POST', body: JSON.stringify(fullBody('admin-made')) });
      const state = (await call(s.url, '/__admin/state', { key: null })).json as {
        integrations: Array<{ id: string; label: string; repositoryCount: number }>;
        deploymentCount: number;
      };
      assert.deepEqual(
        state.integrations.map((i) => [i.label, i.repositoryCount]),
        [
          ['acme-github', 5],
          ['platform-gitlab', 60],
          ['monorepo-github', 400],
          ['archive-bitbucket', 0],
        ],
      );
      assert.equal(state.deploymentCount, 1201);
      assert.equal((await call(s.url, '/__admin/reset', { key: null, method: 'POST' })).status, 204);
      assert.equal(s.deployments.length, 1200);
      assert.equal(s.requests.length, 0);
    });
  });
});

describe('close()', () => {
  it('finishes while a hung request is open', async () => {
    const s = await StandIn.start({ deploymentCount: 10 });
    s.addFault({ fault: { kind: 'hang' } });
    const pending = fetch(`${s.url}/v2/deployments`, { headers: { 'x-api-key': KEY } }).then(
      () => 'answered',
      () => 'rejected',
    );
    while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    await s.close();
    assert.equal(await pending, 'rejected');
    await s.close();
  });

  it('finishes during a latency fault', async () => {
    const s = await StandIn.start({ deploymentCount: 10 });
    s.addFault({ fault: { kind: 'latency', ms: 60_000 } });
    const pending = fetch(`${s.url}/v2/deployments`, { headers: { 'x-api-key': KEY } }).catch(() => 'rejected');
    while (s.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    await s.close();
    assert.equal(await pending, 'rejected');
  });
});

describe('cli', () => {
  it('prints the STANDIN line and exits cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [path.join(__dirname, '..', 'server', 'cli.js'), '--api-key', 'k9', '--deployments', '30', '--active-lag', 'never', '--quiet']);
    let out = '';
    const info = await new Promise<{ url: string; apiKey: string; integrations: Array<{ id: string; label: string }> }>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('STANDIN '));
        if (line) resolve(JSON.parse(line.slice('STANDIN '.length)));
      });
      child.once('exit', () => reject(new Error(`cli exited early: ${out}`)));
    });
    assert.match(out, /Control-plane stand-in listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.match(out, /API key: k9/);
    assert.equal(info.apiKey, 'k9');
    assert.deepEqual(
      info.integrations.map((i) => i.id),
      [...SAMPLE_INTEGRATION_IDS],
    );
    const p = page(await call(info.url, '/v2/deployments?limit=100', { key: 'k9' }));
    assert.equal(p.resources.length, 30);
    assert.equal(((await call(info.url, '/__admin/progress', { key: null })).json as { activeLagPolls?: unknown }).activeLagPolls, 'never', '--active-lag never');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});

describe('StandIn in real-shapes mode: deployment creation', () => {
  let s: StandIn;
  before(async () => {
    s = await StandIn.start({ realShapes: true });
  });
  after(() => s.close());
  beforeEach(() => s.reset());

  const post = (body: unknown) => call(s.url, '/v2/deployments', { method: 'POST', body: JSON.stringify(body) });

  it('requires source and secrets besides the contract’s three fields, as FastAPI "missing" entries', async () => {
    const detail = detailList(await post(validBody('real-missing')));
    assert.deepEqual(
      detail.map((d) => [d.type, d.loc]),
      [
        ['missing', ['body', 'source']],
        ['missing', ['body', 'secrets']],
      ],
    );
  });

  it('keeps the type inside source_config (prod by default) and source; 409 for the same repository, ref and type', async () => {
    // A ref no sample deployment has.
    const body = {
      ...validBody('real-a'),
      source: 'github',
      secrets: [],
      source_config: { ...(validBody('x').source_config as object), deployment_type: 'dev' },
      source_revision_config: { repo_ref: 'refs/tags/real-shapes-test' },
    };
    const created = await post(body);
    assert.equal(created.status, 201, created.text);
    const record = created.json as Deployment & { source?: string; source_config?: { deployment_type?: string } };
    assert.equal(record.source_config?.deployment_type, 'dev');
    assert.equal(record.source, 'github');
    assert.equal('deployment_type' in record, false, 'no top-level type in the real shapes');

    const again = await post({ ...body, name: 'real-b' });
    assert.equal(again.status, 409);
    assert.deepEqual(again.json, { detail: 'A deployment already exists for this agent environment' });

    const prod = await post({ ...body, name: 'real-c', source_config: validBody('x').source_config });
    assert.equal(prod.status, 201, 'another type of the same repository and ref is another environment');
    assert.equal((prod.json as { source_config?: { deployment_type?: string } }).source_config?.deployment_type, 'prod');
  });

  it('contract-only mode is unchanged: no source or secrets needed, the type at the top level', async () => {
    const contract = await StandIn.start({});
    try {
      const created = await call(contract.url, '/v2/deployments', { method: 'POST', body: JSON.stringify(validBody('contract-a')) });
      assert.equal(created.status, 201, created.text);
      assert.equal((created.json as Deployment).deployment_type, 'dev');
    } finally {
      await contract.close();
    }
  });
});
