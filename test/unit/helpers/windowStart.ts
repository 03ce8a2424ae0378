/**
 * A window start in plain node: the extension (compiled, or the release
 * bundle) activated against the fake `vscode` module, then asked for what a
 * workbench asks when it shows the Deployments container: the root of each
 * view, and the root again whenever a view says its data changed. Answers
 * what the control plane (the stand-in) received meanwhile.
 */
import { extensionContext, resetFake, TreeDataProvider, window, workspace } from './fakeVscodeHost';
import type { RecordedRequest, StandIn } from '../../server/standIn';

export interface WindowStart {
  requests: RecordedRequest[];
  /** The rows each view showed last, by view ID. */
  rows: Map<string, unknown[]>;
  dispose(): void;
}

/** `extensionModule`: a path to require (e.g. dist/extension.js); default the compiled src/extension. */
export async function simulateWindowStart(standIn: StandIn, options: { extensionModule?: string; settings?: Record<string, unknown>; idleMs?: number } = {}): Promise<WindowStart> {
  resetFake();
  workspace.set('deploymentsExplorer.baseUrl', standIn.url);
  for (const [key, value] of Object.entries(options.settings ?? {})) workspace.set(`deploymentsExplorer.${key}`, value);
  const context = extensionContext();
  await context.secrets.store('deploymentsExplorer.apiKey', standIn.apiKey ?? '');
  standIn.reset();

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const extension = require(options.extensionModule ?? '../../../src/extension') as { activate(context: unknown): unknown; deactivate?(): void };
  await extension.activate(context);

  const rows = new Map<string, unknown[]>();
  const pending = new Set<Promise<unknown>>();
  const askRoot = (viewId: string, provider: TreeDataProvider<unknown>) => {
    const asked = Promise.resolve(provider.getChildren()).then((children) => {
      const list = (children ?? []) as unknown[];
      for (const child of list) provider.getTreeItem(child);
      rows.set(viewId, list);
    });
    pending.add(asked);
    void asked.finally(() => pending.delete(asked));
  };
  const subscriptions: Array<{ dispose(): void }> = [];
  for (const [viewId, { treeDataProvider: provider }] of window.treeViews) {
    const subscription = provider.onDidChangeTreeData?.((element) => {
      if (element === undefined || element === null) askRoot(viewId, provider);
    });
    if (subscription) subscriptions.push(subscription);
    askRoot(viewId, provider);
  }
  // Settle: until nothing is pending and the stand-in heard nothing new for idleMs.
  const idleMs = options.idleMs ?? 300;
  let seen = -1;
  for (;;) {
    while (pending.size > 0) await Promise.all([...pending]);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    if (pending.size === 0 && standIn.requests.length === seen) break;
    seen = standIn.requests.length;
  }
  return {
    requests: [...standIn.requests],
    rows,
    dispose: () => {
      for (const subscription of subscriptions) subscription.dispose();
      for (const disposable of context.subscriptions) disposable.dispose();
      extension.deactivate?.();
    },
  };
}
