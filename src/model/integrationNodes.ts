import type { InvalidRepository, Repository } from '../api';
import type { FixRow } from './fixActions';
import type { KnownIntegration } from './repositoryCatalog';

/** The elements of the Integrations tree. Each row below an integration names it (`integrationId`): its parent. */
export type IntegrationsTreeNode = IntegrationNode | RepositoryNode | MessageNode | MoreNode | FixNode;

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
 * A row that is not data: a load failure (`error`, retried on click), an informative note (`empty`),
 * or a listed repository that does not match the API contract (`offContract`).
 */
export interface MessageNode {
  readonly kind: 'message';
  readonly role: 'error' | 'empty' | 'offContract';
  readonly integrationId: string;
  readonly message: string;
  readonly id: string;
  readonly error?: unknown;
  /** For `offContract`: the record as listed, what is wrong with it and why it cannot be used to create a deployment. */
  readonly offContract?: InvalidRepository;
}

/** A fix beside an integration's error row (Set API Key…), as in every tree. */
export type FixNode = FixRow & { readonly integrationId: string };

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

/**
 * True for a repository row of the Integrations tree (what menu commands on
 * repositories receive as their argument); read the record from `node.repository`.
 */
export function isRepositoryNode(value: unknown): value is RepositoryNode {
  const node = value as Partial<RepositoryNode> | undefined;
  return node?.kind === 'repository' && typeof node.integrationId === 'string' && typeof node.repository === 'object' && node.repository !== null;
}

/** The integration a row belongs to: its own ID for integration rows. */
export function integrationIdOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const node = value as { kind?: unknown; integration?: { id?: unknown }; integrationId?: unknown };
  const id = node.kind === 'integration' ? node.integration?.id : node.integrationId;
  return typeof id === 'string' ? id : undefined;
}
