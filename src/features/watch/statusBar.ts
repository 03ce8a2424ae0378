import vscode = require('vscode');
import { messageOf } from '../../api';
import { statusIcon } from '../../model/deploymentPresentation';
import { statusWithRawValue, statusWords } from '../../model/deploymentStatus';
import { WatchScheduler } from '../../model/watchScheduler';
import { entryLabel, formatDuration, WatchEntry } from '../../model/watchState';
import { Commands } from '../../platform/commandIds';

/** One line of the tooltip: the status in words with its raw value, how long it has been so, how it is followed. */
export function describeEntry(entry: WatchEntry): string {
  const how = [entry.watched ? vscode.l10n.t('watching') : undefined, entry.pinned ? vscode.l10n.t('pinned') : undefined]
    .filter(Boolean)
    .join(', ');
  const status = statusWithRawValue(entry.status) || vscode.l10n.t('no status');
  return vscode.l10n.t('{0}: {1} for {2} ({3})', entryLabel(entry), status, formatDuration(Date.now() - entry.since), how);
}

/** The one status bar item, hidden while nothing is followed. */
export class WatchStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('deploymentsExplorer.watch', vscode.StatusBarAlignment.Left, 10);

  constructor(private readonly scheduler: WatchScheduler) {
    this.item.name = vscode.l10n.t('Watched Deployments');
    this.item.command = Commands.showWatched;
  }

  /** What the item shows now. */
  get current(): { text: string; tooltip: string; visible: boolean } {
    return { text: this.item.text, tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : '', visible: this.scheduler.entries.length > 0 };
  }

  update(): void {
    const { entries, failure, inProgress } = this.scheduler;
    if (entries.length === 0) {
      this.item.hide();
      return;
    }
    const warning = failure ? '$(warning) ' : '';
    if (inProgress.length > 0) {
      this.item.text = `${warning}$(loading~spin) ${vscode.l10n.t('{0} deploying', inProgress.length)}`;
      this.item.accessibilityInformation = {
        label: inProgress.length === 1 ? vscode.l10n.t('1 deployment in progress') : vscode.l10n.t('{0} deployments in progress', inProgress.length),
      };
    } else {
      const pinned = this.scheduler.pinned;
      const shown = pinned[0] ?? entries[0];
      const others = (pinned.length > 0 ? pinned.length : entries.length) - 1;
      const icon = statusIcon(shown.status).id;
      this.item.text = `${warning}$(${icon}) ${entryLabel(shown)} ${statusWords(shown.status) || '?'}${others > 0 ? ` +${others}` : ''}`;
      const label = vscode.l10n.t('Deployment {0}: {1}', entryLabel(shown), statusWords(shown.status) || vscode.l10n.t('no status'));
      this.item.accessibilityInformation = { label };
    }
    const lines: string[] = [];
    if (failure) {
      const reason = messageOf(failure.error).split('\n')[0];
      lines.push(
        failure.streak === 1
          ? vscode.l10n.t('Could not check the deployments (1 try): {0}', reason)
          : vscode.l10n.t('Could not check the deployments ({0} tries): {1}', failure.streak, reason),
        '',
      );
    }
    for (const entry of entries) lines.push(describeEntry(entry));
    lines.push('', vscode.l10n.t('Click to reveal, stop watching or unpin.'));
    this.item.tooltip = lines.join('\n');
    this.item.backgroundColor = failure ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
