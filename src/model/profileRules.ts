// The rules of profiles (control planes: regions, self-hosted installations, tenants; one active per workspace),
// without VS Code: the `deploymentsExplorer.profiles` setting, the profile 0.1.0's settings amount to, the active
// profile and its effective connection, and where a profile's key may go.

import * as l10n from '@vscode/l10n';
import { baseUrlProblem } from '../api/baseUrl';
import { headerValueProblem } from '../api/text';
import { isPlainObject as isObject } from './jsonValues';

/** The ID of the profile 0.1.0's settings became: its key and state keep their 0.1.0 storage names. */
export const DEFAULT_PROFILE_ID = 'default';
const DEFAULT_PROFILE_NAME = 'Default';
const DEFAULT_API_KEY_HEADER = 'X-Api-Key';
const DEFAULT_TENANT_HEADER = 'X-Tenant-Id';

/** The connection fields of a profile, defaults applied. */
export interface ConnectionFields {
  baseUrl: string;
  tenantId: string;
  apiKeyHeader: string;
  tenantHeader: string;
  caFile: string;
  strictSSL: boolean;
}

/** Connection fields as a settings object has them (a profile entry, 0.1.0's or a workspace's top-level settings). */
export type ConnectionSettings = Partial<Record<keyof ConnectionFields, unknown>>;

/** One entry of the `deploymentsExplorer.profiles` setting, as written to settings. */
export interface ProfileSetting extends Partial<ConnectionFields> {
  /** Set by the extension so that a rename keeps the profile's key and state; defaults to the name in lower case. */
  id?: string;
  name: string;
  baseUrl: string;
  /** The integrations added to this profile (same shape as `deploymentsExplorer.integrations`). */
  integrations?: unknown[];
  /** Merged into the create body of this profile (like `deploymentsExplorer.createDeployment.defaults`). */
  createDefaults?: Record<string, unknown>;
}

/** A profile; only a defined one has `integrations` and `createDefaults` (the implicit one uses the top-level settings). */
export interface Profile extends ConnectionFields, Pick<ProfileSetting, 'integrations' | 'createDefaults'> {
  /** Keys its secret and its state; stable across renames. */
  id: string;
  name: string;
  /** True for the profile 0.1.0's top-level settings make up while no profile is defined. */
  implicit: boolean;
  /** Defined in a (trusted) workspace's own settings, not the user's: no key of the user's goes to it without asking. */
  fromWorkspace?: boolean;
}

export interface ParsedProfiles {
  profiles: Profile[];
  /** One sentence per entry that was left out, naming it. */
  problems: string[];
}

/** Why a typed API key cannot be stored (empty, or a character HTTP cannot carry), or undefined. */
export function apiKeyInputProblem(text: string): string | undefined {
  if (!text.trim()) return l10n.t('Enter the API key, or press Escape to cancel.');
  const problem = headerValueProblem(text.trim());
  return problem && l10n.t('This key cannot be used: {0}.', problem);
}

/** Why a typed tenant ID cannot be sent (a character HTTP cannot carry), or undefined; empty is none. */
export function tenantInputProblem(text: string): string | undefined {
  const problem = headerValueProblem(text.trim());
  return problem && l10n.t('This tenant ID cannot be used: {0}.', problem);
}

/** Why `name` cannot name a new profile (empty, too long, taken), or undefined. */
export function profileNameProblem(name: string, taken: readonly string[] = []): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return l10n.t('Enter a name for the profile, e.g. “EU” or “Self-hosted”.');
  if (trimmed.length > 40) return l10n.t('Keep the name to 40 characters or fewer.');
  if (taken.some((other) => other.trim().toLowerCase() === trimmed.toLowerCase())) return l10n.t('A profile named “{0}” already exists.', trimmed);
  return undefined;
}

