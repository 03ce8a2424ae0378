/**
 * Issue 14, "Never blank, never loop, never leak": the API client against
 * servers that make other legal (or merely common) choices. Every test runs
 * against a real HTTP server on 127.0.0.1; each would fail on the client
 * before the issue.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { describe, it } from 'node:test';
import * as zlib from 'node:zlib';
import { ControlPlaneError, DeploymentPage, isErrorOf } from '../../src/api';
import { ControlPlaneClient } from '../../src/api/client';
import { assertClean, KEY } from './helpers/errorChecks';
import { json, rawAnswer, startIdleResettingServer, startRawServer, startScriptedServer } from './helpers/scriptedServer';

const fast = { maxAttempts: 2, baseDelayMs: 5, maxRetryAfterMs: 100 };
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
const offsetOf = (url: string) => Number(new URL(url, 'http://x').searchParams.get('offset'));

async function withServer<T>(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  run: (client: ControlPlaneClient, server: Awaited<ReturnType<typeof startScriptedServer>>) => Promise<T>,
): Promise<T> {
  const server = await startScriptedServer(handler);
  const client = new ControlPlaneClient({ baseUrl: server.url, apiKey: KEY, retry: fast, timeoutMs: 5000 });
  try {
    return await run(client, server);
  } finally {
    await client.dispose();
    await server.close();
  }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail('expected a failure'),
    (error: unknown) => error as ControlPlaneError,
  );

describe('1. one off-contract record never blanks a page', () => {
  it('keeps the 49 good deployments and lists the bad one with each field path, raw', async () => {
    const records = Array.from({ length: 50 }, (_, i) => ({ id: uuid(i), name: `d-${i}`, created_at: '2024-01-01T00:00:00Z' }));
    records[17] = { id: 'not-a-uuid', name: 'odd', created_at: 1_700_000_000 as never };
    await withServer(
      (_req, res) => json(res, 200, { resources: records, offset: 50 }),
      async (client) => {
        const page = await client.listDeployments({ limit: 50 });
        assert.equal(page.deployments.length, 49);
        assert.equal(page.offContract.length, 1);
        const [bad] = page.offContract;
        assert.equal(bad.index, 17);
        assert.equal(bad.id, 'not-a-uuid');
        assert.equal(bad.name, 'odd');
        assert.deepEqual(bad.raw, records[17]);
        assert.deepEqual(bad.problems, [
          { path: 'id', message: 'expected a UUID' },
          { path: 'created_at', message: 'expected a string, got a number' },
        ]);
        assert.equal(page.mayHaveMore, true, 'a full page counts its off-contract records');
      },
    );
  });

  it('keeps the good repositories; a bad one says why it cannot be used to create', async () => {
    const integration = uuid(9);
    const repo = (id: number) => ({ host_integration_id: integration, id, name: `r${id}`, owner: 'o', url: `https://h/o/r${id}`, default_branch: 'main' });
    const { url: _omitted, ...noUrl } = repo(2);
    await withServer(
      (_req, res) => json(res, 200, [repo(1), noUrl, repo(3), 'not a record']),
      async (client) => {
        const listing = await client.listRepositories(integration);
        assert.deepEqual(listing.repositories.map((r) => r.id), [1, 3]);
        assert.equal(listing.offContract.length, 2);
        assert.equal(listing.offContract[0].index, 1);
        assert.equal(listing.offContract[0].usableForCreate, false);
        assert.deepEqual(listing.offContract[0].problems, [{ path: 'url', message: 'expected a string, got nothing' }]);
        assert.match(listing.offContract[0].reason, /url: expected a string, got nothing\), so it cannot be used to create a deployment/);
        assert.deepEqual(listing.offContract[1].problems, [{ path: '', message: 'expected an object, got a string' }]);
      },
    );
  });

  it('says what came when a listing is of the wrong kind, never its records', async () => {
    const secretRecord = { secrets: [{ name: 'token', value: 'a-secret-value' }] };
    await withServer(
      (req, res) => json(res, 200, req.url!.startsWith('/v2/') ? [secretRecord, secretRecord] : { resources: [secretRecord] }),
      async (client) => {
        const listing = await failure(client.listDeployments());
        assert.ok(isErrorOf(listing, 'schema'));
        assert.match(listing.message, /\(the whole answer\): expected an object, got a list of 2 records$/);
        const repositories = await failure(client.listRepositories(uuid(9)));
        assert.ok(isErrorOf(repositories, 'schema'));
        assert.match(repositories.message, /\(the whole answer\): expected an array, got an object$/);
        for (const error of [listing, repositories]) assert.ok(!/token|a-secret-value/.test(error.message), error.message);
      },
    );
  });
});

describe('2. opaque cursors', () => {
  const cursors: Record<number, number> = { 0: 5000, 5000: 300, 300: 9000, 9000: 70 };
  const cursorServer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const offset = offsetOf(req.url!);
    const next = cursors[offset];
    const count = next === undefined ? 1 : 2;
    json(res, 200, { resources: Array.from({ length: count }, (_, i) => ({ id: uuid(offset * 10 + i) })), offset: next ?? 71 });
  };

  it('keeps paging 0 → 5000 → 300 → 9000 → 70, ending on the short page', async () => {
    await withServer(cursorServer, async (client, server) => {
      const pages: DeploymentPage[] = [];
      for await (const page of client.deploymentPages({ limit: 2 })) {
        pages.push(page);
        if (pages.length > 10) break;
      }
      assert.deepEqual(server.seen.map((r) => offsetOf(r.url)), [0, 5000, 300, 9000, 70]);
      assert.equal(pages.flatMap((p) => p.deployments).length, 9);
      assert.equal(pages.at(-1)!.end, 'short');
    });
  });

  it('stops on a response offset already requested (a cycle)', async () => {
    await withServer(
      (req, res) => {
        const offset = offsetOf(req.url!);
        json(res, 200, { resources: [{ id: uuid(offset + 1) }, { id: uuid(offset + 2) }], offset: offset === 0 ? 5000 : 0 });
      },
      async (client, server) => {
        const ends: unknown[] = [];
        for await (const page of client.deploymentPages({ limit: 2 })) {
          ends.push(page.end);
          if (ends.length > 10) break;
        }
        assert.deepEqual(ends, [undefined, 'cycle']);
        assert.equal(server.seen.length, 2);
      },
    );
  });

  it('stops on a full page with no record not already seen (a server that ignores offset)', async () => {
    await withServer(
      (req, res) => json(res, 200, { resources: [{ id: uuid(1) }, { id: uuid(2) }], offset: offsetOf(req.url!) + 2 }),
      async (client, server) => {
        const ends: unknown[] = [];
        for await (const page of client.deploymentPages({ limit: 2 })) {
          ends.push(page.end);
          if (ends.length > 30) break;
        }
        assert.deepEqual(ends, [undefined, 'noNewRecords']);
        assert.equal(server.seen.length, 2);
      },
    );
  });
});

describe('3. a POST never goes out on a stale keep-alive connection', () => {
  it('creates after 5.3 s idle against a server that resets connections idle over 5 s', async () => {
    const server = await startIdleResettingServer(5000, (req, res) => {
      if (req.method === 'POST') {
        req.resume();
        req.on('end', () => json(res, 201, { id: uuid(1), name: 'created' }));
      } else json(res, 200, { resources: [], offset: 0 });
    });
    const client = new ControlPlaneClient({ baseUrl: server.url, apiKey: KEY, retry: fast });
    try {
      await client.listDeployments();
      await new Promise((resolve) => setTimeout(resolve, 5300));
      const created = await client.createDeployment({ name: 'created' });
      assert.equal(created.name, 'created');
      assert.equal(server.resets, 0, 'the idle connection was not reused');
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});

describe('3b. a Keep-Alive: timeout= shorter than the pool default is honoured', () => {
  it('creates after 1.5 s idle against a server that says timeout=1 and resets connections idle over 1 s', async () => {
    const server = await startIdleResettingServer(1000, (req, res) => {
      res.setHeader('keep-alive', 'timeout=1');
      if (req.method === 'POST') {
        req.resume();
        req.on('end', () => json(res, 201, { id: uuid(2), name: 'created' }));
      } else json(res, 200, { resources: [], offset: 0 });
    });
    const client = new ControlPlaneClient({ baseUrl: server.url, apiKey: KEY, retry: fast });
    try {
      await client.listDeployments();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal((await client.createDeployment({ name: 'created' })).name, 'created');
      assert.equal(server.resets, 0);
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});

describe('4. redirects', () => {
  it('follows a same-origin redirect for a GET, with the key', async () => {
    await withServer(
      (req, res) => {
        if (req.url!.startsWith('/v2/')) {
          res.writeHead(307, { location: `/api${req.url}` });
          res.end();
        } else json(res, 200, { resources: [{ id: uuid(1) }], offset: 1 });
      },
      async (client, server) => {
        const page = await client.listDeployments();
        assert.equal(page.deployments.length, 1);
        assert.deepEqual(server.seen.map((r) => r.url.split('?')[0]), ['/v2/deployments', '/api/v2/deployments']);
        assert.equal(server.seen[1].headers['x-api-key'], KEY);
      },
    );
  });

  it('never follows to another origin, names the target and says to check the base URL', async () => {
    const elsewhere = await startScriptedServer((_req, res) => json(res, 200, { resources: [], offset: 0 }));
    try {
      await withServer(
        (_req, res) => {
          res.writeHead(308, { location: `${elsewhere.url}/v2/deployments` });
          res.end();
        },
        async (client) => {
          const error = await failure(client.listDeployments());
          assert.ok(isErrorOf(error, 'http'));
          assert.equal(error.status, 308);
          assert.equal(error.redirectTo, `${elsewhere.url}/v2/deployments`);
          assert.ok(error.message.includes(`${elsewhere.url}/v2/deployments`), error.message);
          assert.match(error.message, /Check the base URL/);
        },
      );
      assert.equal(elsewhere.seen.length, 0, 'nothing (and no key) went to the other origin');
    } finally {
      await elsewhere.close();
    }
  });

  it('stops after a few hops, and never redirects a POST', async () => {
    await withServer(
      (req, res) => {
        res.writeHead(req.method === 'POST' ? 307 : 302, { location: `/v2/deployments?hop=${Math.random()}` });
        res.end();
      },
      async (client, server) => {
        const error = await failure(client.listDeployments());
        assert.ok(isErrorOf(error, 'http'));
        assert.match(error.message, /more than 5 redirects.*Check the base URL/);
        assert.equal(server.seen.length, 6);
        const post = await failure(client.createDeployment({ name: 'x' }));
        assert.ok(isErrorOf(post, 'http'));
        assert.match(post.message, /HTTP 307, redirecting to “.*”, which was not followed \(a POST is never redirected\)/);
        assert.equal(server.seen.filter((r) => r.method === 'POST').length, 1);
      },
    );
  });
});

describe('5. compressed answers', () => {
  for (const [encoding, compress] of [
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const) {
    it(`asks for and decompresses ${encoding}, even from a gateway that compresses anyway`, async () => {
      const body = JSON.stringify({ resources: Array.from({ length: 100 }, (_, i) => ({ id: uuid(i), name: `d-${i}` })), offset: 100 });
      await withServer(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
          res.end(compress(Buffer.from(body)));
        },
        async (client, server) => {
          const page = await client.listDeployments({ limit: 100 });
          assert.equal(page.deployments.length, 100);
          assert.match(String(server.seen[0].headers['accept-encoding']), /gzip.*deflate/);
        },
      );
    });
  }

  it('refuses an answer larger than the cap, on the wire or decompressed (a bomb), with a typed error', async () => {
    const huge = JSON.stringify({ resources: [], offset: 0, pad: 'p'.repeat(200_000) });
    const bomb = zlib.gzipSync(Buffer.alloc(1_000_000, 32));
    for (const [encoding, payload] of [
      [undefined, Buffer.from(huge)],
      ['gzip', bomb],
      ['deflate', zlib.deflateSync(Buffer.alloc(1_000_000, 32))],
    ] as const) {
      const server = await startScriptedServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) });
        res.end(payload);
      });
      const client = new ControlPlaneClient({ baseUrl: server.url, apiKey: KEY, retry: fast, maxResponseBytes: 64 * 1024 });
      try {
        const error = await failure(client.listDeployments());
        assertClean(error);
        assert.ok(isErrorOf(error, 'invalidResponse'), `${encoding}: ${String(error)}`);
        assert.match(error.message, /more than 64 KiB, not read/);
      } finally {
        await client.dispose();
        await server.close();
      }
    }
  });

  it('keeps a body in an unknown encoding as it came, undoes raw deflate, and reads a truncated gzip body as what it decompresses to', async () => {
    const page = JSON.stringify({ resources: [{ id: uuid(1) }], offset: 1 });
    const truncated = zlib.gzipSync(Buffer.from('<html>'.repeat(500))).subarray(0, 40);
    const answers: Array<[number, string, Buffer]> = [
      [200, 'deflate', zlib.deflateRawSync(Buffer.from(page))],
      [200, 'x-unknown', Buffer.from(page)],
      [500, 'gzip', truncated],
    ];
    await withServer(
      (_req, res) => {
        const [status, encoding, body] = answers.shift()!;
        res.writeHead(status, { 'content-type': 'application/json', 'content-encoding': encoding });
        res.end(body);
      },
      async (client) => {
        assert.equal((await client.listDeployments()).deployments.length, 1, 'raw deflate');
        assert.equal((await client.listDeployments()).deployments.length, 1, 'unknown encoding');
        const error = await failure(client.listDeployments());
        assertClean(error);
        assert.ok(isErrorOf(error, 'invalidResponse'), String(error));
        assert.match(error.message, /\(HTTP 500, application\/json\) is not JSON \(empty body\)/);
      },
    );
  });

  it('quotes a binary body as “binary data (N bytes)”, never its bytes', async () => {
    const binary = zlib.gzipSync(Buffer.from('<html>'.repeat(50)));
    await withServer(
      (_req, res) => {
        res.writeHead(502, { 'content-type': 'application/octet-stream' });
        res.end(binary);
      },
      async (client) => {
        const error = await failure(client.listDeployments());
        assertClean(error);
        assert.ok(isErrorOf(error, 'invalidResponse'));
        assert.match(error.message, new RegExp(`binary data \\(${binary.length} bytes\\)`));
      },
    );
  });
});

describe('6. the key never stays in an error object', () => {
  const echoes: Array<[string, (res: http.ServerResponse) => void]> = [
    ['401 JSON', (res) => json(res, 401, { detail: `invalid key ${KEY}` })],
    ['403 nested', (res) => json(res, 403, { error: { message: `key ${KEY} is revoked` } })],
    ['404 text', (res) => (res.writeHead(404, { 'content-type': 'text/plain' }), res.end(`nothing for ${KEY}`))],
    ['400 list', (res) => json(res, 400, { detail: [{ loc: ['query', KEY], msg: `bad ${KEY}`, input: KEY }] })],
    ['422 objects', (res) => json(res, 422, { detail: [{ loc: ['body', { key: KEY }], msg: { echoed: KEY }, input: { k: KEY } }] })],
    ['502 HTML', (res) => (res.writeHead(502, { 'content-type': 'text/html' }), res.end(`<html><title>502 for ${KEY}</title><body>${KEY}</body></html>`))],
    ['200 HTML', (res) => (res.writeHead(200, { 'content-type': 'text/html' }), res.end(`<p>debug: x-api-key=${KEY}</p>`))],
    ['200 content-type', (res) => (res.writeHead(200, { 'content-type': `text/plain; echo=${KEY}` }), res.end('not json'))],
    ['500 clipped at 500', (res) => json(res, 500, { detail: `${'x'.repeat(480)} ${KEY}` })],
    ['500 clipped at 300', (res) => json(res, 500, { detail: `${'y'.repeat(290)} ${KEY}` })],
    ['200 schema', (res) => json(res, 200, { resources: KEY, offset: KEY, id: KEY, name: { [KEY]: KEY } })],
  ];
  for (const [name, answer] of echoes) {
    it(`redacts ${name} in message, String(error), JSON.stringify(error) and stack`, async () => {
      await withServer(
        (_req, res) => answer(res),
        async (client) => {
          assertClean(await failure(client.listDeployments()));
          assertClean(await failure(client.createDeployment({ name: 'x' })));
        },
      );
    });
  }
});

describe('9. messages from any answer stay short, clean and typed', () => {
  it('renders a detail nested 100,000 levels deep as a typed error', async () => {
    const deep = `${'{"detail":'.repeat(100_000)}"end"${'}'.repeat(100_000)}`;
    const deepList = `{"detail":[{"loc":${'['.repeat(50_000)}${']'.repeat(50_000)},"msg":${'['.repeat(50_000)}${']'.repeat(50_000)}}]}`;
    for (const [status, body] of [
      [500, deep],
      [422, deepList],
    ] as const) {
      await withServer(
        (_req, res) => (res.writeHead(status, { 'content-type': 'application/json' }), res.end(body)),
        async (client) => assertClean(await failure(client.listDeployments())),
      );
    }
  });

  it('caps a 422 with a thousand issues and says how many more', async () => {
    const detail = Array.from({ length: 1000 }, (_, i) => ({ loc: ['body', `field_${i}`], msg: `problem ${i} `.repeat(5) }));
    await withServer(
      (_req, res) => json(res, 422, { detail }),
      async (client) => {
        const error = await failure(client.createDeployment({}));
        assertClean(error);
        assert.ok(isErrorOf(error, 'validation'));
        assert.match(error.message, /^body\.field_0: problem 0/m);
        assert.match(error.message, /…and 990 more$/);
        assert.equal(error.issueCount, 1000);
      },
    );
  });

  it('clips each issue of a 422 on its own: a 2 MB reason or field path leaves a readable message', async () => {
    const detail = [
      { loc: ['body', 'name'], msg: 'far too long '.repeat(160_000) },
      { loc: ['body', 'x'.repeat(2_000_000)], msg: 'unknown field' },
      { loc: ['body', 'image_version'], msg: 'Input should be a valid string' },
    ];
    await withServer(
      (_req, res) => json(res, 422, { detail }),
      async (client) => {
        const error = await failure(client.createDeployment({}));
        assertClean(error);
        assert.ok(isErrorOf(error, 'validation'));
        const [, name, field, version] = error.message.split('\n');
        assert.match(name, /^body\.name: far too long far too long .*…$/);
        assert.ok(name.length <= 'body.name: '.length + 160, `${name.length} characters`);
        assert.match(field, /^body\.x+…: unknown field$/);
        assert.ok(field.length <= 80 + ': unknown field'.length, `${field.length} characters`);
        assert.equal(version, 'body.image_version: Input should be a valid string');
        assert.ok(error.message.length < 400, `${error.message.length} characters`);
      },
    );
  });

  it('reads the reasons of an `errors` list (JSON:API, `{field, message}`, plain strings), not just FastAPI\'s `detail`', async () => {
    const cases: Array<[number, unknown, RegExp]> = [
      [422, { errors: [{ status: '422', title: 'Invalid Attribute', detail: 'must be unique', source: { pointer: '/name' } }] }, /^name: must be unique$/m],
      [400, { errors: [{ field: 'source_revision_config.repo_ref', message: 'unknown branch' }, 'second reason'] }, /^source_revision_config\.repo_ref: unknown branch\nsecond reason$/m],
      [403, { errors: [{ message: 'tenant suspended' }] }, /^Access denied \(HTTP 403\): tenant suspended$/],
      [409, { errors: [{ code: 'conflict', message: 'name taken' }] }, /^The control plane answered HTTP 409: name taken$/],
    ];
    for (const [status, body, expected] of cases) {
      await withServer(
        (_req, res) => json(res, status, body),
        async (client) => {
          const error = await failure(client.createDeployment({ name: 'x' }));
          assertClean(error);
          assert.match(error.message, expected, `${status}: ${error.message}`);
        },
      );
    }
  });

  it('renders non-string loc parts and msg as short JSON, never [object Object]', async () => {
    await withServer(
      (_req, res) => json(res, 422, { detail: [{ loc: ['body', { a: 1 }, 3], msg: { b: [2] } }] }),
      async (client) => {
        const error = await failure(client.createDeployment({}));
        assertClean(error);
        assert.match(error.message, /body\.\{"a":1\}\.3: \{"b":\[2\]\}/);
      },
    );
  });

  it('strips control characters, lone surrogates and U+FFFD from quoted text', async () => {
    await withServer(
      (_req, res) => json(res, 500, { detail: 'bad\u0000 \u001b[31mred\u0085 \ud800 half \ufffd end' }),
      async (client) => {
        const error = await failure(client.listDeployments());
        assertClean(error);
        assert.ok(isErrorOf(error, 'server'));
        assert.match(error.message, /bad \[31mred half end/);
      },
    );
  });

  it('clips a 6 KB content type and a 5,000-character integration ID', async () => {
    const raw = await startRawServer(() => rawAnswer(200, [['content-type', `text/plain; x=${'z'.repeat(6000)}`]], 'plain'));
    const client = new ControlPlaneClient({ baseUrl: raw.url, apiKey: KEY, retry: fast });
    try {
      assertClean(await failure(client.listDeployments()));
      const input = await failure(client.listRepositories('i'.repeat(5000)));
      assertClean(input);
      assert.ok(isErrorOf(input, 'invalidInput'));
      assert.equal(input.parameter, 'integration_id');
    } finally {
      await client.dispose();
      await raw.close();
    }
  });

});

describe('errors as a union on kind', () => {
  it('narrows on kind without casts, and tells “not enabled for the organisation” from a bad key', async () => {
    const hint = (error: ControlPlaneError): string =>
      error.kind === 'auth' ? (error.notEnabled ? 'notEnabled' : error.needsTenant ? 'tenant' : 'key') : error.kind;
    await withServer(
      (req, res) =>
        req.url!.startsWith('/v2/')
          ? json(res, 403, { detail: 'Deployments are not enabled for this organization.' })
          : json(res, 403, { detail: 'Invalid API key' }),
      async (client) => {
        const notEnabled = await failure(client.listDeployments());
        assert.ok(isErrorOf(notEnabled, 'auth'));
        assert.equal(hint(notEnabled), 'notEnabled');
        assert.match(notEnabled.message, /not enabled for your organisation/);
        assert.doesNotMatch(notEnabled.message, /check the API key/i);
        const badKey = await failure(client.listRepositories(uuid(1)));
        assert.equal(hint(badKey), 'key');
      },
    );
  });
});
