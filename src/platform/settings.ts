import vscode = require('vscode');
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../api/query';

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

function clampInt(value: number | undefined, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}
