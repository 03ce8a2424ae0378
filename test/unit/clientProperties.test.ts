/**
 * Issue 14, property-based: whatever a server answers (generated statuses,
 * headers and bodies: valid records mutated, deep nesting, huge strings,
 * binary, compression that lies, the key echoed anywhere), every call settles
 * in bounded time with a well-formed result or a typed error whose message is
 * short, clean and key-free. A real loopback server sends the raw bytes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as zlib from 'node:zlib';
import fc from 'fast-check';
import { DeploymentPage, KNOWN_STATUSES } from '../../src/api';
import { ControlPlaneClient } from '../../src/api/client';
import { assertClean, KEY } from './helpers/errorChecks';
import { rawAnswer, startRawServer } from './helpers/scriptedServer';

/**
 * 2,000 answers take about 30 s on two cores shared with other work (each
 * answer is a new loopback connection, some several: redirects, retries,
 * pages). The time limit below only guards a much busier machine.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 2000);
const TIME_LIMIT_MS = 55_000;
const SEED = 14;
const SETTLE_MS = 8000;
const INTEGRATION = '0f8e7c8a-3b3d-4d5e-9a59-2f8c1e5b7a10';

// ---- text that a server may echo -------------------------------------------------

const keyPieces = fc.integer({ min: 0, max: KEY.length - 12 }).chain((start) =>
  fc.integer({ min: start + 12, max: KEY.length }).map((end) => KEY.slice(start, end)),
);
const controlText = fc
  .array(fc.constantFrom('\u0000', '\u0007', '\u001b[31m', '\r\n', '\t', '\u0085', '\u009b', '\ud800', '\udfff', '\ufffd', 'ok', ' '), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));
const serverText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constant(KEY),
  keyPieces,
  controlText,
  fc.tuple(fc.string({ maxLength: 700 }), fc.constantFrom(KEY, encodeURIComponent(KEY)), fc.string({ maxLength: 20 })).map((p) => p.join('')),
  fc.integer({ min: 250, max: 8000 }).map((n) => `${'w'.repeat(n)}${KEY}`),
);
const jsonText = (text: fc.Arbitrary<string>) => text.map((value) => JSON.stringify(value));

/** JSON texts nested thousands deep, built as text (the server side never recurses). */
const deepJson = fc.integer({ min: 1, max: 20_000 }).chain((depth) =>
  fc.constantFrom(
    `${'['.repeat(depth)}${']'.repeat(depth)}`,
    `${'{"detail":'.repeat(depth)}${JSON.stringify(KEY)}${'}'.repeat(depth)}`,
    `${'{"message":{"error":'.repeat(depth)}1${'}}'.repeat(depth)}`,
  ),
);
const weirdJson = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 3, arbitrary: jsonText(serverText) },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: fc.constantFrom('null', '42', '-1', '1e400', 'true', '[]', '{}') },
);

// ---- records ----------------------------------------------------------------------

