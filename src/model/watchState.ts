import type { Deployment } from '../api';
import { customUrlOf } from './deploymentPresentation';
import { idKey } from './ids';
import * as l10n from '@vscode/l10n';

/**
 * What is followed and how, without VS Code: the settle rules, the saved form
 * (workspace state) and the words a notification uses. The scheduler
 * (watchScheduler.ts) keeps these entries and decides when to ask.
 */

/** Why a deployment is watched: after a create (stops when it settles) or because the user asked. */
export type WatchOrigin = 'auto' | 'manual';

export interface WatchEntry {
  id: string;
  name?: string;
  status?: string;
  latestRevisionId?: string;
  activeRevisionId?: string;
  updatedAt?: string;
  customUrl?: string;
  /** When the current status was first seen (ms since the epoch). */
  since: number;
  /** Set while watched (fast polling); undefined when only pinned. */
  watched?: WatchOrigin;
  /** Kept in the status bar for this workspace (slow polling). */
  pinned: boolean;
  /** The settle rules said "in progress" at the last look. */
  inProgress: boolean;
  /**
   * Start of the stall clock (ms since the epoch): when the last change was seen, no later than the
   * server's `updated_at` where that moved with it; Keep Watching starts it again. Undefined: not looked at yet.
   */
  quietSince?: number;
  /** In progress with nothing changed for the stall time: reported once, no longer counted as deploying or polled fast. */
  stalled?: boolean;
}

export const DEFAULT_IN_PROGRESS_STATUSES: readonly string[] = ['AWAITING_DATABASE'];

/** How long an in-progress deployment may go without a change before it is reported as stalled (the setting's default). */
export const DEFAULT_STALLED_AFTER_MS = 20 * 60_000;

/** The fields whose change means something happened (the interval starts again from the first). */
export const PROGRESS_FIELDS = ['status', 'latestRevisionId', 'activeRevisionId', 'updatedAt'] as const;

/**
 * A deployment is in progress while its status is one of `inProgressStatuses`
 * (compared without case), or while it has a latest revision that is not the
 * active one (a new revision is not active yet; no active revision at all counts)
 * and it is not being deleted (`AWAITING_DELETE`, `AWAITING_FINAL_DELETE`, …).
 */
export function isInProgress(deployment: Deployment, inProgressStatuses: readonly string[]): boolean {
  const status = typeof deployment.status === 'string' ? deployment.status.trim().toUpperCase() : '';
  if (status && inProgressStatuses.some((candidate) => candidate.trim().toUpperCase() === status)) return true;
  if (status.includes('DELET')) return false;
  const latest = deployment.latest_revision_id;
  if (typeof latest === 'string' && latest) return deployment.active_revision_id !== latest;
  return false;
}

/** Only non-empty strings are read: a record off the API contract, or saved state from another version, is safe too. */
const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

export function entryFields(deployment: Deployment): Pick<WatchEntry, 'name' | 'customUrl' | (typeof PROGRESS_FIELDS)[number]> {
  return {
    name: text(deployment.name),
    status: text(deployment.status),
    latestRevisionId: text(deployment.latest_revision_id),
    activeRevisionId: text(deployment.active_revision_id),
    updatedAt: text(deployment.updated_at),
    customUrl: customUrlOf(deployment),
  };
}

/**
 * Where the stall clock starts for a state first seen at `now`: the server's `updated_at` when it is a valid
 * time not in the future (a rollout stuck for an hour before it was followed has been quiet for an hour), else `now`.
 */
export function stallClockStart(updatedAt: string | undefined, now: number): number {
  const server = updatedAt ? Date.parse(updatedAt) : NaN;
  return Number.isFinite(server) && server <= now ? server : now;
}

/** 42 s, 5 min, 3 h, 2 d. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return l10n.t('{0} s', seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return l10n.t('{0} min', minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return l10n.t('{0} h', hours);
  return l10n.t('{0} d', Math.floor(hours / 24));
}

export function entryLabel(entry: Pick<WatchEntry, 'name' | 'id'>): string {
  return entry.name || entry.id.slice(0, 8);
}

const SAVED_TEXTS = ['name', 'status', 'latestRevisionId', 'activeRevisionId', 'updatedAt', 'customUrl'] as const;

/** Reads saved entries back, skipping anything malformed (state written by another version, hand edits). */
export function readSavedEntries(value: unknown): WatchEntry[] {
  if (!Array.isArray(value)) return [];
  const result: WatchEntry[] = [];
  for (const item of value as Array<Partial<Record<keyof WatchEntry, unknown>> | null>) {
    if (!item || typeof item !== 'object' || typeof item.id !== 'string' || !item.id.trim()) continue;
    const id = item.id;
    const watched = item.watched === 'auto' || item.watched === 'manual' ? item.watched : undefined;
    const pinned = item.pinned === true;
    if ((!watched && !pinned) || result.some((entry) => idKey(entry.id) === idKey(id))) continue;
    const texts = Object.fromEntries(SAVED_TEXTS.map((field) => [field, text(item[field])]));
    const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
    const since = time(item.since) ?? Date.now();
    const stalled = item.stalled === true;
    result.push({ id, ...texts, since, watched, pinned, inProgress: item.inProgress === true, quietSince: time(item.quietSince), stalled });
  }
  return result;
}
