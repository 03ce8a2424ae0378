import vscode = require('vscode');
import { type Repository } from '../../api';
import { messageOf } from '../../api/errors';
import { KnownIntegration } from '../../model/repositoryCatalog';
import { Services } from '../../platform/services';
import { isCancellation } from '../../platform/commandRunner';
import { Commands } from '../../platform/commandIds';
import { headline } from '../../model/viewText';

interface RepositoryPick extends vscode.QuickPickItem {
  integrationId: string;
  repository?: Repository;
}

/**
 * "Find Repository…": one quick pick over every known integration's repositories. Cached lists show
 * at once; the others are fetched while the pick is open (busy, with progress), failures appear as
 * items that reveal the error row. Choosing a repository reveals its row in the tree.
 */
export function registerFindRepository(services: Services, reveal: (integrationId: string, repositoryUrl?: string) => Promise<boolean>): void {
  const { catalog } = services;
  services.commands.register(Commands.findRepository, async () => {
    const integrations = catalog.integrations();
    if (integrations.length === 0) {
      const add = vscode.l10n.t('Add Integration…');
      const discover = vscode.l10n.t('Discover');
      const text = vscode.l10n.t('No integrations yet: add one, or discover the ones your deployments use.');
      const choice = await vscode.window.showInformationMessage(text, add, discover);
      if (choice) await vscode.commands.executeCommand(choice === add ? Commands.addIntegration : Commands.discoverIntegrations);
      return;
    }

    const quickPick = vscode.window.createQuickPick<RepositoryPick>();
    const title = vscode.l10n.t('Find Repository');
    quickPick.placeholder = vscode.l10n.t('Type a repository name or owner');
    quickPick.matchOnDescription = true;
    quickPick.matchOnDetail = true;
    const sections = new Map<string, RepositoryPick[]>();
    /** Each repository of an integration, named as the tree names it: by its label, else by its code host and most common owner. */
    const show = (integration: KnownIntegration, repositories: readonly Repository[]) => {
      const label = catalog.label(integration);
      const picks = repositories.map((repository) => ({
        label: `$(repo) ${repository.name}`,
        description: `${repository.owner} · ${label}`,
        detail: repository.url,
        integrationId: integration.id,
        repository,
      }));
      sections.set(integration.id, picks);
    };
    const controller = new AbortController();
    const uncached = integrations.filter((integration) => !catalog.cached(integration.id));
    let loading = uncached.length;
    const render = () => {
      quickPick.items = integrations.flatMap((integration) => {
        const section = sections.get(integration.id) ?? [];
        const separator = { label: catalog.label(integration), kind: vscode.QuickPickItemKind.Separator, integrationId: integration.id };
        return section.length > 0 ? [separator, ...section] : [];
      });
      // Everything loaded and nothing to show: say so, rather than an empty pick.
      if (loading === 0 && quickPick.items.length === 0) {
        quickPick.placeholder =
          integrations.length === 1
            ? vscode.l10n.t('The integration {0} lists no repositories. Add another integration, or Refresh it if it should have some.', catalog.label(integrations[0]))
            : vscode.l10n.t('The integrations list no repositories. Add another integration, or Refresh one that should have some.');
      }
    };
    for (const integration of integrations) {
      const cached = catalog.cached(integration.id);
      if (cached) show(integration, cached);
    }
    render();
    quickPick.busy = uncached.length > 0;
    quickPick.title =
      uncached.length === 0
        ? title
        : uncached.length === 1
          ? vscode.l10n.t('Find Repository (loading 1 integration…)')
          : vscode.l10n.t('Find Repository (loading {0} integrations…)', uncached.length);
    const chosen = new Promise<RepositoryPick | undefined>((resolve) => {
      quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
      quickPick.onDidHide(() => resolve(undefined));
    });
    quickPick.show();

    if (uncached.length > 0) {
      void vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading repositories') }, async (progress) => {
        await Promise.all(
          uncached.map(async (integration) => {
            try {
              show(integration, await catalog.repositories(integration.id, controller.signal));
            } catch (error) {
              if (isCancellation(error)) return;
              const label = vscode.l10n.t('$(error) Could not load {0}', catalog.label(integration));
              sections.set(integration.id, [{ label, detail: headline(messageOf(error)), integrationId: integration.id, alwaysShow: true }]);
            } finally {
              loading--;
              progress.report({ message: `${uncached.length - loading}/${uncached.length}` });
              if (!controller.signal.aborted) render();
            }
          }),
        );
        quickPick.busy = false;
        quickPick.title = title;
      });
    }

    const pick = await chosen;
    controller.abort();
    quickPick.dispose();
    if (!pick) return;
    const found = await reveal(pick.integrationId, pick.repository?.url);
    if (!found && pick.repository) {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} is no longer listed by its integration.', `${pick.repository.owner}/${pick.repository.name}`));
    }
  });
}
