import vscode = require('vscode');
import type { Deployment } from '../../api';
import { DeploymentFilters } from '../../api/query';
import { idKey } from '../../model/ids';
import { customUrlOf, deploymentDescription, deploymentLabel, repositoryWebUrl, webConsoleUrl } from '../../model/deploymentPresentation';
import { deploymentType } from '../../model/deploymentType';
import { deploymentReferenceOf, IntegrationsFeature, Services } from '../../platform/services';
import { LoadedDeployment } from '../../model/deploymentList';
import { DeploymentJsonProvider } from './deploymentJson';
import { DeploymentsController } from './deploymentsController';
import { pickFilterChange } from './filterQuickPick';
import { copyAndSay } from '../../platform/clipboard';
import { readSettings } from '../../platform/settings';
import { Commands } from '../../platform/commandIds';

/**
 * Row commands take the tree element (what VS Code passes from a menu) or a deployment ID; the filter
 * command takes a filter change object, so tests and other features can skip the prompts.
 */
export function registerDeploymentCommands(
  services: Services,
  controller: DeploymentsController,
  integrations: IntegrationsFeature,
  json: DeploymentJsonProvider,
): void {
  const { commands } = services;
  /** The deployment a row command is about: the row, a deployment ID, or the selected row. */
  const need = (arg: unknown): LoadedDeployment => {
    const [element] = controller.deploymentElements(arg);
    if (!element) throw new Error(vscode.l10n.t('Select a deployment in the Deployments view first.'));
    return element.item;
  };
  /** The same, also for a row of another view that names a deployment by ID (This Workspace): looked up when not loaded. */
  const needRecord = async (arg: unknown): Promise<LoadedDeployment> => {
    const reference = deploymentReferenceOf(arg);
    return reference ? controller.lookup(reference.deploymentId) : need(arg);
  };
  const applyFilters = async (change: Partial<DeploymentFilters> | 'clear') => {
    if (change === 'clear') await controller.filters.clear();
    else await controller.filters.update(change);
    await controller.refresh();
  };
  const openExternal = async (url: string) => {
    await vscode.env.openExternal(vscode.Uri.parse(url, true));
    return url;
  };

  commands.register(Commands.refreshDeployments, () => controller.refresh());
  commands.register(Commands.loadMoreDeployments, () => controller.loadMore());

  commands.register(Commands.filterDeployments, async (change?: unknown) => {
    const choice =
      change && typeof change === 'object' && !('kind' in change)
        ? (change as Partial<DeploymentFilters>)
        : await pickFilterChange(controller.filters.filters, controller.list.rows);
    if (choice !== undefined) await applyFilters(choice);
    return controller.filters.filters;
  });

  commands.register(Commands.clearDeploymentFilters, () => applyFilters('clear'));

  const filterBy = (field: 'status' | 'image_version', filter: 'status' | 'imageVersion', missing: string) => async (arg?: unknown) => {
    const value = need(arg).deployment[field];
    if (!value) throw new Error(missing);
    await applyFilters({ [filter]: value });
  };
  commands.register(Commands.filterByStatus, filterBy('status', 'status', vscode.l10n.t('This deployment has no status to filter by.')));
  commands.register(
    Commands.filterByImageVersion,
    filterBy('image_version', 'imageVersion', vscode.l10n.t('This deployment has no image version to filter by.')),
  );

  commands.register(Commands.showDeploymentJson, async (arg?: unknown) => {
    // A record given whole: the one just created, which the view's filters may leave out.
    if (isRecordWithId(arg)) return json.show({ deployment: arg, key: idKey(arg.id) });
    return json.show(await needRecord(arg));
  });

  commands.register(Commands.copyDeploymentId, async (arg?: unknown, selected?: unknown) => {
    const rows = controller.deploymentElements(arg, selected);
    if (rows.length === 0) need(arg);
    const ids = rows.map((row) => row.item.deployment.id).filter((id): id is string => typeof id === 'string' && !!id);
    if (ids.length === 0) throw new Error(vscode.l10n.t('This deployment has no ID.'));
    await copyAndSay(ids.join('\n'), ids.length === 1 ? vscode.l10n.t('deployment ID {0}', ids[0]) : vscode.l10n.t('{0} deployment IDs', ids.length));
    return ids.length === 1 ? ids[0] : ids;
  });

  commands.register(Commands.compareDeployments, async (arg?: unknown, selected?: unknown) => {
    const rows = controller.deploymentElements(arg, selected);
    if (rows.length !== 2 && arg !== undefined) {
      throw new Error(vscode.l10n.t('Select two deployments to compare (Ctrl+click or Cmd+click the second one); {0} selected.', rows.length));
    }
    // From the Command Palette or a keybinding without two rows selected: choose among the loaded deployments.
    const loaded = rows.length === 2 ? undefined : controller.list.rows.filter((row) => !row.offContract).map((row) => row.item);
    if (loaded && loaded.length < 2) {
      throw new Error(vscode.l10n.t('Comparing needs two loaded deployments, and the Deployments view has {0}. Open the view (or Load more…) first.', loaded.length));
    }
    const pair = loaded ? await pickTwoDeployments(loaded, rows.map((row) => row.item.key)) : [rows[0].item, rows[1].item];
    if (!pair) return undefined;
    const [left, right] = pair;
    await json.compare(left, right);
    return [left.key, right.key];
  });

  /** Opens the row's URL that `urlOf` reads; `missing` when it has none. */
  const openUrlOf = (urlOf: (deployment: Deployment) => string | undefined, missing: string) => (arg?: unknown) => {
    const url = urlOf(need(arg).deployment);
    if (!url) throw new Error(missing);
    return openExternal(url);
  };
  commands.register(Commands.openCustomUrl, openUrlOf(customUrlOf, vscode.l10n.t('This deployment has no http(s) custom URL.')));
  commands.register(Commands.openDeploymentRepository, openUrlOf(repositoryWebUrl, vscode.l10n.t('This deployment has no http(s) repository URL.')));

  commands.register(Commands.openInWebConsole, async (arg?: unknown) => {
    const template = readSettings().webConsoleUrl;
    if (!template) throw new Error(vscode.l10n.t('Set deploymentsExplorer.webConsoleUrl to the address of a deployment in your web console first.'));
    const target = webConsoleUrl(template, (await needRecord(arg)).deployment);
    if ('problem' in target) throw new Error(target.problem);
    return openExternal(target.url);
  });

  commands.register(Commands.revealDeploymentRepository, async (arg?: unknown) => {
    const { integration_id: integrationId, repo_url: repoUrl } = need(arg).deployment.source_config ?? {};
    if (!integrationId || !repoUrl) throw new Error(vscode.l10n.t('This deployment names no integration and repository.'));
    const found = await integrations.revealRepository(integrationId, repoUrl);
    if (!found) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The repository {0} was not found in integration {1}. Add the integration, or refresh it, in the Integrations view.', repoUrl, integrationId),
      );
    }
    return found;
  });
}

