import type { Clock } from '../../../src/model/watchScheduler';

/** Lets pending promise callbacks (a fetch answered at once) run. */
export async function flushPromises(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A clock whose timers fire only when the test moves time on. */
export class FakeClock implements Clock {
  private time = 1_000_000;
  private nextId = 1;
  private timers: Array<{ id: number; at: number; callback: () => void }> = [];

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ id, at: this.time + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((timer) => timer.id !== handle);
  }

  get pending(): number {
    return this.timers.length;
  }

  /** Moves time on by `ms`, firing due timers in order and letting their promises settle. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > until) break;
      this.timers.shift();
      this.time = next.at;
      next.callback();
      await flushPromises();
    }
    this.time = until;
    await flushPromises();
  }
}
