import vscode = require('vscode');
import { maskSecrets } from '../../model/deploymentDetails';
import { deploymentLabel } from '../../model/deploymentPresentation';
import type { LoadedDeployment } from '../../model/deploymentList';

export const DEPLOYMENT_JSON_SCHEME = 'deployments-explorer-deployment';

/** The most snapshots kept at once: past it, the one used least recently goes (VS Code may keep a closed document a while). */
const MAX_SNAPSHOTS = 50;

/**
 * Read-only JSON documents of deployment records (documents of a content provider cannot be edited or
 * saved). Each holds a snapshot taken when it was opened: the whole record, unknown fields included,
 * secret values masked. A snapshot is dropped when VS Code closes its document, and kept for at most
 * MAX_SNAPSHOTS documents; Show JSON takes a new one.
 */
export class DeploymentJsonProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** By URI, the one used least recently first. */
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly closed = vscode.workspace.onDidCloseTextDocument((document) => this.contents.delete(document.uri.toString()));

  provideTextDocumentContent(uri: vscode.Uri): string {
    const text = this.contents.get(uri.toString());
    if (text === undefined) return `// ${vscode.l10n.t('This deployment is no longer loaded. Open it again from the Deployments view.')}\n`;
    this.keep(uri.toString(), text);
    return text;
  }

  async show(record: LoadedDeployment): Promise<vscode.Uri> {
    const uri = this.snapshot(record);
    const document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(document, 'json');
    await vscode.window.showTextDocument(document, { preview: true });
    return uri;
  }

  async compare(left: LoadedDeployment, right: LoadedDeployment): Promise<void> {
    const title = vscode.l10n.t('{0} ↔ {1} (deployments)', deploymentLabel(left.deployment), deploymentLabel(right.deployment));
    await vscode.commands.executeCommand('vscode.diff', this.snapshot(left), this.snapshot(right), title, { preview: true });
  }

  /** One document per row: its key is in the URI. */
  private snapshot({ deployment, key }: LoadedDeployment): vscode.Uri {
    const name = deploymentLabel(deployment).replace(/[\\/:*?"<>|#%\s]+/g, '-');
    const uri = vscode.Uri.from({ scheme: DEPLOYMENT_JSON_SCHEME, path: `/${name}.json`, query: `key=${encodeURIComponent(key)}` });
    const text = `${JSON.stringify(maskSecrets(deployment), null, 2)}\n`;
    const previous = this.contents.get(uri.toString());
    this.keep(uri.toString(), text);
    if (previous !== undefined && previous !== text) this.changed.fire(uri);
    return uri;
  }

  /** Keeps `text` as the one used most recently, dropping the least recent past the bound. */
  private keep(uri: string, text: string): void {
    this.contents.delete(uri);
    this.contents.set(uri, text);
    for (const oldest of this.contents.keys()) {
      if (this.contents.size <= MAX_SNAPSHOTS) break;
      this.contents.delete(oldest);
    }
  }

  dispose(): void {
    this.closed.dispose();
    this.changed.dispose();
  }
}
