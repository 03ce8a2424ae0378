import { DeploymentFilters, validateIdList } from '../api/query';
import { DEPLOYMENT_TYPES } from '../api/vocabulary';
import * as l10n from '@vscode/l10n';
import { isDeploymentType } from './createPayload';
import { isPlainObject } from './jsonValues';
import { Emitter } from './events';
import { trimmedText } from './viewText';

export const FILTERS_STATE_KEY = 'deploymentsExplorer.deploymentFilters';

export interface FilterMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export type FilterName = keyof DeploymentFilters;

/** Every filter, in the order the quick pick lists them. */
export const FILTER_NAMES: readonly FilterName[] = ['nameContains', 'status', 'deploymentType', 'imageVersion', 'remoteReconciled', 'tagValueIds', 'deploymentIds'];

/**
 * A filter's title in the quick pick, and its short name in the view's message (`status: READY · type: prod`);
 * not a table built at load: the words are translated when shown, after activation configured l10n.
 */
export function filterWords(name: FilterName): { title: string; short: string } {
  return {
    nameContains: { title: l10n.t('Name contains'), short: l10n.t('name') },
    status: { title: l10n.t('Status'), short: l10n.t('status') },
    deploymentType: { title: l10n.t('Deployment type'), short: l10n.t('type') },
    imageVersion: { title: l10n.t('Image version'), short: l10n.t('image') },
    remoteReconciled: { title: l10n.t('Remote reconciled'), short: l10n.t('reconciled') },
    tagValueIds: { title: l10n.t('Tag value IDs'), short: l10n.t('tags') },
    deploymentIds: { title: l10n.t('Deployment IDs'), short: l10n.t('IDs') },
  }[name];
}

/**
 * Turns anything (a stored value from an older version, a hand-edited state, a command argument) into
 * well-formed filters: empty values dropped, text trimmed, ID lists validated (throws naming the bad
 * item when `strict`, drops the list otherwise).
 */
export function normalizeFilters(input: unknown, strict = false): DeploymentFilters {
  if (!isPlainObject(input)) return {};
  const type = trimmedText(input.deploymentType);
  if (type && !isDeploymentType(type) && strict) throw new Error(l10n.t('Deployment type must be one of {0}, got “{1}”.', DEPLOYMENT_TYPES.join(', '), type));
  const list = (parameter: 'tag_value_ids' | 'deployment_ids', value: unknown) => {
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
  const filters: DeploymentFilters = {
    nameContains: trimmedText(input.nameContains),
    status: trimmedText(input.status),
    imageVersion: trimmedText(input.imageVersion),
    remoteReconciled: typeof input.remoteReconciled === 'boolean' ? input.remoteReconciled : undefined,
    deploymentType: isDeploymentType(type) ? type : undefined,
    tagValueIds: list('tag_value_ids', input.tagValueIds),
    deploymentIds: list('deployment_ids', input.deploymentIds),
  };
  // Only the filters that are set: the filters are stored, and compared, as JSON.
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}

/** As the quick pick shows it ("any" when unset). */
export function filterValueText(filters: DeploymentFilters, name: FilterName): string {
  const value = filters[name];
  if (value === undefined) return l10n.t('any');
  if (typeof value === 'boolean') return value ? l10n.t('yes') : l10n.t('no');
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The active filters in one line for the view's message. */
export function describeFilters(filters: DeploymentFilters): string {
  return FILTER_NAMES.filter((name) => filters[name] !== undefined)
    .map((name) => {
      const value = filters[name];
      const text = Array.isArray(value) && value.length > 1 ? l10n.t('{0} selected', value.length) : filterValueText(filters, name);
      return `${filterWords(name).short}: ${text}`;
    })
    .join(' · ');
}

export class DeploymentFilterStore {
  private current: DeploymentFilters;
  private readonly changed = new Emitter<DeploymentFilters>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: FilterMemento) {
    this.current = normalizeFilters(state.get<unknown>(FILTERS_STATE_KEY));
  }

  get filters(): DeploymentFilters {
    return this.current;
  }

  get active(): boolean {
    return Object.keys(this.current).length > 0;
  }

  /** After a profile switch: the state they live in now answers for another control plane. */
  reload(): void {
    const stored = normalizeFilters(this.state.get<unknown>(FILTERS_STATE_KEY));
    if (JSON.stringify(stored) !== JSON.stringify(this.current)) this.changed.fire((this.current = stored));
  }

  /** Merges `change` (an `undefined` value clears that filter); refuses bad IDs naming the item. */
  async update(change: Partial<DeploymentFilters>): Promise<void> {
    await this.replace(normalizeFilters({ ...this.current, ...change }, true));
  }

  clear(): Promise<void> {
    return this.replace({});
  }

  private async replace(filters: DeploymentFilters): Promise<void> {
    const changed = JSON.stringify(filters) !== JSON.stringify(this.current);
    this.current = filters;
    await this.state.update(FILTERS_STATE_KEY, Object.keys(filters).length > 0 ? filters : undefined);
    if (changed) this.changed.fire(filters);
  }
}
