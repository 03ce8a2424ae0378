/** Finds the integrations existing deployments use. Pure (no vscode): runs in unit tests against the stand-in. */
import type { ControlPlaneClient, Deployment } from '../api';
import { isUuid } from '../api/vocabulary';
import { mostCommonHost } from './remoteUrls';

export interface IntegrationsUsed {
  /** Distinct integration IDs, in order of first use, lower case. */
  integrationIds: string[];
  /** Per integration ID, the host its deployments' repository URLs name most (e.g. `github.com`). */
  codeHosts: Record<string, string>;
}

export interface DiscoveryResult extends IntegrationsUsed {
  pages: number;
  deployments: number;
  found: number;
  /** True when it stopped at `maxPages` although the server may have more. */
  truncated: boolean;
}

/** Adds the deployments' `source_config.integration_id`s (lower case; non-UUIDs skipped), each with its deployments' repository URLs. */
function collectUses(deployments: readonly Deployment[], into = new Map<string, string[]>()): Map<string, string[]> {
  for (const deployment of deployments) {
    const id = deployment.source_config?.integration_id?.trim().toLowerCase();
    if (!id || !isUuid(id)) continue;
    const urls = into.get(id) ?? [];
    into.set(id, urls);
    if (deployment.source_config?.repo_url) urls.push(deployment.source_config.repo_url);
  }
  return into;
}

function integrationsOf(uses: Map<string, string[]>): IntegrationsUsed {
  const hosts = [...uses].map(([id, urls]) => [id, mostCommonHost(urls)]).filter(([, host]) => host);
  return { integrationIds: [...uses.keys()], codeHosts: Object.fromEntries(hosts) };
}

/** The integrations some already-loaded deployments use: what the Deployments view's pages reveal for free. */
export function integrationsUsedBy(deployments: readonly Deployment[]): IntegrationsUsed {
  return integrationsOf(collectUses(deployments));
}

/** Pages through every deployment (100 a page) and collects the integration IDs: the explicit full scan. */
export async function discoverIntegrationIds(
  client: Pick<ControlPlaneClient, 'deploymentPages'>,
  options: { signal?: AbortSignal; maxPages?: number; onProgress?: (progress: { deployments: number; found: number }) => void } = {},
): Promise<DiscoveryResult> {
  const maxPages = options.maxPages ?? 200;
  const uses = new Map<string, string[]>();
  let [pages, deployments, truncated] = [0, 0, false];
  for await (const page of client.deploymentPages({ limit: 100 }, { signal: options.signal })) {
    pages++;
    deployments += page.deployments.length;
    collectUses(page.deployments, uses);
    options.onProgress?.({ deployments, found: uses.size });
    if (pages >= maxPages && page.mayHaveMore) {
      truncated = true;
      break;
    }
  }
  return { ...integrationsOf(uses), pages, deployments, found: uses.size, truncated };
}
