import vscode = require('vscode');
import { deploymentDescription, deploymentLabel } from '../../model/deploymentPresentation';
import { LoadedDeployment } from '../../model/deploymentList';

type CompareItem = vscode.QuickPickItem & { loaded: LoadedDeployment };

/**
 * Compare Deployments from the Command Palette or a keybinding, without two rows selected: the
 * loaded deployments with check boxes, named as their rows are, the selected rows already checked. OK with exactly two
 * compares them; any other count keeps the pick open and says how many are checked.
 */
export function pickTwoDeployments(loaded: readonly LoadedDeployment[], checkedKeys: readonly string[]): Promise<[LoadedDeployment, LoadedDeployment] | undefined> {
  const items: CompareItem[] = loaded.map((entry) => ({
    label: deploymentLabel(entry.deployment),
    description: deploymentDescription(entry.deployment) || undefined,
    detail: entry.deployment.id ?? undefined,
    loaded: entry,
  }));
  const pick = vscode.window.createQuickPick<CompareItem>();
  pick.title = vscode.l10n.t('Compare Deployments');
  pick.placeholder = vscode.l10n.t('Check the two deployments to compare');
  pick.canSelectMany = true;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.items = items;
  pick.selectedItems = items.filter((item) => checkedKeys.includes(item.loaded.key));
  return new Promise((resolve) => {
    let answer: [LoadedDeployment, LoadedDeployment] | undefined;
    pick.onDidAccept(() => {
      const checked = pick.selectedItems;
      if (checked.length !== 2) {
        pick.placeholder = vscode.l10n.t('Check exactly two deployments to compare; {0} checked.', checked.length);
        return;
      }
      answer = [checked[0].loaded, checked[1].loaded];
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(answer);
    });
    pick.show();
  });
}
