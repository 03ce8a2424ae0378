import vscode = require('vscode');
import { messageOf } from '../../api/errors';
import { DeploymentFilters, splitIdList, validateIdList } from '../../api/query';
import { DEPLOYMENT_TYPES, KNOWN_STATUSES } from '../../api/vocabulary';
import { FILTER_NAMES, FilterName, filterValueText, filterWords } from '../../model/deploymentFilters';
import type { DeploymentRow } from '../../model/deploymentList';

/** What the user chose: a change to merge, 'clear' for all, or undefined when they cancelled. */
type FilterChoice = Partial<DeploymentFilters> | 'clear' | undefined;

type Option = vscode.QuickPickItem & { value: string };

/** Every filter with its current value, then that filter's editor; status and image version also offer the loaded records' values. */
export async function pickFilterChange(filters: DeploymentFilters, loaded: readonly DeploymentRow[]): Promise<FilterChoice> {
  const items: Array<vscode.QuickPickItem & { filter?: FilterName }> = FILTER_NAMES.map((name) => ({
    label: filterWords(name).title,
    description: filterValueText(filters, name),
    filter: name,
  }));
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: vscode.l10n.t('$(clear-all) Clear all filters') });
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Filter Deployments'),
    placeHolder: vscode.l10n.t('Choose a filter to change (filters are applied by the server)'),
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if (!choice.filter) return 'clear';
  const name = choice.filter;
  // The store trims what is typed, drops what is empty and validates ID lists.
  const value = await askValue(name, filters, loaded);
  if (value === undefined) return undefined;
  if (name === 'remoteReconciled') return { remoteReconciled: value === '' ? undefined : value === 'true' };
  return { [name]: name === 'tagValueIds' || name === 'deploymentIds' ? splitIdList(value) : value };
}

function askValue(name: FilterName, filters: DeploymentFilters, loaded: readonly DeploymentRow[]): Thenable<string | undefined> {
  const seen = (field: 'status' | 'image_version') => {
    const values = new Set(loaded.map(({ item, offContract: invalid }) => !invalid && item.deployment[field]).filter((value): value is string => typeof value === 'string' && !!value));
    return [...values].sort(new Intl.Collator(undefined, { numeric: true }).compare);
  };
  switch (name) {
    case 'nameContains':
      return vscode.window.showInputBox({
        title: vscode.l10n.t('Filter by Name'),
        prompt: vscode.l10n.t('Deployments whose name contains this text. Leave empty for any name.'),
        value: filters.nameContains ?? '',
      });
    case 'status': {
      const known = new Set<string>(KNOWN_STATUSES);
      return pickWithFreeEntry(vscode.l10n.t('Filter by Status'), vscode.l10n.t('Pick a status or type another'), filters.status, [
        ...KNOWN_STATUSES.map((status) => ({ label: status, value: status })),
        ...seen('status')
          .filter((status) => !known.has(status))
          .map((status) => ({ label: status, value: status, description: vscode.l10n.t('seen in loaded deployments') })),
      ]);
    }
    case 'deploymentType':
      return pickOne(vscode.l10n.t('Filter by Deployment Type'), filters.deploymentType, [
        { label: vscode.l10n.t('Any type'), value: '' },
        ...DEPLOYMENT_TYPES.map((type) => ({ label: type, value: type })),
      ]);
    case 'imageVersion':
      return pickWithFreeEntry(
        vscode.l10n.t('Filter by Image Version'),
        vscode.l10n.t('Pick an image version seen in loaded deployments or type one'),
        filters.imageVersion,
        seen('image_version')
          .reverse()
          .map((version) => ({ label: version, value: version })),
      );
    case 'remoteReconciled':
      return pickOne(vscode.l10n.t('Filter by Remote Reconciliation'), filters.remoteReconciled?.toString(), [
        { label: vscode.l10n.t('Any'), value: '' },
        { label: vscode.l10n.t('Yes'), value: 'true', description: vscode.l10n.t('remotely reconciled') },
        { label: vscode.l10n.t('No'), value: 'false', description: vscode.l10n.t('not remotely reconciled') },
      ]);
    case 'tagValueIds':
    case 'deploymentIds': {
      const parameter = name === 'tagValueIds' ? 'tag_value_ids' : 'deployment_ids';
      return vscode.window.showInputBox({
        title: vscode.l10n.t('Filter by {0}', filterWords(name).title),
        prompt:
          name === 'tagValueIds'
            ? vscode.l10n.t('Comma-separated tag value IDs. Leave empty for any.')
            : vscode.l10n.t('Comma-separated deployment IDs (UUIDs). Leave empty for any.'),
        value: (filters[name] ?? []).join(', '),
        // The message under the input box while the list is invalid, naming the bad item.
        validateInput: (text) => {
          try {
            validateIdList(parameter, splitIdList(text));
            return undefined;
          } catch (error) {
            return messageOf(error);
          }
        },
      });
    }
  }
}

/** `options` with "current" beside the one whose value is `current` ('' for "any"). */
function markCurrent(options: readonly Option[], current = ''): Option[] {
  const word = vscode.l10n.t('current');
  return options.map((option) => ({
    ...option,
    description: [option.description, option.value === current ? word : undefined].filter(Boolean).join(' · ') || undefined,
  }));
}

async function pickOne(title: string, current: string | undefined, options: Option[]): Promise<string | undefined> {
  return (await vscode.window.showQuickPick(markCurrent(options, current), { title }))?.value;
}

/** Known values, "Any" ('') first, where typing offers the typed text as its own item: the contract leaves the list open. */
function pickWithFreeEntry(title: string, placeholder: string, current: string | undefined, options: Option[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<Option>();
    const fixed = markCurrent([{ label: vscode.l10n.t('Any'), value: '' }, ...options], current);
    pick.title = title;
    pick.placeholder = placeholder;
    pick.items = fixed;
    let result: string | undefined;
    pick.onDidChangeValue(() => {
      const typed = pick.value.trim();
      const own = typed && !fixed.some((item) => item.value === typed);
      pick.items = own ? [{ label: typed, value: typed, description: vscode.l10n.t('use this value'), alwaysShow: true }, ...fixed] : fixed;
    });
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
