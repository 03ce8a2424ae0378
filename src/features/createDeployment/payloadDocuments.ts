import vscode = require('vscode');
import { Repository } from '../../api';
import { JsonObject } from '../../model/createPayload';

/**
 * The untitled JSON documents opened by "Edit Payload…" (`<name>.deployment.json`), with the repository each was
 * made for. Their URIs are published in a context key so the editor title shows "Create Deployment" on exactly
 * these documents.
 */
export class PayloadDocuments implements vscode.Disposable {
  private readonly documents = new Map<string, Repository>();
  // Until the first is opened the context key is unset, which `resource in …` reads as no document.
  private readonly subscription = vscode.workspace.onDidCloseTextDocument((document) => this.release(document.uri));

  /**
   * An untitled `<name>.deployment.json`: the name matches the JSON schema this extension
   * contributes (jsonValidation), so the editor completes, describes and checks every field.
   */
  async open(repository: Repository, body: JsonObject, name: string): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument(this.freeUri(name || repository.name));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(0, 0), `${JSON.stringify(body, null, 2)}\n`);
    await vscode.workspace.applyEdit(edit);
    if (document.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(document, 'json');
    this.documents.set(document.uri.toString(), repository);
    await this.publish();
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }

  /** An untitled URI no open document has: `storefront.deployment.json`, then `storefront-2.deployment.json`, … */
  private freeUri(name: string): vscode.Uri {
    const base = name.replace(/[^\w.-]+/g, '-') || 'deployment';
    const open = new Set(vscode.workspace.textDocuments.map((document) => document.uri.toString()));
    for (let n = 1; ; n++) {
      const uri = vscode.Uri.from({ scheme: 'untitled', path: `/${n === 1 ? base : `${base}-${n}`}.deployment.json` });
      if (!open.has(uri.toString())) return uri;
    }
  }

  repositoryOf(uri: vscode.Uri): Repository | undefined {
    return this.documents.get(uri.toString());
  }

  /** Closed, or its deployment was created: the title action goes away, so it is not sent twice by accident. */
  release(uri: vscode.Uri): void {
    if (this.documents.delete(uri.toString())) void this.publish();
  }

  /** Another profile became active: these bodies were made for the old one, so they lose their Create action. */
  releaseAll(): void {
    this.documents.clear();
    void this.publish();
  }

  private async publish(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'deploymentsExplorer.payloadDocuments', [...this.documents.keys()]);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