const isoDate = fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
const validDeployment = fc.record(
  {
    id: fc.uuid(),
    name: fc.string({ maxLength: 30 }),
    status: fc.constantFrom(...KNOWN_STATUSES),
    created_at: isoDate,
    image_version: fc.string({ maxLength: 10 }),
    latest_revision_id: fc.uuid(),
    source_config: fc.record(
      {
        integration_id: fc.uuid(),
        repo_url: fc.webUrl(),
        resource_spec: fc.record({ cpu: fc.double({ noNaN: true, noDefaultInfinity: true }), min_scale: fc.nat() }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    ),
    source_revision_config: fc.record({ repo_ref: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const validRepository = fc.record({
  host_integration_id: fc.uuid(),
  id: fc.nat(),
  name: fc.string({ maxLength: 20 }),
  owner: fc.string({ maxLength: 20 }),
  url: fc.webUrl(),
  default_branch: fc.string({ maxLength: 10 }),
});

/** A record as JSON text, maybe with one field replaced by something odd (JSON text spliced in). */
function mutated<T extends Record<string, unknown>>(record: fc.Arbitrary<T>, fields: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: record.map((value) => JSON.stringify(value)) },
    {
      weight: 3,
      arbitrary: fc.tuple(record, fc.constantFrom(...fields, 'extra'), weirdJson).map(([value, field, odd]) => {
        const marker = '"__ODD_VALUE__"';
        return JSON.stringify({ ...value, [field]: '__ODD_VALUE__' }).replace(marker, () => odd);
      }),
    },
    { weight: 1, arbitrary: weirdJson },
  );
}

const listingBody = fc
  .tuple(
    fc.array(mutated(validDeployment, ['id', 'name', 'status', 'created_at', 'source_config', 'secrets', 'latest_revision_id']), {
      maxLength: 30,
    }),
    fc.oneof(fc.nat({ max: 1_000_000 }).map(String), fc.constantFrom('-1', '1.5', '"7"', 'null', JSON.stringify(KEY), '1e21')),
  )
  .map(([records, offset]) => `{"resources":[${records.join(',')}],"offset":${offset}}`);
const repositoryBody = fc
  .array(mutated(validRepository, ['host_integration_id', 'id', 'name', 'owner', 'url', 'default_branch']), { maxLength: 30 })
  .map((records) => `[${records.join(',')}]`);
const issue = fc.record(
  { loc: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.nat(), fc.jsonValue({ maxDepth: 2 }), serverText), { maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), msg: fc.oneof(serverText, fc.jsonValue({ maxDepth: 2 })), input: fc.oneof(serverText, fc.jsonValue({ maxDepth: 2 })) },
  { requiredKeys: [] },
);
const errorBody = fc.oneof(
  jsonText(serverText).map((detail) => `{"detail":${detail}}`),
  fc.array(issue, { maxLength: 40 }).map((issues) => JSON.stringify({ detail: issues })),
  fc.integer({ min: 100, max: 2000 }).map((n) =>
    JSON.stringify({ detail: Array.from({ length: n }, (_, i) => ({ loc: ['body', `f${i}`, { k: KEY }], msg: `${KEY} bad ${i}` })) }),
  ),
  weirdJson.map((detail) => `{"detail":${detail}}`),
  fc.tuple(fc.constantFrom('message', 'error', 'title'), weirdJson).map(([key, value]) => `{"${key}":${value}}`),
  deepJson,
);
const htmlBody = serverText.map((text) => `<html><head><title>${text}</title></head><body><pre>${text}</pre></body></html>`);
const body: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: listingBody },
  { weight: 2, arbitrary: repositoryBody },
  { weight: 4, arbitrary: errorBody },
  { weight: 1, arbitrary: htmlBody },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2000 }) },
  { weight: 1, arbitrary: serverText },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 300_000 }).map((n) => `${'x'.repeat(n)}${KEY}`) },
  { weight: 1, arbitrary: fc.constant('') },
);

// ---- headers, status, compression ------------------------------------------------------

const headerValue = fc.oneof(serverText, fc.integer({ min: 1000, max: 7000 }).map((n) => `text/plain; x=${'z'.repeat(n)}${KEY}`));
const header = fc.oneof(
  fc.constantFrom<[string, string]>(['content-type', 'application/json'], ['content-type', 'text/html'], ['content-type', 'application/octet-stream']),
  headerValue.map((value): [string, string] => ['content-type', value]),
  fc
    .oneof(fc.constant('/v2/deployments?again=1'), fc.constant('http://elsewhere.invalid/v2/deployments'), serverText.map((t) => `/p/${t}`), serverText)
    .map((value): [string, string] => ['location', value]),
  fc.oneof(fc.constantFrom('0', '0.01', 'soon', '99999'), serverText).map((value): [string, string] => ['retry-after', value]),
  fc.constantFrom<[string, string]>(['keep-alive', 'timeout=1'], ['x-debug-key', KEY], ['content-encoding', 'gzip'], ['content-encoding', 'br, gzip'], ['content-encoding', 'compress']),
);
const status = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(200, 201, 204, 301, 302, 307, 308, 400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) },
);
const compression = fc.constantFrom('none', 'none', 'none', 'gzip', 'deflate', 'br');