/** `https://host:port` of a URL, or undefined when it is not one. Keys are bound to origins. */
export function originOf(url: string): string | undefined {
  const parsed = URL.canParse(url.trim()) ? new URL(url.trim()) : undefined;
  return parsed?.protocol === 'http:' || parsed?.protocol === 'https:' ? parsed.origin : undefined;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The profiles of the setting, in order. An entry with no name, a bad base URL, or a name or ID used before is
 * left out and named in `problems`, so one hand-edited mistake does not take the others down.
 */
export function parseProfiles(raw: unknown): ParsedProfiles {
  const result: ParsedProfiles = { profiles: [], problems: [] };
  if (raw === undefined || raw === null) return result;
  if (!Array.isArray(raw)) return { profiles: [], problems: [l10n.t('deploymentsExplorer.profiles must be a list of profiles.')] };
  // An entry entryProblem passes is an object.
  for (const [index, entry] of raw.entries()) {
    const problem = entryProblem(entry, index, result.profiles);
    if (problem) result.problems.push(problem);
    else result.profiles.push({
      id: idOf(entry),
      name: text(entry.name),
      implicit: false,
      ...connectionFields(entry),
      integrations: Array.isArray(entry.integrations) ? entry.integrations : [],
      createDefaults: isObject(entry.createDefaults) ? entry.createDefaults : undefined,
    });
  }
  return result;
}

const idOf = (entry: Record<string, unknown>) => (text(entry.id) || text(entry.name)).toLowerCase();

/** Why the `index`th entry of the profiles setting is left out (after the profiles `before` it), or undefined. */
function entryProblem(entry: unknown, index: number, before: readonly Profile[]): string | undefined {
  if (!isObject(entry)) return l10n.t('Profile {0} is not an object with a name and a baseUrl.', index + 1);
  const name = text(entry.name);
  if (!name) return l10n.t('Profile {0} has no name.', index + 1);
  const problem = baseUrlProblem(text(entry.baseUrl));
  if (problem) return l10n.t('Profile “{0}”: {1}', name, problem);
  const id = idOf(entry);
  if (before.some((other) => other.name.toLowerCase() === name.toLowerCase())) return l10n.t('Profile “{0}” is defined twice; the first one is used.', name);
  if (before.some((other) => other.id === id)) return l10n.t('Profile “{0}” has the same id as another profile (“{1}”); it is left out.', name, id);
  return undefined;
}

function connectionFields(input: ConnectionSettings): ConnectionFields {
  return {
    baseUrl: text(input.baseUrl),
    tenantId: text(input.tenantId),
    apiKeyHeader: text(input.apiKeyHeader) || DEFAULT_API_KEY_HEADER,
    tenantHeader: text(input.tenantHeader) || DEFAULT_TENANT_HEADER,
    caFile: text(input.caFile),
    strictSSL: typeof input.strictSSL === 'boolean' ? input.strictSSL : true,
  };
}

/** 0.1.0's connection settings (the user's own values), its integrations and create defaults. */
export interface LegacySettings extends ConnectionSettings {
  integrations?: unknown;
  createDefaults?: unknown;
}

/**
 * The user's profiles, then those a trusted workspace's own settings add, marked `fromWorkspace` so
 * that the user's key is not sent to them without asking. A workspace entry with the name or id of
 * one of the user's is left out: a cloned repository cannot redefine what the user's profile means.
 */
export function mergeProfiles(user: readonly Profile[], workspace: ParsedProfiles | undefined): ParsedProfiles {
  const result: ParsedProfiles = { profiles: [...user], problems: [] };
  if (!workspace) return result;
  for (const problem of workspace.problems) result.problems.push(l10n.t('In this workspace’s settings: {0}', problem));
  for (const profile of workspace.profiles) {
    if (user.some((own) => own.name.toLowerCase() === profile.name.toLowerCase() || own.id === profile.id)) {
      result.problems.push(l10n.t('Profile “{0}” in this workspace’s settings has the name or id of one of yours; yours is used.', profile.name));
      continue;
    }
    result.profiles.push({ ...profile, fromWorkspace: true });
  }
  return result;
}

/** The profile 0.1.0's settings amount to while no profile is defined: “Default”, with 0.1.0's key. */
export function implicitProfile(legacy: LegacySettings): Profile {
  return { id: DEFAULT_PROFILE_ID, name: DEFAULT_PROFILE_NAME, implicit: true, ...connectionFields(legacy) };
}

/**
 * The settings entry that 0.1.0's settings become when a second profile is added: only the values the user set,
 * plus the integrations, so nothing is lost and nothing new appears. Undefined when there is no base URL to keep.
 */
export function profileFromLegacy(legacy: LegacySettings): ProfileSetting | undefined {
  const fields = connectionFields(legacy);
  if (baseUrlProblem(fields.baseUrl)) return undefined;
  const defaults = connectionFields({});
  const set = Object.entries(fields).filter(([name, value]) => value !== defaults[name as keyof ConnectionFields]);
  const entry: ProfileSetting = { id: DEFAULT_PROFILE_ID, name: DEFAULT_PROFILE_NAME, baseUrl: fields.baseUrl, ...Object.fromEntries(set) };
  if (Array.isArray(legacy.integrations) && legacy.integrations.length > 0) entry.integrations = legacy.integrations;
  if (isObject(legacy.createDefaults) && Object.keys(legacy.createDefaults).length > 0) entry.createDefaults = legacy.createDefaults;
  return entry;
}

/** The active profile: the one this workspace chose (by ID), else `defaultProfile` (by name, any case), else the first. */
export function resolveActiveProfile(profiles: readonly Profile[], workspaceChoice?: string, defaultProfile?: string): Profile | undefined {
  const chosen = workspaceChoice && profiles.find((profile) => profile.id === workspaceChoice.toLowerCase());
  if (chosen) return chosen;
  const wanted = defaultProfile?.trim().toLowerCase();
  const byDefault = wanted ? profiles.find((profile) => profile.name.toLowerCase() === wanted) : undefined;
  return byDefault ?? profiles[0];
}

/** The connection a profile gives once the workspace's own connection settings (trusted workspaces only) are applied. */
export interface EffectiveConnection extends ConnectionFields {
  /** The workspace's settings decide where requests go: they set the base URL, or define the profile. */
  fromWorkspace: boolean;
}

export function effectiveConnection(profile: ConnectionFields & { fromWorkspace?: boolean }, workspace: ConnectionSettings): EffectiveConnection {
  const result: EffectiveConnection = { ...profile, fromWorkspace: !!profile.fromWorkspace };
  for (const name of ['baseUrl', 'tenantId', 'apiKeyHeader', 'tenantHeader', 'caFile'] as const) {
    const value = workspace[name];
    if (typeof value === 'string' && value.trim()) result[name] = value.trim();
  }
  if (typeof workspace.strictSSL === 'boolean') result.strictSSL = workspace.strictSSL;
  if (result.baseUrl !== profile.baseUrl) result.fromWorkspace = true;
  return result;
}

/** Where a profile's key was stored for, and what the user answered for other origins. */
export interface KeyBinding {
  /** The origin the key was stored for; unknown for a key stored before origins were recorded. */
  origin?: string;
  allowed?: string[];
  denied?: string[];
}

/**
 * - `send`: the key (and tenant) may go to the effective origin;
 * - `bind`: send, and record the effective origin as the one the key is for (a key of unknown origin used at its profile's own URL);
 * - `ask`: the origin is not the key's and the user has not answered for it;
 * - `withhold`: the user said no for this origin;
 * - `none`: there is no key to send.
 */
export type KeyDecision = 'send' | 'bind' | 'ask' | 'withhold' | 'none';

interface KeyDecisionInput {
  source: 'stored' | 'environment' | 'none';
  effectiveOrigin: string | undefined;
  /** The origin of the profile's own base URL (before the workspace's settings). */
  profileOrigin: string | undefined;
  binding: KeyBinding | undefined;
  profileFromWorkspace?: boolean;
}

/**
 * The origin rule: a key goes only to the origin it was stored for (for the environment variable: the active
 * profile's own base URL); anywhere else only after the user agreed for that origin. A profile defined in the
 * workspace's own settings is not the user's: its URL is no home for the environment's key, nor binds a stored
 * key of unknown origin.
 */
export function keyDecision({ source, effectiveOrigin, profileOrigin, binding, profileFromWorkspace }: KeyDecisionInput): KeyDecision {
  if (source === 'none' || !effectiveOrigin) return 'none';
  const ownOrigin = profileFromWorkspace ? undefined : profileOrigin;
  const home = source === 'environment' ? ownOrigin : binding?.origin;
  if (home === effectiveOrigin) return 'send';
  if (binding?.denied?.includes(effectiveOrigin)) return 'withhold';
  if (binding?.allowed?.includes(effectiveOrigin)) return 'send';
  if (source === 'stored' && home === undefined && effectiveOrigin === ownOrigin) return 'bind';
  return 'ask';
}

export function answerFor(binding: KeyBinding | undefined, origin: string, allow: boolean): KeyBinding {
  const allowed = (binding?.allowed ?? []).filter((entry) => entry !== origin);
  const denied = (binding?.denied ?? []).filter((entry) => entry !== origin);
  if (allow) allowed.push(origin);
  else denied.push(origin);
  return { ...binding, allowed, denied };
}

/** The binding after a key was stored while requests go to `origin`: the same key keeps its answers, a new one starts from `origin` alone. */
export function bindingAfterStore(previous: KeyBinding | undefined, origin: string | undefined, sameKey: boolean): KeyBinding {
  if (!sameKey) return origin ? { origin } : {};
  const allowed = new Set(previous?.allowed ?? []);
  if (previous?.origin && previous.origin !== origin) allowed.add(previous.origin);
  if (origin) allowed.delete(origin);
  return { origin: origin ?? previous?.origin, allowed: [...allowed], denied: (previous?.denied ?? []).filter((entry) => entry !== origin) };
}

/** A control plane as the key of its state (see ConnectionManager.scoped): hosts and UUIDs without case, no trailing slash. */
export function controlPlaneKey({ baseUrl, tenantId }: Pick<ConnectionFields, 'baseUrl' | 'tenantId'>): string {
  return `${baseUrl.trim().replace(/\/+$/, '').toLowerCase()}|${tenantId.trim().toLowerCase()}`;
}

/** A fresh ID for a profile added by a command, not used by any of `existing`. */
export function newProfileId(name: string, existing: readonly string[]): string {
  const base = name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'profile';
  let id = base;
  for (let n = 2; existing.includes(id) || id === DEFAULT_PROFILE_ID; n++) id = `${base}-${n}`;
  return id;
}

/** True for an http:// URL whose host is not this machine: the API key would travel unencrypted. */
export function isPlainHttpToRemote(baseUrl: string): boolean {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (url?.protocol !== 'http:') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return !(host === 'localhost' || host === '::1' || /^127\./.test(host));
}
