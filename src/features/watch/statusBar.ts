import vscode = require('vscode');
import { messageOf } from '../../api';
import { statusIcon } from '../../model/deploymentPresentation';
import { statusWithRawValue, statusWords } from '../../model/deploymentStatus';
import { WatchScheduler } from '../../model/watchScheduler';
import { entryLabel, formatDuration, WatchEntry } from '../../model/watchState';
import { Commands } from '../../platform/commandIds';
import { headline } from '../../model/viewText';

/** One line of the tooltip: the status in words with its raw value, how long it has been so, how it is followed. */
export function describeEntry(entry: WatchEntry): string {
  const how = [
    entry.watched ? vscode.l10n.t('watching') : undefined,
    entry.pinned ? vscode.l10n.t('pinned') : undefined,
    entry.stalled ? vscode.l10n.t('stalled: not finished, no change for {0}', formatDuration(Date.now() - (entry.quietSince ?? entry.since))) : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const status = statusWithRawValue(entry.status) || vscode.l10n.t('no status');
  return vscode.l10n.t('{0}: {1} for {2} ({3})', entryLabel(entry), status, formatDuration(Date.now() - entry.since), how);
}

/** The one status bar item, hidden while nothing is followed; `current` is what it shows now. */
export function createWatchStatusBar(scheduler: WatchScheduler) {
  const item = vscode.window.createStatusBarItem('deploymentsExplorer.watch', vscode.StatusBarAlignment.Left, 10);
  item.name = vscode.l10n.t('Watched Deployments');
  item.command = Commands.showWatched;
  const update = (): void => {
    const { entries, failure, inProgress } = scheduler;
    if (entries.length === 0) {
      item.hide();
      return;
    }
    const warning = failure ? '$(warning) ' : '';
    if (inProgress.length > 0) {
      item.text = `${warning}$(loading~spin) ${vscode.l10n.t('{0} deploying', inProgress.length)}`;
      item.accessibilityInformation = {
        label: inProgress.length === 1 ? vscode.l10n.t('1 deployment in progress') : vscode.l10n.t('{0} deployments in progress', inProgress.length),
      };
    } else {
      const pinned = scheduler.pinned;
      const shown = pinned[0] ?? entries[0];
      const others = (pinned.length > 0 ? pinned.length : entries.length) - 1;
      // A stalled one says so rather than its status: "Ready" would claim the rollout landed.
      const icon = shown.stalled ? 'debug-pause' : statusIcon(shown.status).id;
      const words = shown.stalled ? vscode.l10n.t('stalled') : statusWords(shown.status);
      item.text = `${warning}$(${icon}) ${entryLabel(shown)} ${words || '?'}${others > 0 ? ` +${others}` : ''}`;
      const label = vscode.l10n.t('Deployment {0}: {1}', entryLabel(shown), words || vscode.l10n.t('no status'));
      item.accessibilityInformation = { label };
    }
    const lines: string[] = [];
    if (failure) {
      const reason = headline(messageOf(failure.error));
      lines.push(
        failure.streak === 1
          ? vscode.l10n.t('Could not check the deployments (1 try): {0}', reason)
          : vscode.l10n.t('Could not check the deployments ({0} tries): {1}', failure.streak, reason),
        '',
      );
    }
    for (const entry of entries) lines.push(describeEntry(entry));
    lines.push('', vscode.l10n.t('Click to reveal, stop watching or unpin.'));
    item.tooltip = lines.join('\n');
    item.backgroundColor = failure ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.show();
  };
  return {
    get current(): { text: string; tooltip: string; visible: boolean } {
      return { text: item.text, tooltip: typeof item.tooltip === 'string' ? item.tooltip : '', visible: scheduler.entries.length > 0 };
    },
    update,
    dispose: () => item.dispose(),
  };
}
