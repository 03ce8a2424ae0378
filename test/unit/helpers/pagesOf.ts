import type { DeploymentPage } from '../../../src/api';
import { walkPages } from '../../../src/api/pagination';
import type { DeploymentPages } from '../../../src/model/deploymentList';

/** A DeploymentList's pages over a fake listing that answers one page per offset: the client's walk over `fetchPage`. */
export function pagesOf(fetchPage: (offset: number, signal: AbortSignal) => Promise<DeploymentPage>): DeploymentPages {
  return (offset, walk, signal) => walkPages((previous) => fetchPage(previous ? previous.nextOffset : offset, signal), walk);
}
