import vscode = require('vscode');
import { maskSecrets } from '../../model/deploymentDetails';
import { deploymentLabel } from '../../model/deploymentPresentation';
import type { LoadedDeployment } from '../../model/deploymentList';

export const DEPLOYMENT_JSON_SCHEME = 'deployments-explorer-deployment';

/**
 * Read-only JSON documents of deployment records (documents of a content provider cannot be edited or
 * saved). Each holds a snapshot taken when it was opened: the whole record, unknown fields included,
 * secret values masked.
 */
export class DeploymentJsonProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? `// ${vscode.l10n.t('This deployment is no longer loaded. Open it again from the Deployments view.')}\n`;
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
    this.contents.set(uri.toString(), text);
    if (previous !== undefined && previous !== text) this.changed.fire(uri);
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