function isRecordWithId(arg: unknown): arg is Deployment & { id: string } {
  return typeof arg === 'object' && arg !== null && !('kind' in arg) && typeof (arg as Deployment).id === 'string' && !!(arg as Deployment).id;
}

type CompareItem = vscode.QuickPickItem & { loaded: LoadedDeployment };

/**
 * The loaded deployments with check boxes, named as their rows are, the selected rows already checked.
 * OK with exactly two compares them; any other count keeps the pick open and says how many are checked.
 */
function pickTwoDeployments(loaded: readonly LoadedDeployment[], checkedKeys: readonly string[]): Promise<LoadedDeployment[] | undefined> {
  const pick = vscode.window.createQuickPick<CompareItem>();
  pick.title = vscode.l10n.t('Compare Deployments');
  pick.placeholder = vscode.l10n.t('Check the two deployments to compare');
  pick.canSelectMany = true;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = loaded.map((entry) => ({
    label: deploymentLabel(entry.deployment),
    description: [deploymentType(entry.deployment), deploymentDescription(entry.deployment)].filter(Boolean).join(' · ') || undefined,
    detail: entry.deployment.id ?? undefined,
    loaded: entry,
  }));
  pick.selectedItems = pick.items.filter((item) => checkedKeys.includes(item.loaded.key));
  return new Promise((resolve) => {
    let answer: LoadedDeployment[] | undefined;
    pick.onDidAccept(() => {
      if (pick.selectedItems.length !== 2) {
        pick.placeholder = vscode.l10n.t('Check exactly two deployments to compare; {0} checked.', pick.selectedItems.length);
        return;
      }
      answer = pick.selectedItems.map((item) => item.loaded);
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(answer);
    });
    pick.show();
  });
}
