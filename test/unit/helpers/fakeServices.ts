// The extension's Services over the fake vscode module and an in-memory
// control plane: the real CommandRunner, RepositoryCatalog and ProfileStore, a
// client that answers from the lists given here, and a log that keeps its lines.
import { extensionContext } from './fakeVscodeHost';
import type { Deployment, OffContractRepository, Repository, RepositoryListing } from '../../../src/api';
import { CommandRunner } from '../../../src/platform/commandRunner';
import { ProfileStore } from '../../../src/platform/profileStore';
import type { DeploymentsFeature, Services } from '../../../src/platform/services';
import { ViewMessages } from '../../../src/platform/viewMessages';
import { IntegrationSetting, RepositoryCatalog } from '../../../src/model/repositoryCatalog';
import { DeploymentIndexes } from '../../../src/model/deploymentIndex';
import { readSettings } from '../../../src/platform/settings';

export interface FakeControlPlaneOptions {
  /** The integrations in settings. */
  integrations?: IntegrationSetting[];
  /** Repositories (or the error the listing fails with) by integration ID. */
  repositories?: Record<string, readonly Repository[] | Error>;
  /** Records of a repository listing that do not match the contract, by integration ID. */
  invalidRepositories?: Record<string, readonly OffContractRepository[]>;
  /** The stored API key; undefined: none. */
  apiKey?: string;
  /** How `POST /v2/deployments` answers; by default it creates the deployment. */
  create?: (body: Record<string, unknown>, signal?: AbortSignal) => Promise<Deployment>;
}

export interface FakeServices {
  services: Services;
  /** Bodies `createDeployment` was called with, in order. */
  posted: Record<string, unknown>[];
  /** Integration IDs whose repositories were requested, in order. */
  listed: string[];
  log: string[];
  deployments: DeploymentsFeature & { refreshed: number; revealed: string[] };
}

export function fakeServices(options: FakeControlPlaneOptions = {}): FakeServices {
  const posted: Record<string, unknown>[] = [];
  const listed: string[] = [];
  const log: string[] = [];
  const write = (level: string) => (message: string) => void log.push(`${level} ${message}`);
  const logChannel = { info: write('info'), warn: write('warn'), error: write('error'), debug: write('debug'), trace: write('trace'), show: () => undefined };
  const client = {
    async listRepositories(integrationId: string): Promise<RepositoryListing> {
      listed.push(integrationId);
      const [, answer] = Object.entries(options.repositories ?? {}).find(([id]) => id.toLowerCase() === integrationId.toLowerCase()) ?? [];
      if (answer instanceof Error) throw answer;
      const invalid = [...(options.invalidRepositories?.[integrationId] ?? [])];
      return { repositories: [...(answer ?? [])], offContract: invalid };
    },
    async createDeployment(body: Record<string, unknown>, callOptions: { signal?: AbortSignal } = {}): Promise<Deployment> {
      posted.push(body);
      if (options.create) return options.create(body, callOptions.signal);
      return { id: `00000000-0000-4000-8000-${String(posted.length).padStart(12, '0')}`, name: String(body.name) };
    },
  };
  const context = extensionContext();
  const catalog = new RepositoryCatalog({ client: async () => client, addedIntegrations: () => options.integrations ?? [] });
  // One profile, as a user who never added a second has: the implicit Default of the settings.
  const profiles = new ProfileStore(context as never, logChannel as never);
  const connection = {
    getClient: async () => client,
    apiKeys: { get: async () => options.apiKey },
    profiles,
    isConfigured: async () => !!profiles.active().baseUrl && !!options.apiKey,
    profile: () => profiles.active(),
    onDidChangeProfile: () => ({ dispose: () => undefined }),
    // What the Integrations view's registration reads: certificates checked, a connection that does not change.
    certificatesUnchecked: () => false,
    onDidChange: () => ({ dispose: () => undefined }),
    // One control plane: its state is the memento itself.
    controlPlane: () => `${profiles.active().baseUrl}|`,
    scoped: (memento: { get(key: string): unknown; update(key: string, value: unknown): Thenable<void> }) => memento,
  };
  const services = {
    context,
    log: logChannel,
    commands: new CommandRunner(context as never, logChannel as never),
    catalog,
    // The connection object itself: a test that replaces its client or its change event replaces them for the scan too.
    deploymentIndex: new DeploymentIndexes(connection as never, () => readSettings().workspaceScanLimit, logChannel),
    messages: new ViewMessages(),
    connection,
  } as unknown as Services;
  const deployments = {
    refreshed: 0,
    revealed: [] as string[],
    async refresh() {
      deployments.refreshed++;
    },
    async reveal(id: string) {
      deployments.revealed.push(id);
      return true;
    },
    applyRecords: () => undefined,
    markWatched: () => undefined,
    loadedRecord: () => undefined,
    loadedRecords: () => [],
  };
  return { services, posted, listed, log, deployments };
}

export function repository(owner: string, name: string, integrationId: string, id: number, defaultBranch = 'main'): Repository {
  return { host_integration_id: integrationId, id, name, owner, url: `https://github.com/${owner}/${name}`, default_branch: defaultBranch };
}
