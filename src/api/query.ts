import { invalidInput } from './errors';
import { DEPLOYMENT_TYPES, DeploymentType, isUuid } from './vocabulary';
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

/** A JavaScript caller's object argument (a query, options, a body): an object, or nothing unless `required`. */
export function validateObjectArgument(parameter: string, value: unknown, { required = false } = {}): void {
  if (value === undefined && !required) return;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput(parameter, l10n.t('must be an object, got {0}', describeValue(value)));
  }
}

/** Builds the query string of `GET /v2/deployments`. Empty filters are omitted; invalid values are refused before any request. */
export function buildDeploymentSearchParams(query: DeploymentQuery = {}): URLSearchParams {
  validateObjectArgument('query', query);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidInput('limit', l10n.t('must be a whole number from 1 to {0}, got {1}', MAX_PAGE_SIZE, describeValue(limit)));
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw invalidInput('offset', l10n.t('must be a whole number of 0 or more, got {0}', describeValue(offset)));
  }
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });

  const texts = [['name_contains', query.nameContains], ['status', query.status], ['image_version', query.imageVersion]] as const;
  for (const [name, value] of texts) {
    if (value !== undefined && value !== null && typeof value !== 'string') {
      throw invalidInput(name, l10n.t('must be text, got {0}', describeValue(value)));
    }
    if (value?.trim()) params.set(name, value);
  }
  const { remoteReconciled: reconciled, deploymentType: type } = query;
  if (reconciled !== undefined && reconciled !== null && typeof reconciled !== 'boolean') {
    throw invalidInput('remote_reconciled', l10n.t('must be true or false, got {0}', describeValue(reconciled)));
  }
  if (typeof reconciled === 'boolean') params.set('remote_reconciled', String(reconciled));
  if (type !== undefined && type !== null && !(DEPLOYMENT_TYPES as readonly string[]).includes(type)) {
    throw invalidInput('deployment_type', l10n.t('must be one of {0}, got {1}', DEPLOYMENT_TYPES.join(', '), describeValue(type)));
  }
  if (type) params.set('deployment_type', type);
  for (const [name, items] of [['tag_value_ids', query.tagValueIds], ['deployment_ids', query.deploymentIds]] as const) {
    const cleaned = items === undefined || items === null ? [] : validateIdList(name, items);
    if (cleaned.length > 0) params.set(name, cleaned.join(','));
  }
  return params;
}
