import * as vscode from 'vscode';
import { messageOf } from '../../api/errors';
import { DeploymentFilters, splitIdList, validateIdList } from '../../api/query';
import { DEPLOYMENT_TYPES, KNOWN_STATUSES } from '../../api/vocabulary';
import { FILTER_NAMES, FILTER_TITLES, FilterName, filterValueText } from '../../model/deploymentFilters';

/** Values seen in the loaded records, offered next to the known ones. */
export interface SeenValues {
  statuses: readonly string[];
  imageVersions: readonly string[];
}

/** What the user chose: a change to merge, 'clear' for all, or undefined when they cancelled. */
export type FilterChoice = Partial<DeploymentFilters> | 'clear' | undefined;

interface FilterItem extends vscode.QuickPickItem {
  filter?: FilterName;
  clear?: boolean;
}

/** The "Filter…" quick pick: every filter with its current value, then that filter's editor. */
export async function pickFilterChange(filters: DeploymentFilters, seen: SeenValues): Promise<FilterChoice> {
  const items: FilterItem[] = FILTER_NAMES.map((name) => ({
    label: FILTER_TITLES[name],
    description: filterValueText(filters, name),
    filter: name,
  }));
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: vscode.l10n.t('$(clear-all) Clear all filters'), clear: true });
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Filter Deployments'),
    placeHolder: vscode.l10n.t('Choose a filter to change (filters are applied by the server)'),
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if (choice.clear) return 'clear';
  return editFilter(choice.filter!, filters, seen);
}

async function editFilter(name: FilterName, filters: DeploymentFilters, seen: SeenValues): Promise<FilterChoice> {
  switch (name) {
    case 'nameContains': {
      const value = await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter by Name'),
        prompt: vscode.l10n.t('Deployments whose name contains this text. Leave empty for any name.'),
        value: filters.nameContains ?? '',
      });
      return value === undefined ? undefined : { nameContains: value.trim() || undefined };
    }
    case 'status': {
      const known = new Set<string>(KNOWN_STATUSES);
      const extra = seen.statuses.filter((status) => !known.has(status));
      const value = await pickWithFreeEntry(vscode.l10n.t('Filter by Status'), vscode.l10n.t('Pick a status or type another'), filters.status, [
        ...KNOWN_STATUSES.map((status) => ({ label: status })),
        ...extra.map((status) => ({ label: status, description: vscode.l10n.t('seen in loaded deployments') })),
      ]);
      return value === undefined ? undefined : { status: value || undefined };
    }
    case 'deploymentType': {
      const value = await pickOne(vscode.l10n.t('Filter by Deployment Type'), filters.deploymentType, [
        { label: vscode.l10n.t('Any type'), value: '' },
        ...DEPLOYMENT_TYPES.map((type) => ({ label: type, value: type })),
      ]);
      return value === undefined ? undefined : { deploymentType: (value || undefined) as DeploymentFilters['deploymentType'] };
    }
    case 'imageVersion': {
      const value = await pickWithFreeEntry(
        vscode.l10n.t('Filter by Image Version'),
        vscode.l10n.t('Pick an image version seen in loaded deployments or type one'),
        filters.imageVersion,
        seen.imageVersions.map((version) => ({ label: version })),
      );
      return value === undefined ? undefined : { imageVersion: value || undefined };
    }
    case 'remoteReconciled': {
      const current = filters.remoteReconciled === undefined ? '' : String(filters.remoteReconciled);
      const value = await pickOne(vscode.l10n.t('Filter by Remote Reconciliation'), current, [
        { label: vscode.l10n.t('Any'), value: '' },
        { label: vscode.l10n.t('Yes'), value: 'true', description: vscode.l10n.t('remotely reconciled') },
        { label: vscode.l10n.t('No'), value: 'false', description: vscode.l10n.t('not remotely reconciled') },
      ]);
      return value === undefined ? undefined : { remoteReconciled: value === '' ? undefined : value === 'true' };
    }
    case 'tagValueIds':
    case 'deploymentIds': {
      const parameter = name === 'tagValueIds' ? 'tag_value_ids' : 'deployment_ids';
      const value = await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter by {0}', FILTER_TITLES[name]),
        prompt:
          name === 'tagValueIds'
            ? vscode.l10n.t('Comma-separated tag value IDs. Leave empty for any.')
            : vscode.l10n.t('Comma-separated deployment IDs (UUIDs). Leave empty for any.'),
        value: (filters[name] ?? []).join(', '),
        validateInput: (text) => idListProblem(parameter, text),
      });
      if (value === undefined) return undefined;
      const items = validateIdList(parameter, splitIdList(value));
      return { [name]: items.length > 0 ? items : undefined };
    }
  }
}

/** The message shown under the input box while the list is invalid, naming the bad item. */
function idListProblem(parameter: 'tag_value_ids' | 'deployment_ids', text: string): string | undefined {
  try {
    validateIdList(parameter, splitIdList(text));
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

async function pickOne(title: string, current: string | undefined, options: Array<vscode.QuickPickItem & { value: string }>): Promise<string | undefined> {
  const items = options.map((option) => ({
    ...option,
    description: [option.description, option.value === (current ?? '') ? vscode.l10n.t('current') : undefined].filter(Boolean).join(' · ') || undefined,
  }));
  const choice = await vscode.window.showQuickPick(items, { title });
  return choice?.value;
}

/**
 * A pick of known values where typing offers the typed text as its own item,
 * because the contract leaves the list open. Answers '' for "any".
 */
function pickWithFreeEntry(title: string, placeholder: string, current: string | undefined, options: vscode.QuickPickItem[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { value: string }>();
    const currentWord = vscode.l10n.t('current');
    const anyItem = { label: vscode.l10n.t('Any'), value: '', description: current === undefined ? currentWord : undefined };
    const fixed = [
      anyItem,
      ...options.map((option) => ({ ...option, value: option.label, description: [option.description, option.label === current ? currentWord : undefined].filter(Boolean).join(' · ') || undefined })),
    ];
    pick.title = title;
    pick.placeholder = placeholder;
    pick.items = fixed;
    const update = () => {
      const typed = pick.value.trim();
      if (typed && !fixed.some((item) => item.value === typed)) {
        pick.items = [{ label: typed, value: typed, description: vscode.l10n.t('use this value'), alwaysShow: true }, ...fixed];
      } else {
        pick.items = fixed;
      }
    };
    let result: string | undefined;
    pick.onDidChangeValue(update);
    pick.onDidAccept(() => {
      const selected = pick.selectedItems[0] ?? pick.activeItems[0];
      result = selected ? selected.value : pick.value.trim() || undefined;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(result);
    });
    pick.show();
  });
}
