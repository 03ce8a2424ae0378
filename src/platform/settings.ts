import vscode = require('vscode');
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../api/query';
import { isUuid } from '../api/vocabulary';
import type { IntegrationSetting } from '../model/repositoryCatalog';

export const SECTION = 'deploymentsExplorer';

/** The settings of the section that are no profile's (the connection, integrations and create defaults are: see ProfileStore). */
export interface ExtensionSettings {
  requestTimeoutMs: number;
  pageSize: number;
  discoverIntegrations: boolean;
  autoRefreshSeconds: number;
  webConsoleUrl: string;
  /** How many deployments This Workspace looks at before it asks to go on. */
  workspaceScanLimit: number;
}

export function readSettings(): ExtensionSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    requestTimeoutMs: clampInt(config.get<number>('requestTimeoutMs'), 1000, 600_000, 30_000),
    pageSize: clampInt(config.get<number>('pageSize'), 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    discoverIntegrations: config.get<boolean>('discoverIntegrations', true),
    autoRefreshSeconds: clampInt(config.get<number>('autoRefreshSeconds'), 0, 3600, 0),
    webConsoleUrl: config.get<string>('webConsoleUrl', '').trim(),
    workspaceScanLimit: clampInt(config.get<number>('workspace.scanLimit'), 100, 1_000_000, 5000),
  };
}

/** The well-formed entries of an integrations setting, each once; a hand-edited bad entry must not break the view. */
export function readIntegrations(value: unknown): IntegrationSetting[] {
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
