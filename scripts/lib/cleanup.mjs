// One place that stops everything a script started: on normal completion
// (callers await runCleanups()), on SIGINT/SIGTERM/SIGHUP (async cleanups, then
// exit 130/143/129), and as a last resort on process exit (synchronous kills).
const entries = new Set();
let signalled = false;

/**
 * Registers `fn` (async) to run at cleanup; `syncFallback` runs on a bare
 * process exit if `fn` never ran. Returns an unregister function.
 */
export function onCleanup(fn, syncFallback) {
  const entry = { fn, syncFallback };
  entries.add(entry);
  installHandlers();
  return () => entries.delete(entry);
}

let chain = Promise.resolve();

/**
 * Runs every registered cleanup (latest first), once each. Calls made while
 * cleanups are running resolve only after those are done too.
 */
export function runCleanups() {
  chain = chain.then(async () => {
    const list = [...entries].reverse();
    entries.clear();
    for (const e of list) {
      try {
        await e.fn();
      } catch (err) {
        console.error(`cleanup failed: ${err && err.stack || err}`);
      }
      // The sync fallback is for a bare exit only; this cleanup has run.
      e.syncFallback = undefined;
    }
  });
  return chain;
}

/** Whether a signal asked this process to stop. */
export function isStopping() {
  return signalled;
}

let installed = false;
function installHandlers() {
  if (installed) return;
  installed = true;
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
  for (const sig of Object.keys(codes)) {
    process.on(sig, () => {
      if (signalled) return; // a second Ctrl-C while cleaning up: keep going
      signalled = true;
      console.error(`\n${sig}: stopping everything…`);
      const hard = setTimeout(() => process.exit(codes[sig]), 15_000);
      hard.unref();
      runCleanups().finally(() => process.exit(codes[sig]));
    });
  }
  process.on('exit', () => {
    for (const e of entries) {
      try { e.syncFallback && e.syncFallback(); } catch { /* ignore */ }
    }
  });
}
