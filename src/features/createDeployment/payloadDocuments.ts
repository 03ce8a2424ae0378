import * as vscode from 'vscode';
import { Repository } from '../../api';

const CONTEXT_KEY = 'deploymentsExplorer.payloadDocuments';

/**
 * The untitled JSON documents opened by "Edit Payload…". Their URIs are
 * published in a context key so the editor title shows "Create Deployment"
 * on exactly these documents.
 */
export class PayloadDocuments implements vscode.Disposable {
  private readonly documents = new Map<string, { repository: Repository }>();
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.workspace.onDidCloseTextDocument((document) => {
      if (this.documents.delete(document.uri.toString())) void this.publish();
    });
    void this.publish();
  }

  async open(repository: Repository, content: string): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument({ language: 'json', content });
    this.documents.set(document.uri.toString(), { repository });
    await this.publish();
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }

  repositoryOf(uri: vscode.Uri): Repository | undefined {
    return this.documents.get(uri.toString())?.repository;
  }

  /** After its deployment was created: the title action goes away, so it is not sent twice by accident. */
  release(uri: vscode.Uri): void {
    if (this.documents.delete(uri.toString())) void this.publish();
  }

  /** Another profile became active: these bodies were made for the old one, so they lose their Create action. */
  releaseAll(): void {
    if (this.documents.size === 0) return;
    this.documents.clear();
    void this.publish();
  }

  /** The open payload documents' URIs (what the context key holds). */
  uris(): string[] {
    return [...this.documents.keys()];
  }

  private async publish(): Promise<void> {
    await vscode.commands.executeCommand('setContext', CONTEXT_KEY, this.uris());
  }

  dispose(): void {
    this.subscription.dispose();
    this.documents.clear();
  }
}
