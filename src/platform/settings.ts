import * as vscode from 'vscode';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../api/query';
import { isUuid } from '../api/vocabulary';
import type { IntegrationSetting } from '../model/repositoryCatalog';

export const SECTION = 'deploymentsExplorer';

/**
 * The active profile's own integrations and create defaults (undefined while
 * only 0.1.0's implicit profile exists: then the top-level settings hold them).
 * Set once by the connection (platform/connection.ts).
 */
export interface ProfileScopedSettings {
  integrations(): unknown[] | undefined;
  createDefaults(): Record<string, unknown> | undefined;
  /** Writes the active profile's integrations; false when it has none of its own (the top-level setting is used). */
  writeIntegrations(integrations: IntegrationSetting[]): Promise<boolean>;
}

let profileSettings: ProfileScopedSettings | undefined;

export function useProfileSettings(source: ProfileScopedSettings): vscode.Disposable {
  profileSettings = source;
  return new vscode.Disposable(() => {
    if (profileSettings === source) profileSettings = undefined;
  });
}

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
    integrations: readIntegrations(profileSettings?.integrations() ?? config.get<unknown>('integrations')),
    discoverIntegrations: config.get<boolean>('discoverIntegrations', true),
    caFile: config.get<string>('caFile', '').trim(),
    strictSSL: config.get<boolean>('strictSSL', true),
    autoRefreshSeconds: clampInt(config.get<number>('autoRefreshSeconds'), 0, 3600, 0),
    webConsoleUrl: config.get<string>('webConsoleUrl', '').trim(),
    createDefaults:
      profileSettings?.createDefaults() ??
      (defaults && typeof defaults === 'object' && !Array.isArray(defaults) ? (defaults as Record<string, unknown>) : {}),
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
function integrationsTarget(): vscode.ConfigurationTarget {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect('integrations');
  if (inspected?.workspaceFolderValue !== undefined) return vscode.ConfigurationTarget.WorkspaceFolder;
  if (inspected?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
  return vscode.ConfigurationTarget.Global;
}

export async function writeIntegrations(integrations: IntegrationSetting[]): Promise<void> {
  if (await profileSettings?.writeIntegrations(integrations)) return;
  await vscode.workspace.getConfiguration(SECTION).update('integrations', integrations, integrationsTarget());
}
