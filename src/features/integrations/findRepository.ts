import * as vscode from 'vscode';
import { type Repository } from '../../api';
import { messageOf } from '../../api/errors';
import { KnownIntegration } from '../../model/repositoryCatalog';
import { Services } from '../../platform/services';
import { isCancellation } from '../../platform/commandRunner';
import { Commands } from '../../platform/commandIds';

interface RepositoryPick extends vscode.QuickPickItem {
  integrationId: string;
  repository?: Repository;
}

/**
 * "Find Repository…": one quick pick over every known integration's
 * repositories. Cached lists show at once; the others are fetched while the
 * pick is open (busy, with progress), failures appear as items that reveal
 * the error row. Choosing a repository reveals its row in the tree.
 */
export function registerFindRepository(
  services: Services,
  reveal: (integrationId: string, repositoryUrl?: string) => Promise<boolean>,
): void {
  services.commands.register(Commands.findRepository, async () => {
    const integrations = services.catalog.integrations();
    if (integrations.length === 0) {
      const add = vscode.l10n.t('Add Integration…');
      const discover = vscode.l10n.t('Discover');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('No integrations yet: add one, or discover the ones your deployments use.'),
        add,
        discover,
      );
      if (choice === add) await vscode.commands.executeCommand(Commands.addIntegration);
      if (choice === discover) await vscode.commands.executeCommand(Commands.discoverIntegrations);
      return;
    }

    const quickPick = vscode.window.createQuickPick<RepositoryPick>();
    const title = vscode.l10n.t('Find Repository');
    quickPick.title = title;
    quickPick.placeholder = vscode.l10n.t('Type a repository name or owner');
    quickPick.matchOnDescription = true;
    quickPick.matchOnDetail = true;
    const sections = new Map<string, RepositoryPick[]>();
    /** As the tree names it: by its label, else by its code host and its repositories' most common owner. */
    const nameOf = (integration: KnownIntegration) => services.catalog.label(integration);
    const render = () => {
      const items: RepositoryPick[] = [];
      for (const integration of integrations) {
        const section = sections.get(integration.id);
        if (!section || section.length === 0) continue;
        items.push({ label: nameOf(integration), kind: vscode.QuickPickItemKind.Separator, integrationId: integration.id });
        items.push(...section);
      }
      quickPick.items = items;
    };

    const controller = new AbortController();
    const uncached = integrations.filter((integration) => !services.catalog.cached(integration.id));
    for (const integration of integrations) {
      const cached = services.catalog.cached(integration.id);
      if (cached) sections.set(integration.id, repositoryPicks(integration, cached, nameOf(integration)));
    }
    render();
    quickPick.busy = uncached.length > 0;
    if (uncached.length > 0) {
      quickPick.title =
        uncached.length === 1
          ? vscode.l10n.t('Find Repository (loading 1 integration…)')
          : vscode.l10n.t('Find Repository (loading {0} integrations…)', uncached.length);
    }

    const chosen = new Promise<RepositoryPick | undefined>((resolve) => {
      quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
      quickPick.onDidHide(() => resolve(undefined));
    });
    quickPick.show();

    if (uncached.length > 0) {
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading repositories') },
        async (progress) => {
          let done = 0;
          await Promise.all(
            uncached.map(async (integration) => {
              try {
                const repositories = await services.catalog.repositories(integration.id, controller.signal);
                sections.set(integration.id, repositoryPicks(integration, repositories, nameOf(integration)));
              } catch (error) {
                if (isCancellation(error)) return;
                const message = messageOf(error).split('\n')[0];
                sections.set(integration.id, [
                  { label: vscode.l10n.t('$(error) Could not load {0}', nameOf(integration)), detail: message, integrationId: integration.id, alwaysShow: true },
                ]);
              } finally {
                done++;
                progress.report({ message: `${done}/${uncached.length}` });
                if (!controller.signal.aborted) render();
              }
            }),
          );
          quickPick.busy = false;
          quickPick.title = title;
        },
      );
    }

    const pick = await chosen;
    controller.abort();
    quickPick.dispose();
    if (!pick) return;
    const found = await reveal(pick.integrationId, pick.repository?.url);
    if (!found && pick.repository) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('{0} is no longer listed by its integration.', `${pick.repository.owner}/${pick.repository.name}`),
      );
    }
  });
}

/** Each repository of an integration, its description naming the integration as the tree does. */
function repositoryPicks(integration: KnownIntegration, repositories: readonly Repository[], label: string): RepositoryPick[] {
  return repositories.map((repository) => ({
    label: `$(repo) ${repository.name}`,
    description: `${repository.owner} · ${label}`,
    detail: repository.url,
    integrationId: integration.id,
    repository,
  }));
}
