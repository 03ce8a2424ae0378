/** A subscription is structurally a vscode.Disposable, so it can join `context.subscriptions`. */
export type Event<T> = (listener: (value: T) => void) => { dispose(): void };

/** vscode.EventEmitter's shape without the `vscode` module, so model state is testable with node alone. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
