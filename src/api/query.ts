import { invalidInput } from './errors';
import { DeploymentType, isUuid } from './vocabulary';
import { describeValue } from './text';
import * as l10n from '@vscode/l10n';

/** Every filter of `GET /v2/deployments`, in the client's own naming. */
export interface DeploymentFilters {
  nameContains?: string;
  status?: string;
  remoteReconciled?: boolean;
  tagValueIds?: readonly string[];
  imageVersion?: string;
  deploymentType?: DeploymentType;
  deploymentIds?: readonly string[];
}

export interface DeploymentQuery extends DeploymentFilters {
  limit?: number;
  offset?: number;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** Checks a list of identifiers for a comma-separated parameter; answers the trimmed, non-empty items. Names the first bad item. */
export function validateIdList(parameter: 'deployment_ids' | 'tag_value_ids', items: readonly string[]): string[] {
  if (!Array.isArray(items)) {
    throw invalidInput(parameter, l10n.t('must be a list of identifiers, got {0}', describeValue(items)));
  }
  const cleaned: string[] = [];
  for (const raw of items as unknown[]) {
    if (typeof raw !== 'string') {
      throw invalidInput(parameter, l10n.t('each identifier must be text, got {0}', describeValue(raw)));
    }
    const item = raw.trim();
    if (item.length === 0) continue;
    if (item.includes(',')) {
      throw invalidInput(parameter, l10n.t('{0} contains a comma; give each identifier as its own item', describeValue(item)));
    }
    if (parameter === 'deployment_ids' && !isUuid(item)) {
      throw invalidInput(parameter, l10n.t('{0} is not a deployment ID (expected a UUID)', describeValue(item)));
    }
    cleaned.push(item);
  }
  return cleaned;
}

/** Splits user input such as "a, b ,c" into items. */
export function splitIdList(text: string): string[] {
  return text.split(/[\s,]+/).filter((item) => item.length > 0);
}

export function validateIntegrationId(integrationId: string): string {
  if (typeof integrationId !== 'string') {
    throw invalidInput('integration_id', l10n.t('must be text (a UUID), got {0}', describeValue(integrationId)));
  }
  const trimmed = integrationId.trim();
  if (!isUuid(trimmed)) {
    throw invalidInput('integration_id', l10n.t('{0} is not a UUID', describeValue(integrationId)));
  }
  return trimmed;
}

/** Builds the query string of `GET /v2/deployments`; empty filters are omitted. The filters are checked where they enter (normalizeFilters, the filter input). */
export function buildDeploymentSearchParams(query: DeploymentQuery = {}): URLSearchParams {
  const params = new URLSearchParams({ limit: String(query.limit ?? DEFAULT_PAGE_SIZE), offset: String(query.offset ?? 0) });
  const texts = [['name_contains', query.nameContains], ['status', query.status], ['image_version', query.imageVersion]] as const;
  for (const [name, value] of texts) if (value?.trim()) params.set(name, value);
  if (query.remoteReconciled !== undefined) params.set('remote_reconciled', String(query.remoteReconciled));
  if (query.deploymentType) params.set('deployment_type', query.deploymentType);
  for (const [name, items] of [['tag_value_ids', query.tagValueIds], ['deployment_ids', query.deploymentIds]] as const) {
    if (items?.length) params.set(name, items.join(','));
  }
  return params;
}
