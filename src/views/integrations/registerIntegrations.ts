import { IntegrationsFeature, Services } from '../../services';

// Placeholder until the integrations tree lands (issue 4).
export function registerIntegrations(_services: Services): IntegrationsFeature {
  return { revealRepository: async () => false };
}
