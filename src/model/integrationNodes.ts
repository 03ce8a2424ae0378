import type { InvalidRepository, Repository } from '../api';
import type { FixActionKind } from './fixActions';
import type { KnownIntegration } from './repositoryCatalog';

/** The elements of the Integrations tree. */
export type IntegrationsTreeNode = IntegrationNode | RepositoryNode | MessageNode | MoreNode;

export interface IntegrationNode {
  readonly kind: 'integration';
  integration: KnownIntegration;
}

export interface RepositoryNode {
  readonly kind: 'repository';
  readonly integrationId: string;
  readonly repository: Repository;
  /** Stable tree-item ID, so TreeView.reveal finds the row again. */
  readonly id: string;
}

/**
 * A row that is not data: a load failure (`error`, retried on click), an
 * informative note (`empty`), a next step (`action`, e.g. Set API Key…), or a
 * listed repository that does not match the API contract (`offContract`).
 */
export interface MessageNode {
  readonly kind: 'message';
  readonly role: 'error' | 'empty' | 'action' | 'offContract';
  readonly integrationId: string;
  readonly message: string;
  readonly id: string;
  /** For errors: the failure; for actions: the command to run. */
  readonly error?: unknown;
  readonly command?: { id: string; title: string; arguments?: unknown[] };
  /** For actions: which fix the command is (its icon says so, as in every tree). */
  readonly fixKind?: FixActionKind;
  /** For `offContract`: the record as listed, what is wrong with it and why it cannot be used to create a deployment. */
  readonly offContract?: InvalidRepository;
}

/**
 * The last row of an integration whose rows are not all shown (they come a page at a time, see
 * RepositoryRows): "Show 1,000 more…". Activating it shows the next page.
 */
export interface MoreNode {
  readonly kind: 'more';
  readonly integrationId: string;
  readonly id: string;
  /** Rows shown above it, rows the next page adds, rows in all. */
  readonly shown: number;
  readonly next: number;
  readonly total: number;
  /** The listing it pages through: activating a row left from before a refresh does nothing. */
  readonly listing: readonly Repository[];
}

function isNode(value: unknown): value is { kind: unknown } {
  return typeof value === 'object' && value !== null && 'kind' in value;
}

/**
 * True for a repository row of the Integrations tree (what menu commands on
 * repositories receive as their argument); read the record from `node.repository`.
 */
export function isRepositoryNode(value: unknown): value is RepositoryNode {
  return (
    isNode(value) &&
    value.kind === 'repository' &&
    typeof (value as RepositoryNode).integrationId === 'string' &&
    typeof (value as RepositoryNode).repository === 'object' &&
    (value as RepositoryNode).repository !== null
  );
}

export function isIntegrationNode(value: unknown): value is IntegrationNode {
  return isNode(value) && value.kind === 'integration' && typeof (value as IntegrationNode).integration?.id === 'string';
}

function isMessageNode(value: unknown): value is MessageNode {
  return isNode(value) && value.kind === 'message';
}

/** True for the "Show … more" row of an integration (what its commands receive as their argument). */
export function isMoreNode(value: unknown): value is MoreNode {
  return isNode(value) && value.kind === 'more' && typeof (value as MoreNode).integrationId === 'string';
}

/** The integration an element belongs to: its own ID for integration rows. */
export function integrationIdOf(value: unknown): string | undefined {
  if (isIntegrationNode(value)) return value.integration.id;
  if (isRepositoryNode(value) || isMessageNode(value) || isMoreNode(value)) return value.integrationId;
  return undefined;
}
