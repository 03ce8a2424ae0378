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

/** The last row of an integration whose rows are not all shown (RepositoryRows): "Show 1,000 more…". */
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

/** True for a repository row (what menu commands on repositories receive as their argument). */
export function isRepositoryNode(value: unknown): value is RepositoryNode {
  const node = value as Partial<RepositoryNode> | undefined;
  return node?.kind === 'repository' && typeof node.integrationId === 'string' && typeof node.repository === 'object' && node.repository !== null;
}

/** A command's argument → the integration ID: a plain ID (tests, other features), or the integration of a row. */
export function integrationIdOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const node = value as { kind?: unknown; integration?: { id?: unknown }; integrationId?: unknown } | null | undefined;
  const id = node?.kind === 'integration' ? node.integration?.id : node?.integrationId;
  return typeof id === 'string' ? id : undefined;
}
