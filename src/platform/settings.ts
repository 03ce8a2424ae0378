import * as vscode from 'vscode';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../api/query';
import { isUuid } from '../api/vocabulary';
import type { IntegrationSetting } from '../model/repositoryCatalog';

export const SECTION = 'deploymentsExplorer';
export const API_KEY_SECRET = 'deploymentsExplorer.apiKey';
export const API_KEY_ENV = 'DEPLOYMENTS_EXPLORER_API_KEY';

export type { IntegrationSetting };

export interface ExtensionSettings {
  baseUrl: string;
  apiKeyHeader: string;
  tenantId: string;
  tenantHeader: string;
  requestTimeoutMs: number;
  pageSize: number;
  integrations: IntegrationSetting[];
  discoverIntegrations: boolean;
  caFile: string;
  strictSSL: boolean;
  autoRefreshSeconds: number;
  webConsoleUrl: string;
  createDefaults: Record<string, unknown>;
}

export function readSettings(): ExtensionSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const defaults = config.get<unknown>('createDeployment.defaults');
  return {
    baseUrl: config.get<string>('baseUrl', '').trim(),
    apiKeyHeader: config.get<string>('apiKeyHeader', '').trim() || 'X-Api-Key',
    tenantId: config.get<string>('tenantId', '').trim(),
    tenantHeader: config.get<string>('tenantHeader', '').trim() || 'X-Tenant-Id',
    requestTimeoutMs: clampInt(config.get<number>('requestTimeoutMs'), 1000, 600_000, 30_000),
    pageSize: clampInt(config.get<number>('pageSize'), 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    integrations: readIntegrations(config.get<unknown>('integrations')),
    discoverIntegrations: config.get<boolean>('discoverIntegrations', true),
    caFile: config.get<string>('caFile', '').trim(),
    strictSSL: config.get<boolean>('strictSSL', true),
    autoRefreshSeconds: clampInt(config.get<number>('autoRefreshSeconds'), 0, 3600, 0),
    webConsoleUrl: config.get<string>('webConsoleUrl', '').trim(),
    createDefaults: defaults && typeof defaults === 'object' && !Array.isArray(defaults) ? (defaults as Record<string, unknown>) : {},
  };
}

/** Keeps the well-formed entries; a hand-edited bad entry must not break the view. */
function readIntegrations(value: unknown): IntegrationSetting[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const result: IntegrationSetting[] = [];
  for (const entry of value) {
    const id = typeof entry === 'string' ? entry : (entry as { id?: unknown })?.id;
    if (typeof id !== 'string' || !isUuid(id.trim())) continue;
    const key = id.trim().toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    const label = (entry as { label?: unknown })?.label;
    result.push(typeof label === 'string' && label.trim() ? { id: id.trim(), label: label.trim() } : { id: id.trim() });
  }
  return result;
}

function clampInt(value: number | undefined, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** Where in settings the integrations list lives: workspace when it is set there, else user. */
export function integrationsTarget(): vscode.ConfigurationTarget {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect('integrations');
  if (inspected?.workspaceFolderValue !== undefined) return vscode.ConfigurationTarget.WorkspaceFolder;
  if (inspected?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
  return vscode.ConfigurationTarget.Global;
}

export async function writeIntegrations(integrations: IntegrationSetting[]): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('integrations', integrations, integrationsTarget());
}

/** The API key: SecretStorage first, then the environment variable (CI and scripted set-ups). */
export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    // Fires for changes made in other windows too.
    this.subscription = secrets.onDidChange((event) => {
      if (event.key === API_KEY_SECRET) this.changed.fire();
    });
  }

  async get(): Promise<string | undefined> {
    const stored = (await this.secrets.get(API_KEY_SECRET))?.trim();
    return stored || process.env[API_KEY_ENV]?.trim() || undefined;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(API_KEY_SECRET, key.trim());
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
