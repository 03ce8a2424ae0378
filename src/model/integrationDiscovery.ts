/** Finds the integrations existing deployments use. Pure (no vscode): runs in unit tests against the stand-in. */
import type { ControlPlaneClient, Deployment } from '../api';
import { isUuid } from '../api/vocabulary';
import { mostCommonHost } from './remoteUrls';

export interface DiscoveryProgress {
  pages: number;
  deployments: number;
  found: number;
}

export interface DiscoveryResult extends DiscoveryProgress {
  /** Distinct integration IDs, in order of first use, lower case. */
  integrationIds: string[];
  /** Per integration ID, the host its deployments' repository URLs name most (e.g. `github.com`). */
  codeHosts: Record<string, string>;
  /** True when it stopped at `maxPages` although the server may have more. */
  truncated: boolean;
}

/** Adds the `source_config.integration_id` of each deployment to `into` (lower-cased; non-UUIDs skipped). */
export function collectIntegrationIds(deployments: readonly Deployment[], into: Set<string>): void {
  for (const deployment of deployments) {
    const id = deployment.source_config?.integration_id;
    if (typeof id === 'string' && isUuid(id.trim())) into.add(id.trim().toLowerCase());
  }
}

/**
 * The integrations some already-loaded deployments use, and the code host
 * their repository URLs name: what the Deployments view's pages reveal for
 * free, with no request of their own.
 */
export function integrationsUsedBy(deployments: readonly Deployment[]): { integrationIds: string[]; codeHosts: Record<string, string> } {
  const ids = new Set<string>();
  collectIntegrationIds(deployments, ids);
  const urls = new Map<string, string[]>();
  for (const deployment of deployments) {
    const id = deployment.source_config?.integration_id?.trim().toLowerCase();
    const url = deployment.source_config?.repo_url;
    if (!id || !ids.has(id) || !url) continue;
    if (!urls.has(id)) urls.set(id, []);
    urls.get(id)!.push(url);
  }
  const hosts = [...urls].map(([id, list]) => [id, mostCommonHost(list)]).filter(([, host]) => host);
  return { integrationIds: [...ids], codeHosts: Object.fromEntries(hosts) };
}

/** Pages through every deployment (100 a page) and collects the integration IDs: the explicit full scan. */
export async function discoverIntegrationIds(
  client: Pick<ControlPlaneClient, 'deploymentPages'>,
  options: { signal?: AbortSignal; maxPages?: number; onProgress?: (progress: DiscoveryProgress) => void } = {},
): Promise<DiscoveryResult> {
  const maxPages = options.maxPages ?? 200;
  const read: Deployment[] = [];
  const ids = new Set<string>();
  let pages = 0;
  let truncated = false;
  for await (const page of client.deploymentPages({ limit: 100 }, { signal: options.signal })) {
    pages++;
    read.push(...page.deployments);
    collectIntegrationIds(page.deployments, ids);
    options.onProgress?.({ pages, deployments: read.length, found: ids.size });
    if (pages >= maxPages && page.mayHaveMore) {
      truncated = true;
      break;
    }
  }
  return { ...integrationsUsedBy(read), pages, deployments: read.length, found: ids.size, truncated };
}
