import { DeploymentsFeature, IntegrationsFeature, Services } from '../../services';

// Placeholder until the create flow lands (issue 6).
export function registerCreateDeployment(
  _services: Services,
  _integrations: IntegrationsFeature,
  _deployments: DeploymentsFeature,
): void {}
