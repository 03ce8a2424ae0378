import * as vscode from 'vscode';
import { Repository } from '../../api';
import { Services } from '../../platform/services';
import { isRepositoryNode } from '../../model/integrationNodes';
import { openableUrl } from '../../model/integrationPresentation';
import { copyAndSay } from '../../platform/clipboard';
import { Commands } from '../../platform/commandIds';

function repositoryArgument(argument: unknown): Repository {
  if (isRepositoryNode(argument)) return argument.repository;
  throw new Error(vscode.l10n.t('Choose a repository in the Integrations view first.'));
}

/** Copy URL and Open in the browser: the actions on repository rows. */
export function registerRepositoryActions({ commands, log }: Services): void {
  commands.register(Commands.copyRepositoryUrl, async (argument?: unknown) => {
    const repository = repositoryArgument(argument);
    await copyAndSay(repository.url, repository.url);
  });

  commands.register(Commands.openRepository, async (argument?: unknown): Promise<boolean> => {
    const repository = repositoryArgument(argument);
    const target = openableUrl(repository.url);
    if ('problem' in target) throw new Error(target.problem);
    log.info(`Opening ${target.url}`);
    return vscode.env.openExternal(vscode.Uri.parse(target.url, true));
  });
}