interface Answer {
  status: number;
  headers: Array<[string, string]>;
  body: string | Uint8Array;
  compression: string;
}
const answer: fc.Arbitrary<Answer> = fc.record({ status, headers: fc.array(header, { maxLength: 4 }), body, compression });

function encode(spec: Answer): Buffer {
  let payload = Buffer.from(spec.body);
  const headers = [...spec.headers];
  if (spec.compression !== 'none') {
    payload =
      spec.compression === 'gzip' ? zlib.gzipSync(payload) : spec.compression === 'br' ? zlib.brotliCompressSync(payload) : zlib.deflateSync(payload);
    headers.push(['content-encoding', spec.compression]);
  }
  // Header values with line breaks would change the framing (the test's, not the client's, concern).
  return rawAnswer(spec.status, headers.map(([name, value]) => [name, value.replace(/[\r\n]/g, ' ')]), payload);
}

// ---- the property -----------------------------------------------------------------------

type Operation = 'list' | 'pages' | 'repos' | 'create';

async function call(client: ControlPlaneClient, operation: Operation): Promise<void> {
  switch (operation) {
    case 'list':
      return checkPage(await client.listDeployments({ limit: 20 }));
    case 'pages': {
      let pages = 0;
      for await (const page of client.deploymentPages({ limit: 20 })) {
        checkPage(page);
        if (++pages >= 4) break;
      }
      return;
    }
    case 'repos': {
      const listing = await client.listRepositories(INTEGRATION);
      assert.ok(Array.isArray(listing.repositories) && Array.isArray(listing.offContract));
      for (const bad of listing.offContract) {
        assert.equal(bad.usableForCreate, false);
        assert.ok(bad.problems.length > 0 && bad.reason.length > 0);
      }
      return;
    }
    case 'create': {
      const created = await client.createDeployment({ name: 'p' });
      assert.ok(created && typeof created === 'object');
      return;
    }
  }
}

function checkPage(page: DeploymentPage): void {
  assert.ok(Array.isArray(page.deployments) && Array.isArray(page.offContract));
  assert.ok(Number.isSafeInteger(page.nextOffset) && page.nextOffset >= 0);
  assert.equal(page.mayHaveMore, page.end === undefined);
  for (const bad of page.offContract) assert.ok(bad.problems.length > 0 && bad.problems.every((p) => typeof p.path === 'string' && p.message.length > 0));
}

describe('ControlPlaneClient against generated answers (property)', () => {
  let server: Awaited<ReturnType<typeof startRawServer>>;
  let current: Buffer = Buffer.alloc(0);
  let client: ControlPlaneClient;

  before(async () => {
    server = await startRawServer(() => current);
    client = new ControlPlaneClient({
      baseUrl: server.url,
      apiKey: KEY,
      timeoutMs: 4000,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxRetryAfterMs: 20 },
    });
  });
  after(async () => {
    await client.dispose();
    await server.close();
  });

  it(`settles with a well-formed result or a clean typed error (${RUNS} answers, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(answer, fc.constantFrom<Operation>('list', 'pages', 'repos', 'create'), async (spec, operation) => {
        current = encode(spec);
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`did not settle within ${SETTLE_MS} ms`)), SETTLE_MS);
        });
        try {
          await Promise.race([
            call(client, operation).catch((error: unknown) => {
              if (error instanceof assert.AssertionError) throw error;
              assertClean(error);
            }),
            deadline,
          ]);
        } finally {
          clearTimeout(timer);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
    );
  });
});
