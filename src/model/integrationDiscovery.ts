/** Finds the integrations existing deployments use. Pure (no vscode): runs in unit tests against the stand-in. */
import type { Deployment } from '../api';
import { ControlPlaneError } from '../api/errors';
import { isUuid } from '../api/vocabulary';
import type { DeploymentIndexes } from './deploymentIndex';
import { mostCommonHost } from './remoteUrls';

export interface IntegrationsUsed {
  /** Distinct integration IDs, in order of first use, lower case. */
  integrationIds: string[];
  /** Per integration ID, the host its deployments' repository URLs name most (e.g. `github.com`). */
  codeHosts: Record<string, string>;
}

export interface DiscoveryResult extends IntegrationsUsed {
  /** The deployments the index holds: those the integrations were read from. */
  deployments: number;
  found: number;
  /** True when the scan stopped at its limit although the server may have more. */
  truncated: boolean;
}

/** A deployment's integration (`source_config.integration_id`) and repository URL. */
interface IntegrationUse {
  integrationId?: string | null;
  repoUrl?: string | null;
}

/** The distinct integration IDs of `uses` (lower case; non-UUIDs skipped), each with the host its repository URLs name most. */
export function integrationsOf(uses: Iterable<IntegrationUse>): IntegrationsUsed {
  const urls = new Map<string, string[]>();
  for (const use of uses) {
    const id = use.integrationId?.trim().toLowerCase();
    if (!id || !isUuid(id)) continue;
    const ofId = urls.get(id) ?? [];
    urls.set(id, ofId);
    if (use.repoUrl) ofId.push(use.repoUrl);
  }
  const hosts = [...urls].map(([id, of]) => [id, mostCommonHost(of)]).filter(([, host]) => host);
  return { integrationIds: [...urls.keys()], codeHosts: Object.fromEntries(hosts) };
}

/** The integrations some already-loaded deployments use: what the Deployments view's pages reveal for free. */
export function integrationsUsedBy(deployments: readonly Deployment[]): IntegrationsUsed {
  return integrationsOf(deployments.map((deployment) => ({ integrationId: deployment.source_config?.integration_id, repoUrl: deployment.source_config?.repo_url })));
}

/** How many deployments discovery looks at, at most, before it stops and says so. */
const DISCOVERY_LIMIT = 20_000;

/**
 * The integrations of every deployment of the control plane in effect, read from its deployment index: the index
 * is scanned first for what it has not seen (nothing once a scan completed; from where the last one stopped
 * otherwise), up to `limit` records. A scan this call started stops with `signal`; a failure is thrown.
 */
export async function discoverIntegrations(
  indexes: Pick<DeploymentIndexes, 'current' | 'scan' | 'stopScan'>,
  options: { signal?: AbortSignal; limit?: number; onProgress?: (progress: { deployments: number; found: number }) => void } = {},
): Promise<DiscoveryResult> {
  const limit = options.limit ?? DISCOVERY_LIMIT;
  const index = indexes.current();
  let last = { deployments: index.size, found: index.integrations().integrationIds.length };
  const subscription = index.onDidChange(() => {
    const now = { deployments: index.size, found: index.integrations().integrationIds.length };
    if (now.deployments === last.deployments && now.found === last.found) return;
    last = now;
    options.onProgress?.(now);
  });
  // A scan another view started is not this call's to stop.
  let ownScan = false;
  const stop = () => ownScan && indexes.stopScan();
  options.signal?.addEventListener('abort', stop);
  try {
    for (let scanned = false; ; scanned = true) {
      if (options.signal?.aborted) throw new ControlPlaneError('cancelled');
      const { phase, looked, error } = index.scanState;
      if (phase === 'complete' || (phase === 'capped' && looked >= limit)) break;
      if (scanned && phase === 'failed') throw error;
      if (scanned && phase === 'stopped') throw new ControlPlaneError('cancelled');
      ownScan = phase !== 'scanning';
      await indexes.scan(phase === 'none', limit - looked);
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    subscription.dispose();
  }
  const used = index.integrations();
  return { ...used, deployments: index.size, found: used.integrationIds.length, truncated: index.scanState.phase === 'capped' };
}
