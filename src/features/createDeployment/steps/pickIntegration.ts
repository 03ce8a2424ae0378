import * as vscode from 'vscode';
import { FlowStep } from '../../../ui/multiStepInput';
import { StepContext } from './flowState';

/** From the palette, with more than one integration known: which integration the repository is in. */
export function pickIntegrationStep({ state, catalog, fromPalette }: StepContext): FlowStep {
  return {
    id: 'integration',
    skip: () => !fromPalette || catalog.integrations().length <= 1,
    async run(input) {
      const items = catalog.integrations().map((integration) => {
        const cached = catalog.cached(integration.id);
        return {
          label: `$(plug) ${catalog.label(integration)}`,
          description: integration.id,
          detail: [
            integration.origin === 'added' ? vscode.l10n.t('Added') : vscode.l10n.t('Discovered from deployments'),
            catalog.codeHost(integration.id),
            cached ? (cached.length === 1 ? vscode.l10n.t('1 repository') : vscode.l10n.t('{0} repositories', cached.length)) : undefined,
          ]
            .filter(Boolean)
            .join(' · '),
          integration,
        };
      });
      const picked = await input.showQuickPick({
        placeholder: vscode.l10n.t('Pick the code-host integration of the repository'),
        items,
        matchOnDescription: true,
        activeItem: (all) => all.find((item) => item.integration.id === state.integration?.id),
      });
      if (picked.integration.id !== state.integration?.id) state.repositoryFilter = undefined;
      state.integration = picked.integration;
    },
  };
}
