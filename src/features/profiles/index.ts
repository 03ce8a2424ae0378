import vscode = require('vscode');
import { messageOf } from '../../api';
import { baseUrlProblem } from '../../api/baseUrl';
import { apiKeyInputProblem, originOf, Profile, profileNameProblem, tenantInputProblem } from '../../model/profileRules';
import { argumentOrInput, isCancellation } from '../../platform/commandRunner';
import { Services } from '../../platform/services';
import { Commands } from '../../platform/commandIds';
import { headline } from '../../model/viewText';

/** What Add Profile… takes as an argument (scripts, tests) instead of asking. */
interface AddProfileArguments {
  name: string;
  baseUrl: string;
  apiKey?: string;
  tenantId?: string;
  /** Switch to it afterwards without asking. */
  switchTo?: boolean;
}

export interface AddProfileResult {
  profile: Profile;
  /** What the one check request found. */
  check: 'ok' | 'failed' | 'skipped';
  message: string;
}

/**
 * Profiles: Switch / Add / Rename / Remove Profile…, the status bar item and the titles (naming the active profile
 * once there are two or more) and messages of `views`. Switching is the connection's work: this only asks which.
 */
export function registerProfiles(services: Services, views: readonly { view: vscode.TreeView<unknown>; title: string }[]): void {
  const { commands, connection, context, log } = services;
  const store = connection.profiles;

  const status = vscode.window.createStatusBarItem('deploymentsExplorer.profile', vscode.StatusBarAlignment.Left, 10);
  status.name = vscode.l10n.t('Deployments Explorer Profile');
  status.command = Commands.switchProfile;
  context.subscriptions.push(status);

  let updates = 0;
  const update = async () => {
    const current = ++updates;
    const profile = store.active();
    const several = store.list().length > 1;
    const effective = store.effective(profile);
    const origin = originOf(effective.baseUrl);
    if (several) {
      status.text = `$(server-environment) ${profile.name}`;
      status.tooltip = vscode.l10n.t('Deployments Explorer: profile “{0}” ({1}). Click to switch.', profile.name, origin ?? vscode.l10n.t('no base URL'));
      status.show();
    } else {
      status.hide();
    }
    const resolved = await connection.resolve().catch(() => undefined);
    if (current !== updates) return; // a newer change is being shown
    let message: string | undefined;
    if (resolved?.key === 'send') {
      if (!vscode.workspace.isTrusted) {
        message = vscode.l10n.t('Restricted Mode: this workspace’s connection settings are ignored; your own settings and profiles are used.');
      } else if (effective.fromWorkspace) {
        message = vscode.l10n.t('Showing {0}, set by this workspace’s settings (profile “{1}”).', origin ?? effective.baseUrl, profile.name);
      }
    }
    for (const { view, title } of views) {
      view.title = several ? `${title} — ${profile.name}` : title;
      services.messages.set(view, 'connection', message);
    }
  };
  void update();
  // The Restricted Mode message goes with trust, whether or not the workspace's settings change the connection.
  context.subscriptions.push(connection.onDidChange(() => void update()), vscode.workspace.onDidGrantWorkspaceTrust(() => void update()));

  commands.register(Commands.switchProfile, async (argument?: unknown): Promise<Profile | undefined> => {
    if (typeof argument === 'string') return store.switchTo(argument);
    const active = store.active();
    type Item = vscode.QuickPickItem & { profile?: Profile; add?: true };
    const items: Item[] = store.list().map((profile) => ({
      label: profile.id === active.id ? `$(check) ${profile.name}` : profile.name,
      description: [originOf(profile.baseUrl) ?? vscode.l10n.t('no base URL'), profile.tenantId && vscode.l10n.t('tenant {0}', profile.tenantId)].filter(Boolean).join(' · '),
      profile,
    }));
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: `$(add) ${vscode.l10n.t('Add Profile…')}`, add: true });
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Switch Profile'),
      placeHolder: vscode.l10n.t('The control plane this workspace shows (now “{0}”)', active.name),
      matchOnDescription: true,
    });
    if (picked?.add) return (await vscode.commands.executeCommand<AddProfileResult | undefined>(Commands.addProfile))?.profile;
    return picked?.profile && store.switchTo(picked.profile.id);
  });

  commands.register(Commands.addProfile, async (argument?: AddProfileArguments): Promise<AddProfileResult | undefined> => {
    // An implicit Default without a base URL is not kept when the first profile is added.
    const taken = store.list().filter((profile) => !profile.implicit || profile.baseUrl).map((profile) => profile.name);
    const input = argument && typeof argument === 'object' ? argument : await askForProfile(taken);
    if (!input) return undefined;
    const problem = profileNameProblem(input.name, taken) ?? baseUrlProblem(input.baseUrl);
    if (problem) throw new Error(problem);
    const profile = await store.add(
      { name: input.name.trim(), baseUrl: input.baseUrl.trim(), ...(input.tenantId?.trim() ? { tenantId: input.tenantId.trim() } : {}) },
      input.apiKey?.trim() || undefined,
    );
    const result = await checkProfile(profile, input.apiKey?.trim());
    log.info(`Profile ${profile.name}: ${result.message}`);
    const switchLabel = vscode.l10n.t('Switch to “{0}”', profile.name);
    if (argument?.switchTo) {
      await store.switchTo(profile.id);
    } else if (!argument) {
      const show = result.check === 'failed' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void Promise.resolve(show(result.message, switchLabel)).then((choice) => {
        if (choice === switchLabel) void store.switchTo(profile.id);
      });
    }
    return result;
  });

  commands.register(Commands.renameProfile, async (argument?: unknown, newName?: unknown): Promise<boolean> => {
    const profile = await pickProfile(argument, vscode.l10n.t('Rename Profile'));
    if (!profile) return false;
    // Said before asking for a name that could not be written.
    if (profile.fromWorkspace) throw new Error(vscode.l10n.t('Profile “{0}” is defined in this workspace’s settings; edit it there.', profile.name));
    const others = store.list().filter((candidate) => candidate.id !== profile.id).map((candidate) => candidate.name);
    const name = await argumentOrInput(newName, {
      title: vscode.l10n.t('Rename Profile “{0}”', profile.name),
      value: profile.name,
      prompt: vscode.l10n.t('Its API key, integrations and filters stay with it.'),
      validateInput: (text) => profileNameProblem(text, others),
    });
    if (name === undefined || name.trim() === profile.name) return false;
    const problem = profileNameProblem(name, others);
    if (problem) throw new Error(problem);
    await store.rename(profile.id, name);
    return true;
  });

  commands.register(Commands.removeProfile, async (argument?: unknown, confirmed?: unknown): Promise<boolean> => {
    const profile = await pickProfile(argument, vscode.l10n.t('Remove Profile'));
    if (!profile) return false;
    // Said before asking to confirm a removal that could not be carried out.
    if (profile.fromWorkspace) throw new Error(vscode.l10n.t('Profile “{0}” is defined in this workspace’s settings; remove it there.', profile.name));
    if (confirmed !== true) {
      const remove = vscode.l10n.t('Remove');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Remove profile “{0}”?', profile.name),
        {
          modal: true,
          detail: vscode.l10n.t('Its stored API key is deleted from secret storage, and its integrations from your settings. Nothing changes on {0}.', originOf(profile.baseUrl) ?? profile.baseUrl),
        },
        remove,
      );
      if (choice !== remove) return false;
    }
    await store.remove(profile.id);
    return true;
  });

  commands.register(Commands.allowApiKeyForOrigin, () => connection.allowKeyForCurrentOrigin());

  async function pickProfile(argument: unknown, title: string): Promise<Profile | undefined> {
    if (typeof argument === 'string') return store.named(argument);
    const picked = await vscode.window.showQuickPick(
      store.list().map((profile) => ({ label: profile.name, description: originOf(profile.baseUrl), profile })),
      { title, placeHolder: vscode.l10n.t('Choose a profile') },
    );
    return picked?.profile;
  }

  /** One listing request with the new profile's own key, to its own base URL: does the key work? */
  async function checkProfile(profile: Profile, apiKey: string | undefined): Promise<AddProfileResult> {
    const result = (check: AddProfileResult['check'], message: string) => ({ profile, check, message });
    if (!apiKey) return result('skipped', vscode.l10n.t('Profile “{0}” added. No API key was given: set one after switching to it.', profile.name));
    try {
      await commands.withProgress(vscode.l10n.t('Checking profile “{0}”', profile.name), (signal) => connection.checkKey(profile, apiKey, signal));
      return result('ok', vscode.l10n.t('Profile “{0}” added: the key works at {1}.', profile.name, originOf(profile.baseUrl) ?? profile.baseUrl));
    } catch (error) {
      if (isCancellation(error)) return result('skipped', vscode.l10n.t('Profile “{0}” added; the check was cancelled.', profile.name));
      return result('failed', vscode.l10n.t('Profile “{0}” added, but the key did not work: {1}', profile.name, headline(messageOf(error))));
    }
  }
}

