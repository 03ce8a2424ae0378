/** Who writes a part of a view's message; parts are shown in this order. */
const SOURCES = ['connection', 'view'] as const;
type MessageSource = (typeof SOURCES)[number];

/**
 * A view's `message` is written by more than one feature: which control plane it shows (the profiles
 * feature, `connection`) and the view's own text (filters, off-contract records, `view`). Each writes
 * its part here; the view shows the parts together, in that order, so neither erases the other.
 */
export class ViewMessages {
  private readonly parts = new WeakMap<object, Partial<Record<MessageSource, string>>>();

  set(view: { message?: string | { value: string } }, source: MessageSource, text: string | undefined): void {
    const parts = this.parts.get(view) ?? {};
    if (parts[source] === (text || undefined)) return;
    parts[source] = text || undefined;
    this.parts.set(view, parts);
    const message = SOURCES.map((name) => parts[name])
      .filter(Boolean)
      .join('\n');
    view.message = message || undefined;
  }
}
