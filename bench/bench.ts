/**
 * `npm run bench`: figures as ratios measured in one run, never as assertions.
 *  - speed: a 100-record page of full nested deployments through the client
 *    (validation included) against a bare undici request + JSON.parse;
 *  - memory: heap held by 1,000 records parsed by the client against the same
 *    records from JSON.parse;
 *  - the wire size of that page plain and compressed (the client sends
 *    Accept-Encoding: gzip, deflate, br and decompresses what comes back);
 *  - the size of the release bundle;
 *  - requests per minute of watching 1, 10 and 150 deployments (the watch
 *    scheduler on a fake clock, records that do not change).
 * The stand-in runs in a child process so its work does not interleave with
 * the measured code on the same thread.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { request } from 'undici';
import { ControlPlaneClient, Deployment } from '../src/api';
import { MAX_IDS_PER_REQUEST, WatchScheduler } from '../src/model/watchScheduler';
import { FakeClock } from '../test/unit/helpers/fakeClock';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WARMUP = 30;
const TARGET_SPEED_RATIO = 1.15;

async function startStandIn(): Promise<{ url: string; apiKey: string; stop(): void }> {
  const cli = path.join(__dirname, '..', 'test', 'server', 'cli.js');
  const child = spawn(process.execPath, [cli, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((entry) => entry.startsWith('STANDIN '));
      if (!line) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve(JSON.parse(line.slice('STANDIN '.length)));
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`stand-in exited with ${code}`)));
  });
  return { ...info, stop: () => child.kill('SIGTERM') };
}

/**
 * Requests the watch scheduler sends for `count` watched, unchanging
 * deployments: in the first minute, and per minute from minute 10 to 20
 * (steady state, at the longest interval). The target is one batched request
 * per chunk of 100 IDs per 30 s tick in the steady state.
 */
async function watchRequestRates(count: number): Promise<{ firstMinute: number; steady: number; target: number }> {
  const clock = new FakeClock();
  let requests = 0;
  const records = new Map<string, Deployment>();
  for (let i = 0; i < count; i++) {
    const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    records.set(id, { id, name: `app-${i}`, status: 'AWAITING_DATABASE' });
  }
  const scheduler = new WatchScheduler(
    async (ids) => {
      requests++;
      return ids.map((id) => records.get(id)!);
    },
    { clock },
  );
  for (const record of records.values()) scheduler.watch(record, 'manual');
  await clock.advance(60_000);
  const firstMinute = requests;
  await clock.advance(9 * 60_000);
  const before = requests;
  await clock.advance(10 * 60_000);
  scheduler.dispose();
  return { firstMinute, steady: (requests - before) / 10, target: 2 * Math.ceil(count / MAX_IDS_PER_REQUEST) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const standIn = await startStandIn();
  const client = new ControlPlaneClient({ baseUrl: standIn.url, apiKey: standIn.apiKey, env: {} });
  const pageUrl = `${standIn.url}/v2/deployments?limit=100&offset=0`;
  const headers = { 'x-api-key': standIn.apiKey, accept: 'application/json' };
  const bare = async () => {
    const res = await request(pageUrl, { headers });
    return JSON.parse(await res.body.text()) as { resources: unknown[] };
  };
  const viaClient = () => client.listDeployments({ limit: 100, offset: 0 });

  try {
    const sample = await bare();
    const bytes = Buffer.byteLength(JSON.stringify(sample));
    if (sample.resources.length !== 100) throw new Error(`expected 100 records, got ${sample.resources.length}`);
    for (let i = 0; i < WARMUP; i++) {
      await bare();
      await viaClient();
    }
    const clientTimes: number[] = [];
    const bareTimes: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Alternate the order so neither side always runs on a warmer connection.
      const order = i % 2 === 0 ? [viaClient, bare] : [bare, viaClient];
      for (const run of order) {
        const started = process.hrtime.bigint();
        await run();
        const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
        (run === bare ? bareTimes : clientTimes).push(elapsed);
      }
    }
    const speedRatio = median(clientTimes) / median(bareTimes);

    const pages = 10;
    const before = heapUsed();
    const heldBare: unknown[] = [];
    for (let i = 0; i < pages; i++) heldBare.push(await bare());
    const bareHeap = heapUsed() - before;
    const heldClient: unknown[] = [];
    const beforeClient = heapUsed();
    for (let i = 0; i < pages; i++) heldClient.push(await viaClient());
    const clientHeap = heapUsed() - beforeClient;

    const bundle = path.join(__dirname, '..', '..', 'dist', 'extension.js');
    const bundleBytes = statSync(bundle).size;

    console.log(`page: 100 deployments, ${(bytes / 1024).toFixed(0)} KiB of JSON; ${ROUNDS} rounds each`);
    const plain = Buffer.from(JSON.stringify(sample));
    console.log(
      `wire size of that page: ${(plain.length / 1024).toFixed(1)} KiB plain, ` +
        `${(gzipSync(plain).length / 1024).toFixed(1)} KiB gzip, ${(brotliCompressSync(plain).length / 1024).toFixed(1)} KiB br`,
    );
    console.log(`median bare undici + JSON.parse: ${median(bareTimes).toFixed(2)} ms`);
    console.log(`median client (validated):       ${median(clientTimes).toFixed(2)} ms`);
    console.log(
      `speed ratio client/bare: ${speedRatio.toFixed(3)} (target ≤ ${TARGET_SPEED_RATIO}: ${speedRatio <= TARGET_SPEED_RATIO ? 'met' : 'NOT met'})`,
    );
    if ((globalThis as { gc?: unknown }).gc) {
      console.log(
        `memory ratio client/bare for ${pages * 100} held records: ${(clientHeap / bareHeap).toFixed(3)} (${(clientHeap / 1048576).toFixed(1)} MiB vs ${(bareHeap / 1048576).toFixed(1)} MiB)`,
      );
    } else {
      console.log('memory ratio: run node with --expose-gc for a heap figure');
    }
    console.log(`release bundle dist/extension.js: ${(bundleBytes / 1024).toFixed(0)} KiB`);
    for (const count of [1, 10, 150]) {
      const rate = await watchRequestRates(count);
      console.log(
        `watch requests/min for ${count} watched: ${rate.steady.toFixed(1)} steady, ${rate.firstMinute} in the first minute (target ≤ ${rate.target} steady: ${rate.steady <= rate.target ? 'OK' : 'OVER'})`,
      );
    }
    void heldBare.length;
    void heldClient.length;
  } finally {
    await client.dispose();
    standIn.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
