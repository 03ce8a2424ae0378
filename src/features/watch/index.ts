import vscode = require('vscode');
import { Deployment, isUuid, messageOf } from '../../api';
import { DEFAULT_WATCH_INTERVALS, WatchNotice, WatchScheduler } from '../../model/watchScheduler';
import { statusWords } from '../../model/deploymentStatus';
import { DEFAULT_IN_PROGRESS_STATUSES, DEFAULT_STALLED_AFTER_MS, entryLabel, formatDuration, readSavedEntries, WatchEntry } from '../../model/watchState';
import { readSettings, SECTION } from '../../platform/settings';
import { deploymentReferenceOf, DeploymentsFeature, Services } from '../../platform/services';
import { createWatchStatusBar, describeEntry } from './statusBar';
import { Commands } from '../../platform/commandIds';
import { headline } from '../../model/viewText';
import { sentence } from '../../api/text';
import { withoutUserInfo } from '../../api/baseUrl';

const STATE_KEY = 'deploymentsExplorer.watch';

/**
 * Watched and pinned deployments: one batched `deployment_ids` request per tick (model/watchScheduler.ts),
 * a status bar item, a notification when one settles, the Deployments rows updated in place. Saved per
 * workspace and control plane; nothing touches the network during activation (the first tick is a timer away).
 */
