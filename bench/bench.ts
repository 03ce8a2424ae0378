/**
 * `npm run bench`: figures as ratios measured in one run, never as assertions.
 *  - speed: a 100-record page of full nested deployments through the client
 *    (validation included) against a bare undici request + JSON.parse;
 *  - memory: heap held by 1,000 records parsed by the client against the same
 *    records from JSON.parse;
 *  - the wire size of that page plain and compressed (the client sends
 *    Accept-Encoding: gzip, deflate, br and decompresses what comes back);
 *  - the size of the release bundle.
 * The stand-in runs in a child process so its work does not interleave with
 * the measured code on the same thread.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { request } from 'undici';
import { ControlPlaneClient } from '../src/api';

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
