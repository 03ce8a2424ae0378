// Headless Debian chromium driven by playwright-core; nothing but loopback
// is reachable from its pages.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import { CHROMIUM } from './paths.mjs';
import { onCleanup } from './cleanup.mjs';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function isLoopbackUrl(u) {
  try {
    const url = typeof u === 'string' ? new URL(u) : u;
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.protocol === 'about:') return true;
    const h = url.hostname.replace(/^\[|\]$/g, '');
    return h === '127.0.0.1' || h === 'localhost' || h === '::1' || h.endsWith('.localhost');
  } catch {
    return false;
  }
}

function checkChromium() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run \`node scripts/provision.mjs\` (apt-get install chromium)`);
}

/** Launches chromium; closed by the cleanup handlers too. */
export async function launchBrowser() {
  checkChromium();
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const unregister = onCleanup(() => browser.close().catch(() => {}));
  browser.on('disconnected', unregister);
  return browser;
}

/**
 * Starts chromium as a playwright browser server other processes can connect
 * to (`chromium.connect(wsEndpoint)`), e.g. one per UI test file.
 */
export async function launchBrowserServer() {
  checkChromium();
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  onCleanup(() => server.close().catch(() => {}), () => { try { server.process().kill('SIGKILL'); } catch { /* gone */ } });
  return server;
}

/** A fresh context in which every non-loopback request is aborted. */
export async function newOfflineContext(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, ...options });
  await context.route((url) => !isLoopbackUrl(url), (route) => route.abort('blockedbyclient'));
  return context;
}
