/** Who writes a part of a view's message; parts are shown in this order. */
const SOURCES = ['connection', 'view'] as const;
export type MessageSource = (typeof SOURCES)[number];

/** What a TreeView offers for its message. */
export interface ViewWithMessage {
  message?: string | { value: string };
}

/**
 * A view's `message` is written by more than one feature: which control plane it shows (the
 * profiles feature, `connection`) and the view's own text (filters, off-contract records, `view`).
 * Each writes its part here; the view shows the parts together, in that order, so neither erases
 * the other.
 */
export class ViewMessages {
  private readonly parts = new WeakMap<ViewWithMessage, Partial<Record<MessageSource, string>>>();

  set(view: ViewWithMessage, source: MessageSource, text: string | undefined): void {
    let parts = this.parts.get(view);
    if (!parts) this.parts.set(view, (parts = {}));
    if (parts[source] === (text || undefined)) return;
    parts[source] = text || undefined;
    const message = SOURCES.map((name) => parts[name])
      .filter(Boolean)
      .join('\n');
    view.message = message || undefined;
  }
}
