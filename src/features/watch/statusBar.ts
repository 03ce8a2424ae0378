import * as vscode from 'vscode';
import { messageOf } from '../../api';
import { statusIcon } from '../../model/deploymentPresentation';
import { statusWithRawValue, statusWords } from '../../model/deploymentStatus';
import { WatchScheduler } from '../../model/watchScheduler';
import { entryLabel, formatDuration, WatchEntry } from '../../model/watchState';
import { Commands } from '../../platform/commandIds';

export const SHOW_WATCHED_COMMAND = Commands.showWatched;

/** What the item shows, decided from the scheduler's state (kept apart so tests can read it). */
interface StatusBarView {
  text: string;
  tooltip: string;
  accessibleLabel: string;
}

function describeStatusBar(scheduler: WatchScheduler, now = Date.now()): StatusBarView | undefined {
  const entries = scheduler.entries;
  if (entries.length === 0) return undefined;
  const failure = scheduler.failure;
  const warning = failure ? '$(warning) ' : '';
  const inProgress = scheduler.inProgress;
  let text: string;
  let accessibleLabel: string;
  if (inProgress.length > 0) {
    text = `${warning}$(loading~spin) ${vscode.l10n.t('{0} deploying', inProgress.length)}`;
    accessibleLabel = vscode.l10n.t('{0} deployments in progress', inProgress.length);
  } else {
    const pinned = scheduler.pinned;
    const shown = pinned[0] ?? entries[0];
    const others = (pinned.length > 0 ? pinned.length : entries.length) - 1;
    const icon = statusIcon(shown.status).id;
    text = `${warning}$(${icon}) ${entryLabel(shown)} ${statusWords(shown.status) || '?'}${others > 0 ? ` +${others}` : ''}`;
    accessibleLabel = vscode.l10n.t('Deployment {0}: {1}', entryLabel(shown), statusWords(shown.status) || vscode.l10n.t('no status'));
  }
  const lines: string[] = [];
  if (failure) {
    lines.push(vscode.l10n.t('Could not check the deployments ({0} tries): {1}', failure.streak, messageOf(failure.error).split('\n')[0]));
    lines.push('');
  }
  for (const entry of entries) lines.push(describeEntry(entry, now));
  lines.push('', vscode.l10n.t('Click to reveal, stop watching or unpin.'));
  return { text, tooltip: lines.join('\n'), accessibleLabel };
}

/** One line of the tooltip: the status in words with its raw value, how long it has been so, how it is followed. */
export function describeEntry(entry: WatchEntry, now = Date.now()): string {
  const how = [entry.watched ? vscode.l10n.t('watching') : undefined, entry.pinned ? vscode.l10n.t('pinned') : undefined]
    .filter(Boolean)
    .join(', ');
  const status = statusWithRawValue(entry.status) || vscode.l10n.t('no status');
  return vscode.l10n.t('{0}: {1} for {2} ({3})', entryLabel(entry), status, formatDuration(now - entry.since), how);
}

/** The one status bar item: created when first needed, hidden when nothing is followed. */
export class WatchStatusBar implements vscode.Disposable {
  private item: vscode.StatusBarItem | undefined;

  constructor(private readonly scheduler: WatchScheduler) {}

  /** What the item shows now (undefined when hidden); for tests. */
  get current(): { text: string; tooltip: string; visible: boolean } | undefined {
    if (!this.item) return undefined;
    const tooltip = this.item.tooltip;
    return { text: this.item.text, tooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''), visible: this.shown };
  }
  private shown = false;

  update(): void {
    const view = describeStatusBar(this.scheduler);
    if (!view) {
      this.item?.hide();
      this.shown = false;
      return;
    }
    if (!this.item) {
      this.item = vscode.window.createStatusBarItem('deploymentsExplorer.watch', vscode.StatusBarAlignment.Left, 10);
      this.item.name = vscode.l10n.t('Watched Deployments');
      this.item.command = SHOW_WATCHED_COMMAND;
    }
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.accessibilityInformation = { label: view.accessibleLabel };
    this.item.backgroundColor = this.scheduler.failure ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
    this.shown = true;
  }

  dispose(): void {
    this.item?.dispose();
  }
}
