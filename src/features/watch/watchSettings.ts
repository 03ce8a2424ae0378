import vscode = require('vscode');
import { SECTION } from '../../platform/settings';
import { DEFAULT_IN_PROGRESS_STATUSES } from '../../model/watchState';
import { DEFAULT_WATCH_INTERVALS, WatchSettings } from '../../model/watchScheduler';

/** The `watch.*` settings, clamped to the bounds package.json declares (a hand-edited value must not poll in a loop). */
export function readWatchSettings(): WatchSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const seconds = (name: string, min: number, max: number, fallbackMs: number) => {
    const value = config.get<number>(name);
    if (typeof value !== 'number' || !Number.isFinite(value)) return fallbackMs;
    return Math.round(Math.min(max, Math.max(min, value)) * 1000);
  };
  const firstMs = seconds('watch.intervalSeconds', 0.5, 60, DEFAULT_WATCH_INTERVALS.firstMs);
  const maxMs = Math.max(firstMs, seconds('watch.maxIntervalSeconds', 1, 600, DEFAULT_WATCH_INTERVALS.maxMs));
  const pinnedMs = seconds('watch.pinnedIntervalSeconds', 1, 3600, DEFAULT_WATCH_INTERVALS.pinnedMs);
  const statuses = config.get<unknown>('watch.inProgressStatuses');
  const inProgressStatuses = Array.isArray(statuses)
    ? statuses.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim())
    : DEFAULT_IN_PROGRESS_STATUSES;
  return { intervals: { firstMs, maxMs, pinnedMs, backoff: DEFAULT_WATCH_INTERVALS.backoff }, inProgressStatuses };
}
