import vscode = require('vscode');
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../api/query';
import { isUuid } from '../api/vocabulary';
import type { IntegrationSetting } from '../model/repositoryCatalog';

export const SECTION = 'deploymentsExplorer';

/** The settings of the section that are no profile's (the connection, integrations and create defaults are: see ProfileStore). */
export function readSettings() {
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
  const byId = new Map<string, IntegrationSetting>();
  for (const entry of Array.isArray(value) ? value : []) {
    const id = typeof entry === 'string' ? entry.trim() : typeof entry?.id === 'string' ? entry.id.trim() : '';
    const label = typeof entry?.label === 'string' ? entry.label.trim() : '';
    if (isUuid(id) && !byId.has(id.toLowerCase())) byId.set(id.toLowerCase(), label ? { id, label } : { id });
  }
  return [...byId.values()];
}

function clampInt(value: number | undefined, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}
