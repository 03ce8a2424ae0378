import vscode = require('vscode');
import type { RecordProblem } from '../api';
import { messageOf } from '../api/errors';
import { problemLine, problemWords } from '../model/fieldNames';
import type { FixRow } from '../model/fixActions';
import { fixAction } from './commandRunner';

// The rows both trees show alike: each tree words their labels; how they look and act is decided here.

/** What the caller words of a paging or error row; the rest of the row is set as given. */
interface WordedRow {
  id: string;
  label: string;
  contextValue: string;
  accessibilityLabel: string;
}

/** The last row of a list shown a page at a time; without a command, the next page is loading. */
export function pagingItem(row: WordedRow & { description?: string; tooltip?: string; command?: vscode.Command }): vscode.TreeItem {
  const { label, accessibilityLabel, ...shown } = row;
  const item = Object.assign(new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None), shown);
  item.iconPath = new vscode.ThemeIcon(row.command ? 'ellipsis' : 'loading~spin');
  item.accessibilityInformation = { label: accessibilityLabel };
  return item;
}

/** The mark of a failure, on an error row and on the row whose children failed to load. */
export function errorIcon(): vscode.ThemeIcon {
  return new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
}

/** A failure in place of rows: its message in the tooltip, clicking it (`command`) retries. */
export function errorItem(row: WordedRow & { description: string; error: unknown; command: vscode.Command }): vscode.TreeItem {
  const { label, error, accessibilityLabel, ...shown } = row;
  const item = Object.assign(new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None), shown);
  item.tooltip = new vscode.MarkdownString().appendText(messageOf(error)).appendMarkdown(`\n\n${vscode.l10n.t('Click to retry.')}`);
  item.iconPath = errorIcon();
  item.accessibilityInformation = { label: accessibilityLabel };
  return item;
}

/** A fix beside an error row (Set API Key…, Set Tenant ID…, a named setting, Check Connection): a key, a gear for a setting, a pulse. */
export function fixItem(row: FixRow): vscode.TreeItem {
  const { title, command } = fixAction(row.action);
  const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.None);
  item.id = row.id;
  const { kind } = row.action;
  item.iconPath = new vscode.ThemeIcon(kind === 'openSettings' ? 'gear' : kind === 'checkConnection' ? 'pulse' : 'key');
  item.command = command;
  item.contextValue = 'fix';
  item.accessibilityInformation = { label: title };
  return item;
}

/**
 * A listed record that does not match the API contract: marked, each field at fault named (in words
 * in the description, with its path in the tooltip), and `note` saying what can still be done with it.
 */
export function offContractItem(row: {
  id: string;
  label: string;
  problems: readonly RecordProblem[];
  note: string;
  contextValue: string;
  collapsible: boolean;
}): vscode.TreeItem {
  const { label, problems } = row;
  const item = new vscode.TreeItem(label, row.collapsible ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = row.id;
  item.description = vscode.l10n.t('does not match the API contract ({0})', problems.map(problemWords).join(', '));
  item.iconPath = new vscode.ThemeIcon('bracket-error', new vscode.ThemeColor('list.warningForeground'));
  item.contextValue = row.contextValue;
  const tooltip = new vscode.MarkdownString().appendMarkdown('**').appendText(vscode.l10n.t('Does not match the API contract')).appendMarkdown('**\n\n');
  for (const problem of problems) {
    tooltip.appendText(`${problemWords(problem)}: ${problem.message}`);
    if (problem.path) tooltip.appendMarkdown(` (\`${problem.path.replace(/`/g, "'")}\`)`);
    tooltip.appendMarkdown('  \n');
  }
  item.tooltip = tooltip.appendMarkdown('\n').appendText(row.note);
  item.accessibilityInformation = {
    label: vscode.l10n.t('{0}: does not match the API contract: {1}', label, problems.map(problemLine).join('; ')),
    role: 'treeitem',
  };
  return item;
}
