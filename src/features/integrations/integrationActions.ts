import vscode = require('vscode');
import { Services } from '../../platform/services';
import { integrationIdOf, isRepositoryNode } from '../../model/integrationRows';
import { openableUrl } from '../../model/integrationPresentation';
import { copyAndSay } from '../../platform/clipboard';
import { Commands } from '../../platform/commandIds';

function integrationIdArgument(argument: unknown): string {
  const id = integrationIdOf(argument);
  if (!id) throw new Error(vscode.l10n.t('Choose an integration in the Integrations view first.'));
  return id;
}

function repositoryArgument(argument: unknown) {
  if (isRepositoryNode(argument)) return argument.repository;
  throw new Error(vscode.l10n.t('Choose a repository in the Integrations view first.'));
}

/** The actions on integration rows (remove, promote, refresh, copy) and on repository rows (copy URL, open in the browser). */
export function registerIntegrationActions(services: Services, reveal: (integrationId: string) => Promise<unknown>): void {
  const { commands, catalog, log } = services;
  const { profiles } = services.connection;

  commands.register(Commands.refreshIntegrations, () => {
    log.info('Refreshing all integrations');
    catalog.invalidate();
  });

  commands.register(Commands.refreshIntegration, (argument?: unknown) => {
    const id = integrationIdArgument(argument);
    log.info(`Refreshing integration ${id}`);
    catalog.invalidate(id);
  });

  commands.register(Commands.copyIntegrationId, async (argument?: unknown) => {
    const id = integrationIdArgument(argument);
    await copyAndSay(id, vscode.l10n.t('integration ID {0}', id));
  });

  commands.register(Commands.removeIntegration, async (argument?: unknown): Promise<boolean> => {
    const id = integrationIdArgument(argument).toLowerCase();
    const entry = profiles.integrations().find((candidate) => candidate.id.toLowerCase() === id);
    if (!entry) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Integration {0} is not in your settings.', id));
      return false;
    }
    const remove = vscode.l10n.t('Remove');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove integration {0} from your settings?', catalog.label(entry)),
      { modal: true, detail: vscode.l10n.t('{0}\nIts repositories are no longer shown. Deployments are not affected.', entry.id) },
      remove,
    );
    if (choice !== remove) return false;
    await profiles.setIntegrations(profiles.integrations().filter((candidate) => candidate.id.toLowerCase() !== id));
    catalog.invalidate(id);
    log.info(`Integration ${entry.id} removed from settings`);
    return true;
  });

  commands.register(Commands.promoteIntegration, async (argument?: unknown): Promise<boolean> => {
    const id = integrationIdArgument(argument).toLowerCase();
    const current = profiles.integrations();
    if (current.some((candidate) => candidate.id.toLowerCase() === id)) return false;
    await profiles.setIntegrations([...current, { id }]);
    log.info(`Discovered integration ${id} added to settings`);
    await reveal(id);
    return true;
  });

  commands.register(Commands.copyRepositoryUrl, async (argument?: unknown) => {
    const { url } = repositoryArgument(argument);
    await copyAndSay(url, url);
  });

  commands.register(Commands.openRepository, async (argument?: unknown): Promise<boolean> => {
    const target = openableUrl(repositoryArgument(argument).url);
    if ('problem' in target) throw new Error(target.problem);
    log.info(`Opening ${target.url}`);
    return vscode.env.openExternal(vscode.Uri.parse(target.url, true));
  });
}