export function registerWatch(services: Services, deployments: DeploymentsFeature) {
  const { context, log } = services;
  const state = services.connection.scoped(context.workspaceState);
  let controlPlane = services.connection.controlPlane();
  const scheduler = new WatchScheduler(async (ids) => {
    const client = await services.connection.getClient();
    const page = await client.listDeployments({ deploymentIds: ids, limit: ids.length, offset: 0 });
    deployments.applyRecords(page.deployments);
    services.deploymentIndex.current().update(page.deployments, page.offContract);
    // A record off the API contract is still listed: followed by what the watch reads of it (read defensively, see
    // entryFields), never shown in the Deployments view in its place.
    const offContract = page.offContract.map(({ raw }) => raw).filter((raw): raw is Deployment => !!raw && typeof raw === 'object');
    return [...page.deployments, ...offContract];
  });
  scheduler.configure(readWatchSettings());
  scheduler.setFocused(vscode.window.state.focused);
  scheduler.replaceAll(readSavedEntries(state.get(STATE_KEY)));
  const statusBar = createWatchStatusBar(scheduler);

  const render = () => {
    statusBar.update();
    deployments.markWatched(scheduler.watched.map((entry) => entry.id));
    void vscode.commands.executeCommand('setContext', 'deploymentsExplorer.hasWatched', scheduler.watched.length > 0);
    void vscode.commands.executeCommand('setContext', 'deploymentsExplorer.hasPinned', scheduler.pinned.length > 0);
  };

  context.subscriptions.push(
    statusBar,
    { dispose: () => scheduler.dispose() },
    scheduler.onDidChange(() => {
      render();
      void state.update(STATE_KEY, scheduler.entries.length > 0 ? scheduler.entries.map((entry) => ({ ...entry })) : undefined);
    }),
    scheduler.onDidNotice((notice) => void announce(services, deployments, scheduler, notice)),
    vscode.window.onDidChangeWindowState((state) => scheduler.setFocused(state.focused)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.watch`)) scheduler.configure(readWatchSettings());
    }),
    services.connection.onDidChange(() => {
      const next = services.connection.controlPlane();
      if (next === controlPlane) return;
      controlPlane = next;
      log.info(`Watch: switched to the watched deployments of ${withoutUserInfo(next.split('|')[0]) || '(no base URL)'}`);
      scheduler.replaceAll(readSavedEntries(state.get(STATE_KEY)));
    }),
  );
  if (scheduler.entries.length > 0) render();

  const { commands } = services;
  /** The deployment a command was given, or one picked; refused unless its ID is a UUID. */
  const deploymentToFollow = async (arg: unknown, title: string) => {
    const deployment = deploymentOf(arg, deployments) ?? (await pickDeployment(services, deployments, title));
    // `deployment_ids` takes UUIDs only: refuse anything else before it makes every tick fail (and an entry without an ID).
    if (deployment && (typeof deployment.id !== 'string' || !isUuid(deployment.id.trim()))) {
      throw new Error(vscode.l10n.t('“{0}” is not a deployment ID (a UUID), so it cannot be followed.', String(deployment.id ?? '')));
    }
    return deployment;
  };
  /** Stop Watching and Unpin: the ID a command was given, or one picked among those `followed`. */
  const stopFollowing = (followed: () => readonly WatchEntry[], stop: (id: string) => boolean, title: string) => async (arg?: unknown) => {
    const given = deploymentOf(arg, deployments)?.id;
    const id = typeof given === 'string' ? given : (await pickEntry(followed(), title))?.id;
    return id ? stop(id) : false;
  };

  commands.register(Commands.watchDeployment, async (arg?: unknown) => {
    const deployment = await deploymentToFollow(arg, vscode.l10n.t('Watch Deployment'));
    if (!deployment) return undefined;
    const entry = scheduler.watch(deployment, 'manual')!;
    vscode.window.setStatusBarMessage(vscode.l10n.t('Watching deployment {0}', entryLabel(entry)), 3000);
    return entry.id;
  });

  commands.register(Commands.unwatchDeployment, stopFollowing(() => scheduler.watched, (id) => scheduler.unwatch(id), vscode.l10n.t('Stop Watching')));

  commands.register(Commands.pinDeployment, async (arg?: unknown) => {
    const deployment = await deploymentToFollow(arg, vscode.l10n.t('Pin to Status Bar'));
    return deployment && scheduler.pin(deployment)!.id;
  });

  commands.register(Commands.unpinDeployment, stopFollowing(() => scheduler.pinned, (id) => scheduler.unpin(id), vscode.l10n.t('Unpin from Status Bar')));

  commands.register(Commands.showWatched, async () => {
    const entry = await pickEntry(scheduler.entries, vscode.l10n.t('Watched Deployments'));
    if (!entry) return;
    const { id, name, customUrl } = entry;
    const actions: Array<vscode.QuickPickItem & { run: () => unknown }> = [
      { label: `$(eye) ${vscode.l10n.t('Reveal in Deployments')}`, run: () => reveal(deployments, id) },
      ...(customUrl ? [{ label: `$(globe) ${vscode.l10n.t('Open URL')}`, description: customUrl, run: () => openUrl(customUrl) }] : []),
      entry.watched
        ? { label: `$(eye-closed) ${vscode.l10n.t('Stop Watching')}`, run: () => scheduler.unwatch(id) }
        : { label: `$(eye) ${vscode.l10n.t('Watch')}`, run: () => scheduler.watch({ id, name }, 'manual') },
      entry.pinned
        ? { label: `$(pinned) ${vscode.l10n.t('Unpin from Status Bar')}`, run: () => scheduler.unpin(id) }
        : { label: `$(pin) ${vscode.l10n.t('Pin to Status Bar')}`, run: () => scheduler.pin({ id, name }) },
      { label: `$(refresh) ${vscode.l10n.t('Check Now')}`, run: () => scheduler.tick() },
    ];
    const action = await vscode.window.showQuickPick(actions, { title: entryLabel(entry), placeHolder: describeEntry(entry) });
    await action?.run();
  });

  return {
    scheduler,
    statusBar,
    watchCreated: (deployment: Deployment) => {
      if (scheduler.watch(deployment, 'auto')) log.info(`Watching new deployment ${deployment.name ?? deployment.id} until it settles`);
    },
    pin: (deployment: Deployment) => void scheduler.pin(deployment),
  };
}

/** One notification per event: settled, stalled, no longer listed, or the first failure of a streak. */
async function announce(services: Services, deployments: DeploymentsFeature, scheduler: WatchScheduler, notice: WatchNotice): Promise<void> {
  switch (notice.kind) {
    case 'settled': {
      const { entry } = notice;
      const name = entryLabel(entry);
      services.log.info(`Watch: ${name} settled as ${entry.status ?? '(no status)'}`);
      const show = vscode.l10n.t('Show');
      const openUrlAction = vscode.l10n.t('Open URL');
      const actions = entry.customUrl ? [show, openUrlAction] : [show];
      const ready = (entry.status ?? '').toUpperCase() === 'READY';
      const choice = ready
        ? await vscode.window.showInformationMessage(vscode.l10n.t('Deployment “{0}” is ready.', name), ...actions)
        : await vscode.window.showWarningMessage(
            entry.status?.trim()
              ? vscode.l10n.t('Deployment “{0}” is now “{1}” ({2}).', name, statusWords(entry.status), entry.status.trim())
              : vscode.l10n.t('Deployment “{0}” no longer has a status.', name),
            ...actions,
          );
      if (choice === show) await reveal(deployments, entry.id);
      else if (choice === openUrlAction && entry.customUrl) await openUrl(entry.customUrl);
      return;
    }
    case 'stalled': {
      const { entry } = notice;
      const name = entryLabel(entry);
      services.log.warn(`Watch: ${name} (${entry.id}) has had no change while in progress for the stall time; no longer counted as deploying`);
      const openConsole = vscode.l10n.t('Open in Web Console');
      const keepWatching = vscode.l10n.t('Keep Watching');
      const actions = readSettings().webConsoleUrl ? [openConsole, keepWatching] : [keepWatching];
      const controlPlane = services.connection.controlPlane();
      const quiet = formatDuration(Date.now() - (entry.quietSince ?? entry.since));
      const message =
        entry.latestRevisionId && entry.latestRevisionId !== entry.activeRevisionId
          ? vscode.l10n.t('Deployment “{0}” has not finished: its latest revision is not active, and nothing has changed for {1}. It may have failed to build or deploy.', name, quiet)
          : vscode.l10n.t('Deployment “{0}” has not finished: it has been “{1}” with no change for {2}.', name, statusWords(entry.status), quiet);
      const choice = await vscode.window.showWarningMessage(message, ...actions);
      // A notification answered after a switch of control plane must not follow this one's deployment there.
      if (choice === keepWatching && services.connection.controlPlane() === controlPlane) scheduler.keepWatching(entry);
      else if (choice === openConsole) await vscode.commands.executeCommand(Commands.openInWebConsole, { deploymentId: entry.id, name: entry.name });
      return;
    }
    case 'dropped': {
      const name = entryLabel(notice.entry);
      services.log.warn(`Watch: ${name} (${notice.entry.id}) is no longer listed; dropped`);
      services.deploymentIndex.current().remove([notice.entry.id]);
      void vscode.window.showWarningMessage(vscode.l10n.t('Deployment “{0}” is no longer listed, so it is no longer watched.', name));
      return;
    }
    case 'failed': {
      services.log.warn(`Watch: could not check the watched deployments: ${messageOf(notice.error)}`);
      if (!notice.firstInStreak) return;
      const showLog = vscode.l10n.t('Show Log');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Could not check the watched deployments: {0} Trying again, less often.', sentence(headline(messageOf(notice.error)))),
        showLog,
      );
      if (choice === showLog) services.log.show(true);
      return;
    }
    case 'recovered':
      services.log.info('Watch: checking deployments works again');
      return;
  }
}

function openUrl(url: string): Thenable<boolean> {
  return vscode.env.openExternal(vscode.Uri.parse(url, true));
}

async function reveal(deployments: DeploymentsFeature, id: string): Promise<void> {
  await vscode.commands.executeCommand('deploymentsExplorer.deployments.focus');
  const found = await deployments.reveal(id).catch(() => false);
  if (!found) void vscode.window.showInformationMessage(vscode.l10n.t('Deployment {0} is not in the Deployments view with the current filters.', id));
}

/** A tree row, a record or a deployment ID (looked up among the loaded records). */
function deploymentOf(arg: unknown, deployments: DeploymentsFeature): Deployment | { id: string } | undefined {
  if (typeof arg === 'string' && arg.trim()) {
    return deployments.loadedRecord(arg) ?? { id: arg.trim() };
  }
  if (!arg || typeof arg !== 'object') return undefined;
  const reference = deploymentReferenceOf(arg);
  if (reference) return { id: reference.deploymentId, name: reference.name };
  const row = (arg as { item?: { deployment?: Deployment } }).item?.deployment;
  if (row && typeof row === 'object') return row;
  const record = arg as Deployment;
  return typeof record.id === 'string' ? record : undefined;
}

function pickEntry(entries: readonly WatchEntry[], title: string): Promise<WatchEntry | undefined> {
  const items = entries.map((entry) => ({ label: entryLabel(entry), description: statusWords(entry.status) || undefined, detail: describeEntry(entry), value: entry }));
  return pickOne(items, vscode.l10n.t('No deployment is watched or pinned.'), { title });
}

/** The loaded records of the Deployments view that can be followed; the first page (100) when none is loaded yet. */
async function pickDeployment(services: Services, deployments: DeploymentsFeature, title: string): Promise<Deployment | undefined> {
  const followable = (records: readonly Deployment[]) => records.filter((d) => typeof d.id === 'string' && isUuid(d.id));
  let records = followable(deployments.loadedRecords());
  if (records.length === 0) {
    const listFirstPage = async (signal: AbortSignal) => (await services.connection.getClient()).listDeployments({ limit: 100, offset: 0 }, { signal });
    records = followable((await services.commands.withProgress(vscode.l10n.t('Loading deployments…'), listFirstPage)).deployments);
  }
  const items = records.map((deployment) => ({
    label: deployment.name || deployment.id!,
    description: statusWords(deployment.status) || undefined,
    detail: deployment.id!,
    value: deployment,
  }));
  return pickOne(items, vscode.l10n.t('There are no deployments to pick from.'), { title, matchOnDetail: true });
}

/** A quick pick of deployments; `none` is said instead when there are none. */
async function pickOne<T>(items: Array<vscode.QuickPickItem & { value: T }>, none: string, options: vscode.QuickPickOptions): Promise<T | undefined> {
  if (items.length === 0) {
    void vscode.window.showInformationMessage(none);
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Pick a deployment'), ...options }))?.value;
}

/** The `watch.*` settings, clamped to the bounds package.json declares (a hand-edited value must not poll in a loop). */
function readWatchSettings() {
  const config = vscode.workspace.getConfiguration(SECTION);
  const seconds = (name: string, min: number, max: number, fallbackMs: number) => {
    const value = config.get<number>(name);
    return typeof value === 'number' && Number.isFinite(value) ? Math.round(Math.min(max, Math.max(min, value)) * 1000) : fallbackMs;
  };
  const firstMs = seconds('watch.intervalSeconds', 0.5, 60, DEFAULT_WATCH_INTERVALS.firstMs);
  const maxMs = Math.max(firstMs, seconds('watch.maxIntervalSeconds', 1, 600, DEFAULT_WATCH_INTERVALS.maxMs));
  const pinnedMs = seconds('watch.pinnedIntervalSeconds', 1, 3600, DEFAULT_WATCH_INTERVALS.pinnedMs);
  const stalledAfterMinutes = config.get<number>('watch.stalledAfterMinutes');
  const stalledAfterMs =
    typeof stalledAfterMinutes === 'number' && Number.isFinite(stalledAfterMinutes) ? Math.max(1, stalledAfterMinutes) * 60_000 : DEFAULT_STALLED_AFTER_MS;
  const statuses = config.get<unknown>('watch.inProgressStatuses');
  const inProgressStatuses = Array.isArray(statuses)
    ? statuses.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim())
    : DEFAULT_IN_PROGRESS_STATUSES;
  return { intervals: { firstMs, maxMs, pinnedMs }, inProgressStatuses, stalledAfterMs };
}
