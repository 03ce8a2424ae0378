import { mock } from 'node:test';

/** Lets pending promise callbacks (a fetch answered at once) run; setImmediate is left real by `useMockTimers`. */
export function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Node's mocked `setTimeout` and `Date` from now on (`mock.timers.reset()` puts the real ones back). */
export function useMockTimers(now = 1_000_000): void {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now });
}

/**
 * Moves the mocked clock on by `ms`, `stepMs` at a time, letting the promises a timer starts settle
 * after each step: a timer set once they settle (the next poll) fires when it is due, or up to a step
 * later when it is due between two steps. The clock stops at exactly `ms`.
 */
export async function advance(ms: number, stepMs = 100): Promise<void> {
  for (let left = ms; left > 0; left -= stepMs) {
    mock.timers.tick(Math.min(stepMs, left));
    await flushPromises();
  }
}
