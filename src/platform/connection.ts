import * as vscode from 'vscode';
import type { ControlPlaneClient } from '../api';
import { loadClient } from '../api/lazy';
import { ApiKeyStore, readSettings, SECTION } from './settings';
import { isPlainHttpToRemote } from '../model/urls';

const WARNED_PLAIN_HTTP = 'deploymentsExplorer.warnedPlainHttp';

/** The settings the client is built from: a change to any rebuilds it. */
const CONNECTION_SETTINGS = [
  ...['baseUrl', 'apiKeyHeader', 'tenantId', 'tenantHeader', 'requestTimeoutMs', 'caFile', 'strictSSL'].map((name) => `${SECTION}.${name}`),
  'http.proxy',
  'http.proxyStrictSSL',
  'http.noProxy',
];

/**
 * Owns the one API client. It is built lazily (no network in activate) from
 * settings, the stored key and VS Code's proxy settings, and rebuilt when any
 * of them changes.
 */
export class ConnectionManager implements vscode.Disposable {
  private client: ControlPlaneClient | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Settings or key changed: views should reload. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly apiKeys: ApiKeyStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (CONNECTION_SETTINGS.some((setting) => event.affectsConfiguration(setting))) void this.reset('settings changed');
      }),
      apiKeys.onDidChange(() => void this.reset('API key changed')),
    );
    void this.updateContext();
  }

  /** The client for the current settings; throws InvalidInputError when they cannot work. */
  async getClient(): Promise<ControlPlaneClient> {
    if (this.client) return this.client;
    const settings = readSettings();
    const apiKey = await this.apiKeys.get();
    const http = vscode.workspace.getConfiguration('http');
    const proxyStrictSSL = http.get<boolean>('proxyStrictSSL', true);
    const noProxy = http.get<string[]>('noProxy', []);
    const { ControlPlaneClient: Client } = loadClient();
    this.client = new Client({
      baseUrl: settings.baseUrl,
      apiKey,
      apiKeyHeader: settings.apiKeyHeader,
      tenantId: settings.tenantId,
      tenantHeader: settings.tenantHeader,
      timeoutMs: settings.requestTimeoutMs,
      proxyUrl: http.get<string>('proxy', '') || undefined,
      noProxy: Array.isArray(noProxy) ? noProxy.join(',') : undefined,
      strictSSL: settings.strictSSL && proxyStrictSSL,
      caFile: settings.caFile || undefined,
      userAgent: `deployments-explorer/${this.context.extension.packageJSON.version} VSCode/${vscode.version}`,
      logger: this.log,
    });
    this.warnAboutPlainHttp(settings.baseUrl, !!apiKey);
    return this.client;
  }

  private async reset(reason: string): Promise<void> {
    const old = this.client;
    this.client = undefined;
    this.log.info(`Connection reset: ${reason}`);
    await this.updateContext();
    this.changed.fire();
    void old?.dispose().catch(() => undefined);
  }

  /** A base URL and a key are set: the views can load (the welcome views say what is missing otherwise). */
  async isConfigured(): Promise<boolean> {
    return !!readSettings().baseUrl && !!(await this.apiKeys.get());
  }

  async updateContext(): Promise<void> {
    const hasKey = !!(await this.apiKeys.get());
    await vscode.commands.executeCommand('setContext', 'deploymentsExplorer.hasBaseUrl', !!readSettings().baseUrl);
    await vscode.commands.executeCommand('setContext', 'deploymentsExplorer.hasApiKey', hasKey);
  }

  private warnAboutPlainHttp(baseUrl: string, hasKey: boolean): void {
    if (!hasKey || !isPlainHttpToRemote(baseUrl)) return;
    const warned = this.context.globalState.get<string[]>(WARNED_PLAIN_HTTP, []);
    if (warned.includes(baseUrl)) return;
    void this.context.globalState.update(WARNED_PLAIN_HTTP, [...warned, baseUrl]);
    void vscode.window
      .showWarningMessage(
        `The base URL ${baseUrl} uses plain HTTP: your API key travels unencrypted. Use https:// unless this network is trusted.`,
        'Open Settings',
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.baseUrl`);
      });
  }

  dispose(): void {
    void this.client?.dispose().catch(() => undefined);
    vscode.Disposable.from(...this.disposables).dispose();
  }
}
