import { DeploymentFilters, hasActiveFilters, validateIdList } from '../api/query';
import { DEPLOYMENT_TYPES, DeploymentType } from '../api/vocabulary';
import * as l10n from '@vscode/l10n';

/** Where the filters live in `context.workspaceState`: they are per workspace. */
export const FILTERS_STATE_KEY = 'deploymentsExplorer.deploymentFilters';

/** The part of vscode.Memento the store needs (so it can be tested without VS Code). */
export interface FilterMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export type FilterName = keyof DeploymentFilters;

/** Every filter, in the order the quick pick lists them. */
export const FILTER_NAMES: readonly FilterName[] = [
  'nameContains',
  'status',
  'deploymentType',
  'imageVersion',
  'remoteReconciled',
  'tagValueIds',
  'deploymentIds',
];

// Getters: each title is translated when read, after activation configured l10n.
export const FILTER_TITLES: Readonly<Record<FilterName, string>> = {
  get nameContains() {
    return l10n.t('Name contains');
  },
  get status() {
    return l10n.t('Status');
  },
  get deploymentType() {
    return l10n.t('Deployment type');
  },
  get imageVersion() {
    return l10n.t('Image version');
  },
  get remoteReconciled() {
    return l10n.t('Remote reconciled');
  },
  get tagValueIds() {
    return l10n.t('Tag value IDs');
  },
  get deploymentIds() {
    return l10n.t('Deployment IDs');
  },
};

/** Short names used in the view description: `status: READY · type: prod`. */
const SHORT_TITLES: Readonly<Record<FilterName, string>> = {
  get nameContains() {
    return l10n.t('name');
  },
  get status() {
    return l10n.t('status');
  },
  get deploymentType() {
    return l10n.t('type');
  },
  get imageVersion() {
    return l10n.t('image');
  },
  get remoteReconciled() {
    return l10n.t('reconciled');
  },
  get tagValueIds() {
    return l10n.t('tags');
  },
  get deploymentIds() {
    return l10n.t('IDs');
  },
};

/**
 * Turns anything (a stored value from an older version, a hand-edited state,
 * a command argument) into well-formed filters: empty values are dropped,
 * text is trimmed, ID lists are validated (throws InvalidInputError naming
 * the bad item when `strict`, drops the list otherwise).
 */
export function normalizeFilters(raw: unknown, strict = false): DeploymentFilters {
  const result: DeploymentFilters = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return result;
  const input = raw as Record<string, unknown>;
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

  const nameContains = text(input.nameContains);
  if (nameContains) result.nameContains = nameContains;
  const status = text(input.status);
  if (status) result.status = status;
  const imageVersion = text(input.imageVersion);
  if (imageVersion) result.imageVersion = imageVersion;
  if (typeof input.remoteReconciled === 'boolean') result.remoteReconciled = input.remoteReconciled;
  const type = text(input.deploymentType);
  if (type && (DEPLOYMENT_TYPES as readonly string[]).includes(type)) result.deploymentType = type as DeploymentType;
  else if (type && strict) throw new Error(l10n.t('Deployment type must be one of {0}, got “{1}”.', DEPLOYMENT_TYPES.join(', '), String(type)));

  const list = (parameter: 'tag_value_ids' | 'deployment_ids', value: unknown): string[] | undefined => {
    if (value === undefined || value === null) return undefined;
    const items = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    try {
      const cleaned = validateIdList(parameter, items);
      return cleaned.length > 0 ? cleaned : undefined;
    } catch (error) {
      if (strict) throw error;
      return undefined;
    }
  };
  const tagValueIds = list('tag_value_ids', input.tagValueIds);
  if (tagValueIds) result.tagValueIds = tagValueIds;
  const deploymentIds = list('deployment_ids', input.deploymentIds);
  if (deploymentIds) result.deploymentIds = deploymentIds;
  return result;
}

/** The value of one filter as the quick pick shows it ("any" when unset). */
export function filterValueText(filters: DeploymentFilters, name: FilterName): string {
  const value = filters[name];
  if (value === undefined) return l10n.t('any');
  if (typeof value === 'boolean') return value ? l10n.t('yes') : l10n.t('no');
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** The active filters in one line for the view description; empty when none. */
export function describeFilters(filters: DeploymentFilters): string {
  const parts: string[] = [];
  for (const name of FILTER_NAMES) {
    const value = filters[name];
    if (value === undefined) continue;
    let text: string;
    if (Array.isArray(value)) text = value.length === 1 ? value[0] : l10n.t('{0} selected', value.length);
    else text = filterValueText(filters, name);
    parts.push(`${SHORT_TITLES[name]}: ${text}`);
  }
  return parts.join(' · ');
}

/** The deployment filters of one workspace, kept in workspace state so they survive reloads. */
export class DeploymentFilterStore {
  private current: DeploymentFilters;
  private readonly listeners = new Set<(filters: DeploymentFilters) => void>();

  constructor(private readonly state: FilterMemento) {
    this.current = normalizeFilters(state.get<unknown>(FILTERS_STATE_KEY));
  }

  get filters(): DeploymentFilters {
    return this.current;
  }

  /** Reads the filters again (the state they live in now answers for another profile). */
  reload(): void {
    const stored = normalizeFilters(this.state.get<unknown>(FILTERS_STATE_KEY));
    if (JSON.stringify(stored) === JSON.stringify(this.current)) return;
    this.current = stored;
    for (const listener of this.listeners) listener(stored);
  }

  get active(): boolean {
    return hasActiveFilters(this.current);
  }

  /** Merges `change` (an `undefined` value clears that filter); refuses bad IDs naming the item. */
  async update(change: Partial<DeploymentFilters>): Promise<void> {
    const merged: Record<string, unknown> = { ...this.current };
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) delete merged[name];
      else merged[name] = value;
    }
    await this.replace(normalizeFilters(merged, true));
  }

  async clear(): Promise<void> {
    await this.replace({});
  }

  onDidChange(listener: (filters: DeploymentFilters) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private async replace(filters: DeploymentFilters): Promise<void> {
    const changed = JSON.stringify(filters) !== JSON.stringify(this.current);
    this.current = filters;
    await this.state.update(FILTERS_STATE_KEY, Object.keys(filters).length > 0 ? filters : undefined);
    if (changed) for (const listener of this.listeners) listener(filters);
  }
}
