import * as vscode from 'vscode';
import { FlowStep } from '../../../ui/multiStepInput';
import { afterIntegration, StepContext } from './flowState';

/**
 * From the palette: the repository, searchable by name, owner or URL. Picking
 * another repository parks the values typed for this one and starts from that
 * one's own (kept or default) values.
 */
export function pickRepositoryStep(context: StepContext): FlowStep {
  const { catalog, drafts, fromPalette } = context;
  return afterIntegration(context, {
    id: 'repository',
    skip: () => !fromPalette,
    async run(input, state) {
      const { integration } = state;
      const label = catalog.label(integration);
      const picked = await input.showQuickPick({
        placeholder: vscode.l10n.t('Pick a repository of {0} (type to search by name, owner or URL)', label),
        items: async (signal) => {
          const repositories = await catalog.repositories(integration.id, signal);
          if (repositories.length === 0) {
            void vscode.window.showInformationMessage(vscode.l10n.t('The integration {0} lists no repositories. Go Back to pick another.', label));
          }
          return repositories.map((repository) => ({
            label: `$(repo) ${repository.owner}/${repository.name}`,
            description: repository.default_branch,
            detail: repository.url,
            repository,
          }));
        },
        matchOnDescription: true,
        matchOnDetail: true,
        filter: state.repositoryFilter,
        onDidChangeFilter: (value) => (state.repositoryFilter = value),
        activeItem: (all) => all.find((item) => item.repository.url === state.repository?.url),
      });
      if (picked.repository.url !== state.repository?.url || picked.repository.host_integration_id !== state.repository?.host_integration_id) {
        if (state.repository) drafts.keep(state.repository, state.draft);
        state.repository = picked.repository;
        state.draft = drafts.get(picked.repository);
        state.lastError = undefined;
      }
    },
  });
}
