import vscode = require('vscode');

/** Copies `text` and says so briefly in the status bar ("Copied deployment ID …"). */
export async function copyAndSay(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', what), 3000);
}
