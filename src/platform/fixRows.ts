import * as vscode from 'vscode';
import { rowFixes, type FixActionKind } from '../model/fixActions';
import { fixActionCommand } from './commandRunner';

/** One fix worth a row under (or beside) an error row in a tree. */
export interface FixRow {
  readonly kind: FixActionKind;
  readonly command: vscode.Command;
}

/**
 * The fix rows of a failure, the same in every tree (Deployments and Integrations): the fixes that
 * change one thing (Set API Key…, Set Tenant ID…, a named setting), from `rowFixes`, each bound to
 * its command. Retry is the error row's own click, so it is never a row here.
 */
export function fixRows(error: unknown): FixRow[] {
  const rows: FixRow[] = [];
  for (const action of rowFixes(error)) {
    const command = fixActionCommand(action);
    if (command) rows.push({ kind: action.kind, command });
  }
  return rows;
}

/** The icon of a fix row: a key for the key and the tenant, a gear for a setting. */
export function fixRowIcon(kind: FixActionKind): vscode.ThemeIcon {
  return new vscode.ThemeIcon(kind === 'openSettings' ? 'gear' : 'key');
}
