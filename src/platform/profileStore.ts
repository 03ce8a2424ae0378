import vscode = require('vscode');
import {
  answerFor,
  bindingAfterStore,
  ConnectionFields,
  ConnectionSettings,
  DEFAULT_PROFILE_ID,
  EffectiveConnection,
  effectiveConnection,
  implicitProfile,
  KeyBinding,
  LegacySettings,
  mergeProfiles,
  newProfileId,
  originOf,
  parseProfiles,
  Profile,
  ProfileSetting,
  profileFromLegacy,
  resolveActiveProfile,
} from '../model/profileRules';
import type { IntegrationSetting } from '../model/repositoryCatalog';
import { isUuid } from '../api/vocabulary';
import { isPlainObject } from '../model/jsonValues';
import { warnWithSettingsButton } from './commandRunner';
import { SECTION } from './settings';

/** 0.1.0's secret: the key of profile Default, so an upgrade keeps it where it is. */
const API_KEY_SECRET = 'deploymentsExplorer.apiKey';
const API_KEY_ENV = 'DEPLOYMENTS_EXPLORER_API_KEY';
const KEY_CHANGED = 'API key changed';
/** workspaceState: the ID of this workspace's active profile. */
const ACTIVE_PROFILE_STATE = 'deploymentsExplorer.activeProfile';
/** globalState: profile ID → KeyBinding. */
const KEY_BINDINGS_STATE = 'deploymentsExplorer.keyBindings';
/** globalState: set once 0.1.0's key is bound to its base URL (see migrate). */
const MIGRATED_STATE = 'deploymentsExplorer.profilesMigrated';

/** The top-level settings a profile replaces; in a workspace's own settings they override the active profile. */
const CONNECTION_FIELDS = ['baseUrl', 'apiKeyHeader', 'tenantId', 'tenantHeader', 'caFile', 'strictSSL'] as const satisfies readonly (keyof ConnectionFields)[];
/** The values of the section set in one scope, nested as in settings.json (`createDeployment.defaults` is `createDeployment: { defaults }`). */
type SectionValues = Record<string, unknown> & { createDeployment?: { defaults?: unknown } };

const config = () => vscode.workspace.getConfiguration(SECTION);
/** The section's values per scope: one `inspect` answers them all, for about what one key's costs. */
const inspectSection = () => vscode.workspace.getConfiguration().inspect<SectionValues>(SECTION);
const secretName = (profileId: string) => (profileId === DEFAULT_PROFILE_ID ? API_KEY_SECRET : `${API_KEY_SECRET}.${profileId}`);
const entryId = (entry: ProfileSetting) => (entry.id ?? entry.name).toLowerCase();

/** The user's own (global) values of 0.1.0's settings: what the implicit profile Default is made of. */
function legacyUserSettings(user = inspectSection()?.globalValue ?? {}): LegacySettings {
  return {
    ...Object.fromEntries(CONNECTION_FIELDS.map((name) => [name, user[name]])),
    integrations: user.integrations,
    createDefaults: user.createDeployment?.defaults,
  };
}

/** The well-formed entries of an integrations setting, each once; a hand-edited bad entry must not break the view. */
function readIntegrations(value: unknown): IntegrationSetting[] {
  const byId = new Map<string, IntegrationSetting>();
  for (const entry of Array.isArray(value) ? value : []) {
    const id = typeof entry === 'string' ? entry.trim() : typeof entry?.id === 'string' ? entry.id.trim() : '';
    const label = typeof entry?.label === 'string' ? entry.label.trim() : '';
    if (isUuid(id) && !byId.has(id.toLowerCase())) byId.set(id.toLowerCase(), label ? { id, label } : { id });
  }
  return [...byId.values()];
}

/** What the settings say about profiles, read at once. */
interface Snapshot {
  profiles: readonly Profile[];
  problems: readonly string[];
  active: Profile;
  workspaceOverrides: ConnectionSettings;
}

/** What the connection is built from: each profile's name and connection, the active one, the workspace's own connection settings. */
function signatureOf(snapshot: Snapshot): string {
  const strip = ({ integrations: _integrations, createDefaults: _createDefaults, ...rest }: Profile) => rest;
  return JSON.stringify([snapshot.profiles.map(strip), snapshot.active.id, snapshot.workspaceOverrides]);
}

/**
 * The profiles (from `deploymentsExplorer.profiles`, or the one 0.1.0's settings make up), the active one per
 * workspace, each profile's key in SecretStorage and the origin it was stored for.
 */
