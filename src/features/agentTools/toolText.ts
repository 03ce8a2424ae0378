import vscode = require('vscode');
import { isControlPlaneError, messageOf } from '../../api/errors';
import { fixActionsFor } from '../../model/fixActions';
import { fixAction, isCancellation } from '../../platform/commandRunner';

/** A tool's answer: text parts only (a JSON data part makes VS Code 1.100's invokeTool throw "Invalid MIME type"). */
export function textResult(...parts: string[]): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult(parts.filter(Boolean).map((part) => new vscode.LanguageModelTextPart(part)));
}

/** Records for the model: JSON in a fenced block, inside a text part. */
export function jsonBlock(value: unknown): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** A command as the user finds it in the palette: “Deployments: Set API Key…”. */
export function commandName(title: string): string {
  return `“${vscode.l10n.t('Deployments')}: ${title}”`;
}

/** A call the tool cannot carry out as asked; its message says why and what to do instead (shown as it is). */
export class ToolRefusal extends Error {}

/**
 * What went wrong, and what to do next, for the model to act on or tell the user: the same fixes the views offer
 * (fixActionsFor), as the commands the user runs. Never a stack; cancellation is thrown on as VS Code's own.
 */
export function errorText(error: unknown): string {
  if (isCancellation(error)) throw new vscode.CancellationError();
  if (error instanceof ToolRefusal) return error.message;
  const message = messageOf(error).split('\n').join(' ');
  const steps = fixActionsFor(error).flatMap((action) => {
    if (action.kind === 'retry') return [vscode.l10n.t('call the tool again later')];
    if (action.kind === 'showLog') return [vscode.l10n.t('the user can read the details with {0}', commandName(fixAction(action).title))];
    if (action.kind === 'openSettings') return [vscode.l10n.t('ask the user to check the setting {0}', action.setting ?? 'deploymentsExplorer')];
    return [vscode.l10n.t('ask the user to run {0}', commandName(fixAction(action).title))];
  });
  const next = steps.length > 0 ? ` ${vscode.l10n.t('Next: {0}.', steps.join('; '))}` : '';
  return isControlPlaneError(error) ? `${message}${next}` : `${vscode.l10n.t('Failed: {0}', message)}${next}`;
}
