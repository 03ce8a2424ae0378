// Starts the control-plane stand-in (out/test/server/standIn.js, compiled from
// test/server/standIn.ts) inside this process; closed by the cleanup handlers.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './paths.mjs';
import { onCleanup } from './cleanup.mjs';

/** @returns {Promise<{url: string, apiKey: string|null, integrations: Array<{id: string, label?: string}>, close(): Promise<void>}>} */
export async function startStandIn(options = { port: 0 }) {
  const modulePath = path.join(ROOT, 'out', 'test', 'server', 'standIn.js');
  if (!fs.existsSync(modulePath)) throw new Error(`${path.relative(ROOT, modulePath)} is missing (compile with \`npx tsc -p .\`)`);
  const mod = createRequire(import.meta.url)(modulePath);
  const StandIn = mod.StandIn || (mod.default && mod.default.StandIn) || mod.default;
  if (!StandIn || typeof StandIn.start !== 'function') throw new Error(`${modulePath} exports no StandIn.start()`);
  const standIn = await StandIn.start(options);
  onCleanup(() => standIn.close());
  return standIn;
}