export class ProfileStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string>();
  /** What the connection is built from changed (see signatureOf), or a stored key or its origin binding did: says which. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[];
  /** The settings as last read: read again when they change, as VS Code answers `inspect` slowly. */
  private snapshot: Snapshot;
  /**
   * The key last announced for each secret: secret storage also reports the stores and deletes made here (an
   * unchanged key may not be reported at all), which announced themselves already; twice would reload the views twice.
   */
  private readonly announcedKeys = new Map<string, string | undefined>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.snapshot = this.read();
    this.disposables = [
      this.changed,
      vscode.workspace.onDidChangeConfiguration((event) => {
        // 0.1.0's settings make up the implicit profile Default, so any setting of the section counts.
        if (event.affectsConfiguration(SECTION)) this.reread();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.reread()),
      // Fires for changes made in other windows too, and after this store's own (see announcedKeys).
      context.secrets.onDidChange((event) => {
        if (event.key === API_KEY_SECRET || event.key.startsWith(`${API_KEY_SECRET}.`)) this.track(this.secretChanged(event.key));
      }),
    ];
  }

  /**
   * Reads the user's profiles (or the implicit Default), then those a trusted workspace's own settings add, each
   * list parsed on its own: VS Code would otherwise let a workspace's list replace the user's. In restricted mode
   * only the user's settings count. A hand-edited mistake is said (logged and shown) once, naming the entry, when
   * it differs from what `previous` left out; the other profiles still work.
   */
  private read(previous?: Snapshot): Snapshot {
    const inspected = inspectSection();
    const user = inspected?.globalValue ?? {};
    const workspace: SectionValues = vscode.workspace.isTrusted ? { ...inspected?.workspaceValue, ...inspected?.workspaceFolderValue } : {};
    const own = parseProfiles(user.profiles);
    const merged = mergeProfiles(
      own.profiles.length > 0 ? own.profiles : [implicitProfile(legacyUserSettings(user))],
      workspace.profiles === undefined ? undefined : parseProfiles(workspace.profiles),
    );
    const problems = [...own.problems, ...merged.problems];
    const text = problems.join(' ');
    if (text && text !== previous?.problems.join(' ')) {
      this.log.warn(`Profiles: ${text}`);
      warnWithSettingsButton(vscode.l10n.t('Some Deployments Explorer profiles are ignored: {0}', text), `${SECTION}.profiles`);
    }
    const chosen = this.context.workspaceState.get<string>(ACTIVE_PROFILE_STATE);
    const defaultName = workspace.defaultProfile ?? user.defaultProfile;
    return {
      profiles: merged.profiles,
      problems,
      // Never undefined: there is always one profile, the implicit Default at least.
      active: resolveActiveProfile(merged.profiles, chosen, typeof defaultName === 'string' ? defaultName : undefined)!,
      workspaceOverrides: Object.fromEntries(CONNECTION_FIELDS.map((name) => [name, workspace[name]])),
    };
  }

  /** Reads the settings again; an added integration rewrites the setting but must not reload the views (see signatureOf). */
  private reread(): void {
    const previous = this.snapshot;
    this.snapshot = this.read(previous);
    if (signatureOf(this.snapshot) !== signatureOf(previous)) this.changed.fire('profiles or connection settings changed');
  }

  list(): readonly Profile[] {
    return this.snapshot.profiles;
  }

  active(): Profile {
    return this.snapshot.active;
  }

  /** The connection of `profile` with the workspace's own connection settings applied (none in restricted mode). */
  effective(profile = this.active()): EffectiveConnection {
    return effectiveConnection(profile, this.snapshot.workspaceOverrides);
  }

  /** The profile `nameOrId` names, by ID or name (any case); throws when there is none. */
  named(nameOrId: string): Profile {
    const wanted = nameOrId.trim().toLowerCase();
    const found = this.list().find((profile) => profile.id === wanted) ?? this.list().find((profile) => profile.name.toLowerCase() === wanted);
    if (!found) throw new Error(vscode.l10n.t('There is no profile named “{0}”.', nameOrId));
    return found;
  }

  async switchTo(nameOrId: string): Promise<Profile> {
    const target = this.named(nameOrId);
    if (target.id !== this.active().id) {
      await this.context.workspaceState.update(ACTIVE_PROFILE_STATE, target.id);
      this.log.info(`Switched to profile ${target.name}`);
      this.reread();
    }
    return target;
  }

  /** The entries of the setting as written, turning 0.1.0's settings into profile Default when none are. */
  private entries(): ProfileSetting[] {
    const raw = config().inspect('profiles')?.globalValue;
    if (Array.isArray(raw) && raw.length > 0) return raw as ProfileSetting[];
    const legacy = profileFromLegacy(legacyUserSettings());
    return legacy ? [legacy] : [];
  }

  private async write(entries: ProfileSetting[]): Promise<void> {
    const written = config().inspect('profiles')?.globalValue;
    await config().update('profiles', entries, vscode.ConfigurationTarget.Global);
    if (Array.isArray(written) && written.length > 0) return;
    // 0.1.0's settings now live in profile Default: clear the user's copies so there is one place to edit.
    for (const name of [...CONNECTION_FIELDS, 'integrations', 'createDeployment.defaults']) {
      if (config().inspect(name)?.globalValue !== undefined) await config().update(name, undefined, vscode.ConfigurationTarget.Global);
    }
    this.log.info('Profiles: the 0.1.0 connection settings are now profile Default');
  }

  /** Replaces the user's entry of `profileId` with what `edit` makes of it (nothing: removes it); `where` says where else to edit it. */
  private async editEntry(profileId: string, edit: (entry: ProfileSetting) => ProfileSetting | undefined, where?: string): Promise<void> {
    const entries = this.entries();
    if (!entries.some((entry) => entryId(entry) === profileId)) {
      throw new Error(where ?? vscode.l10n.t('Profile “{0}” is not in your user settings; edit it where it is defined.', profileId));
    }
    await this.write(entries.flatMap((entry) => (entryId(entry) === profileId ? (edit(entry) ?? []) : [entry])));
  }

  /** Adds a profile (and Default, made of 0.1.0's settings, if this is the first); answers it. */
  async add(setting: Omit<ProfileSetting, 'id'>, apiKey?: string): Promise<Profile> {
    const entries = this.entries();
    const id = newProfileId(setting.name, [...entries.map(entryId), ...this.list().map((profile) => profile.id)]);
    await this.write([...entries, { id, ...setting }]);
    if (apiKey) await this.storeKey(id, apiKey, originOf(setting.baseUrl));
    const added = this.list().find((profile) => profile.id === id);
    if (!added) throw new Error(vscode.l10n.t('The profile “{0}” could not be read back from settings.', setting.name));
    this.log.info(`Profile ${setting.name} added`);
    return added;
  }

  async rename(profileId: string, name: string): Promise<void> {
    // The ID stays: the key and the profile's state follow the profile, not its name.
    await this.editEntry(profileId, (entry) => ({ ...entry, id: profileId, name: name.trim() }));
  }

  /** Removes the profile from settings, and its stored key and origin answers. */
  async remove(profileId: string): Promise<void> {
    await this.editEntry(profileId, () => undefined);
    await this.clearKey(profileId);
    if (this.context.workspaceState.get(ACTIVE_PROFILE_STATE) === profileId) await this.context.workspaceState.update(ACTIVE_PROFILE_STATE, undefined);
    this.log.info(`Profile ${profileId} removed, with its stored key`);
    this.reread();
  }

  /** Edits the active profile's entry (or 0.1.0's top-level user setting while there is none). */
  async updateActive(field: keyof ConnectionFields | 'integrations', value: unknown): Promise<void> {
    const active = this.active();
    if (active.implicit) return config().update(field, value, vscode.ConfigurationTarget.Global);
    const where = vscode.l10n.t('Profile “{0}” is defined in this workspace’s settings; edit it there.', active.name);
    await this.editEntry(active.id, (entry) => ({ ...entry, [field]: value }), where);
  }

  /** The active profile's integrations; the implicit Default's are 0.1.0's `integrations` setting, a workspace's value included. */
  integrations(): IntegrationSetting[] {
    const active = this.active();
    return readIntegrations(active.implicit ? config().get('integrations') : active.integrations);
  }

  /** Writes the active profile's integrations; the implicit Default's go where 0.1.0's setting is set (the workspace's, else the user's). */
  async setIntegrations(integrations: IntegrationSetting[]): Promise<void> {
    if (!this.active().implicit) return this.updateActive('integrations', integrations);
    const inspected = config().inspect('integrations');
    const { Global, Workspace, WorkspaceFolder } = vscode.ConfigurationTarget;
    const target = inspected?.workspaceFolderValue !== undefined ? WorkspaceFolder : inspected?.workspaceValue !== undefined ? Workspace : Global;
    await config().update('integrations', integrations, target);
  }

  /** Writes the active profile's create defaults; the implicit Default's go where the `createDeployment.defaults` setting is set (the workspace's, else the user's). */
  async setCreateDefaults(defaults: Record<string, unknown>): Promise<void> {
    const active = this.active();
    if (active.implicit) {
      const inspected = config().inspect('createDeployment.defaults');
      const { Global, Workspace, WorkspaceFolder } = vscode.ConfigurationTarget;
      const target = inspected?.workspaceFolderValue !== undefined ? WorkspaceFolder : inspected?.workspaceValue !== undefined ? Workspace : Global;
      return config().update('createDeployment.defaults', defaults, target);
    }
    const where = vscode.l10n.t('Profile “{0}” is defined in this workspace’s settings; edit it there.', active.name);
    await this.editEntry(active.id, (entry) => ({ ...entry, createDefaults: defaults }), where);
  }

  /** What the active profile merges into every create body: its own defaults, else the `createDeployment.defaults` setting. */
  createDefaults(): Record<string, unknown> {
    const defaults = this.active().createDefaults ?? config().get('createDeployment.defaults');
    return isPlainObject(defaults) ? defaults : {};
  }

  async storedKey(profileId: string): Promise<string | undefined> {
    return (await this.context.secrets.get(secretName(profileId)))?.trim() || undefined;
  }

  /** The key of the profile: stored, else the environment variable for the active profile. */
  async key(profileId: string): Promise<{ key: string; source: 'stored' | 'environment' } | undefined> {
    const stored = await this.storedKey(profileId);
    if (stored) return { key: stored, source: 'stored' };
    const env = process.env[API_KEY_ENV]?.trim();
    return env && profileId === this.active().id ? { key: env, source: 'environment' } : undefined;
  }

  /** Stores the key of a profile as the key for `origin` (where requests go while it is typed in). */
  async storeKey(profileId: string, key: string, origin: string | undefined): Promise<void> {
    const previous = await this.storedKey(profileId);
    await this.setBinding(profileId, bindingAfterStore(this.binding(profileId), origin, previous === key.trim()), false);
    await this.writeKey(profileId, key.trim());
    this.changed.fire(KEY_CHANGED);
  }

  async clearKey(profileId: string): Promise<void> {
    await this.writeKey(profileId, undefined);
    await this.setBinding(profileId, undefined);
  }

  /** Stores (or, with no key, deletes) a profile's key; the caller announces the change. */
  private async writeKey(profileId: string, key: string | undefined): Promise<void> {
    const secret = secretName(profileId);
    this.announcedKeys.set(secret, key);
    if (key) await this.context.secrets.store(secret, key);
    else await this.context.secrets.delete(secret);
  }

  /** Work started by an event and not done yet (a changed key is read before it is announced): see settled(). */
  private readonly pending = new Set<Promise<void>>();

  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Resolves once every change this store has been told of is announced (onDidChange), however many come meanwhile. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async secretChanged(secret: string): Promise<void> {
    const key = (await this.context.secrets.get(secret))?.trim() || undefined;
    if (this.announcedKeys.has(secret) && this.announcedKeys.get(secret) === key) return;
    this.announcedKeys.set(secret, key);
    this.changed.fire(KEY_CHANGED);
  }

  binding(profileId: string): KeyBinding | undefined {
    return this.context.globalState.get<Record<string, KeyBinding>>(KEY_BINDINGS_STATE, {})[profileId];
  }

  /** Remembers the user's answer for sending the profile's key to `origin`. */
  async answer(profileId: string, origin: string, allow: boolean): Promise<void> {
    await this.setBinding(profileId, answerFor(this.binding(profileId), origin, allow));
  }

  /** Records the origin a key of unknown origin is used for at its profile's own base URL. */
  async bind(profileId: string, origin: string): Promise<void> {
    // No event: the connection that asks already sends there; reloading would only repeat it.
    await this.setBinding(profileId, { ...this.binding(profileId), origin }, false);
  }

  private async setBinding(profileId: string, binding: KeyBinding | undefined, notify = true): Promise<void> {
    const all = { ...this.context.globalState.get<Record<string, KeyBinding>>(KEY_BINDINGS_STATE, {}) };
    if (binding) all[profileId] = binding;
    else delete all[profileId];
    await this.context.globalState.update(KEY_BINDINGS_STATE, all);
    if (notify) this.changed.fire(KEY_CHANGED);
  }

  /**
   * Once after the upgrade from 0.1.0, before the first connection (which waits for it; activation does not): its
   * settings already are profile Default; its stored key is bound to the user's own base URL, so a workspace that
   * points elsewhere has to ask before it gets the key.
   */
  async migrate(): Promise<void> {
    if (this.context.globalState.get<boolean>(MIGRATED_STATE)) return;
    try {
      const key = await this.storedKey(DEFAULT_PROFILE_ID);
      const origin = originOf(String(legacyUserSettings().baseUrl ?? ''));
      if (key && origin && !this.binding(DEFAULT_PROFILE_ID)?.origin) {
        await this.bind(DEFAULT_PROFILE_ID, origin);
        this.log.info(`Profiles: the stored API key is bound to ${origin}`);
      }
      await this.context.globalState.update(MIGRATED_STATE, true);
    } catch (error) {
      this.log.error(`Profiles: migration failed: ${String(error)}`);
    }
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
  }
}
