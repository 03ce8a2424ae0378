import vscode = require('vscode');
import { CommandRunner } from './commandRunner';
import { ConnectionManager } from './connection';
import { ViewMessages } from './viewMessages';
import { RepositoryCatalog } from '../model/repositoryCatalog';
import { DeploymentIndexes } from '../model/deploymentIndex';
import type { Deployment } from '../api';
import type { IndexedDeployment, ScanState } from '../model/deploymentIndex';
import type { CommitState, DeployedRef } from '../model/workspaceDeployments';

/** What every feature is built from; created once in activate(). */
export interface Services {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  connection: ConnectionManager;
  commands: CommandRunner;
  catalog: RepositoryCatalog;
  /** Every deployment of the control plane in effect, in brief, once This Workspace has looked (model/deploymentIndex.ts). */
  deploymentIndex: DeploymentIndexes;
  /** The views' messages, written in parts by several features. */
  messages: ViewMessages;
}

/** What the integrations feature offers the others. */
export interface IntegrationsFeature {
  /** Reveals and selects a repository node; false when it is not in any known integration. */
  revealRepository(integrationId: string, repositoryUrl: string): Promise<boolean>;
}

/** What the deployments feature offers the others. */
export interface DeploymentsFeature {
  /** Reloads from the first page with the current filters. */
  refresh(): Promise<void>;
  /** Reveals and selects a deployment row if it is loaded; false otherwise. */
  reveal(deploymentId: string): Promise<boolean>;
  /** Updates the loaded rows of these records in place; nothing is reloaded, other rows are untouched. */
  applyRecords(deployments: readonly Deployment[]): void;
  /** Marks the rows of these deployments as watched, and unmarks the others. */
  markWatched(deploymentIds: readonly string[]): void;
  /** The loaded record of this ID (one that matches the API contract), found in O(1); nothing is requested. */
  loadedRecord(deploymentId: string): Deployment | undefined;
  /** The records loaded in the view that match the API contract (for pickers); nothing is requested. */
  loadedRecords(): readonly Deployment[];
}

/** What the watch feature offers the others. */
export interface WatchFeature {
  /** Follows a deployment just created until it settles. */
  watchCreated(deployment: Deployment): void;
  /** Keeps a deployment in the status bar for this workspace. */
  pin(deployment: Deployment): void;
}

/** This Workspace's answer for one git repository of the workspace: its deployments by ref, each against the clone. */
export interface WorkspaceRepositoryReport {
  /** The repository's root folder. */
  readonly folder: string;
  /** The checked-out branch; undefined on a detached HEAD. */
  readonly branch?: string;
  /** The remotes that name the deployments' repository (`name (url)`, credentials left out). */
  readonly remotes: readonly string[];
  readonly refs: ReadonlyArray<{
    readonly ref: DeployedRef;
    readonly checkedOut: boolean;
    readonly deployments: ReadonlyArray<{ readonly deployment: IndexedDeployment; readonly state: CommitState }>;
  }>;
}

export type WorkspaceReport =
  | { readonly kind: 'noGit' }
  | { readonly kind: 'noRemotes'; readonly folders: readonly string[] }
  | {
      readonly kind: 'report';
      /** How far the index got: `capped` means only the first deployments were looked at. */
      readonly scan: ScanState;
      readonly repositories: readonly WorkspaceRepositoryReport[];
      /** Repositories of the workspace with remotes that no deployment comes from, and those remotes. */
      readonly withoutDeployments: ReadonlyArray<{ readonly folder: string; readonly remotes: readonly string[] }>;
    };

/** What the workspace feature offers the others. */
export interface WorkspaceFeature {
  /** What This Workspace shows, building the deployment index first when it is not built (cancelled with `signal`). */
  report(signal: AbortSignal): Promise<WorkspaceReport>;
}

/**
 * A row of another view that stands for a deployment it does not hold whole (This Workspace keeps only an index
 * entry): the Deployments view's and the watch's row commands take it, and look the record up by ID.
 */
export interface DeploymentReference {
  readonly deploymentId: string;
  readonly name?: string;
}

export function deploymentReferenceOf(argument: unknown): DeploymentReference | undefined {
  const id = (argument as Partial<DeploymentReference> | null | undefined)?.deploymentId;
  return typeof id === 'string' && id ? (argument as DeploymentReference) : undefined;
}
