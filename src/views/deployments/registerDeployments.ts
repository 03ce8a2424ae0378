import { DeploymentsFeature, IntegrationsFeature, Services } from '../../services';

// Placeholder until the deployments view lands (issue 5).
export function registerDeployments(_services: Services, _integrations: IntegrationsFeature): DeploymentsFeature {
  return { refresh: async () => undefined, reveal: async () => false };
}