/** Name, base URL (checked as typed), key (password input) and an optional tenant. */
async function askForProfile(taken: readonly string[]): Promise<AddProfileArguments | undefined> {
  const step = (n: number, options: vscode.InputBoxOptions) =>
    vscode.window.showInputBox({ title: `${vscode.l10n.t('Add Profile')} (${n}/4)`, ignoreFocusOut: true, ...options });
  const name = await step(1, {
    prompt: vscode.l10n.t('A short name for this control plane, e.g. “EU”, “US” or “Self-hosted”.'),
    validateInput: (text) => profileNameProblem(text, taken),
  });
  if (name === undefined) return undefined;
  const baseUrl = await step(2, {
    prompt: vscode.l10n.t('Base URL of its control-plane API. A path prefix such as /api-host is kept.'),
    placeHolder: 'https://api.example.com',
    validateInput: baseUrlProblem,
  });
  if (baseUrl === undefined) return undefined;
  const apiKey = await step(3, {
    prompt: vscode.l10n.t('Its API key: stored in VS Code’s secret storage and sent only to {0}.', originOf(baseUrl) ?? baseUrl),
    password: true,
    validateInput: (text) => (text.trim() ? apiKeyInputProblem(text) : undefined),
  });
  if (apiKey === undefined) return undefined;
  const tenantId = await step(4, {
    prompt: vscode.l10n.t('Tenant (workspace) ID for organisation-scoped keys; leave empty for none.'),
    validateInput: tenantInputProblem,
  });
  if (tenantId === undefined) return undefined;
  return { name, baseUrl, apiKey, tenantId };
}
