// The deployment-creation body, the rules for the values the create flow asks for, and the values kept per repository.
import { type Repository } from '../api';
import { DEPLOYMENT_TYPES, DeploymentType } from '../api/vocabulary';
import * as l10n from '@vscode/l10n';
import { deploymentType } from './deploymentType';
import { isPlainObject } from './jsonValues';

/** What the user chose in the create flow; everything else comes from the repository record. */
export interface CreateDraft {
  name: string;
  ref: string;
  /** Undefined: not set by the flow (a value from the defaults setting stays). Any string a server takes. */
  deploymentType?: string;
  /** Fields added to or left out of the body after a server refused it (422), kept with the other values. */
  changes?: BodyChanges;
}

/** What the flow changed in the body because a server said a field is missing or not permitted. */
export interface BodyChanges {
  /** By dotted path (`source`, `source_revision_config.graph_config_path`): the value sent; `needsValue` when no value was known and the user must give one. */
  added: Record<string, { value: unknown; needsValue?: boolean }>;
  /** Dotted paths left out of the body. */
  removed: string[];
}

export type JsonObject = Record<string, unknown>;

/** Type values of the real service (its default is `prod`; a type cannot be changed after creation); a server may take others. */
export const KNOWN_DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'] as const;

/**
 * What a create from a repository sends besides the contract's three fields: the real service requires
 * `source` and `secrets` (an empty list is fine). The defaults setting goes over them; `null` there leaves one out.
 */
export const REPOSITORY_CREATE_FIELDS: Readonly<JsonObject> = { source: 'github', secrets: [] };

/** Deployment names: lowercase letters, digits and `-`, starting and ending with a letter or digit. */
const MAX_NAME_LENGTH = 63;
const NAME_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** Letters that Unicode does not decompose into a base letter and a mark (so NFKD alone would drop them). */
const TRANSLITERATIONS: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ŋ: 'n', ĸ: 'k',
};

/** A letter or digit spelled in the safe set: `ñ` → `n`, `ß` → `ss`; undefined when it has no Latin spelling (`日`). */
function latinOf(char: string): string | undefined {
  const lower = char.toLowerCase();
  if (TRANSLITERATIONS[lower] !== undefined) return TRANSLITERATIONS[lower];
  const base = lower.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return /^[a-z0-9]+$/.test(base) ? base : undefined;
}

/** The name spelled in the safe set before trimming: anything without a Latin spelling becomes a separator. */
function spelled(raw: string): string {
  return [...raw]
    .map((char) => latinOf(char) ?? '-')
    .join('')
    .replace(/-+/g, '-')
    .replace(/^-+/, '');
}

/** `Payments_API` → `payments-api`; `docs.acme.dev` → `docs-acme-dev`; `svc-ñandú-straße` → `svc-nandu-strasse`. */
export function normaliseDeploymentName(raw: string): string {
  return spelled(raw).slice(0, MAX_NAME_LENGTH).replace(/-+$/, '');
}

/**
 * What normalising `raw` changed beyond case and separators, in words for the name prompt, or
 * undefined: "ñ → n, ú → u; 日, 本 left out (no Latin spelling)".
 */
export function nameChangeNote(raw: string): string | undefined {
  const replaced = new Map<string, string>();
  const dropped = new Set<string>();
  for (const char of raw) {
    if (/[a-z0-9]/i.test(char) || !/^[\p{L}\p{N}]$/u.test(char)) continue;
    const latin = latinOf(char);
    if (latin === undefined) dropped.add(char);
    else replaced.set(char, latin);
  }
  const parts: string[] = [];
  if (replaced.size > 0) parts.push([...replaced].map(([from, to]) => `${from} → ${to}`).join(', '));
  if (dropped.size > 0) parts.push(l10n.t('{0} left out (no Latin spelling)', [...dropped].join(', ')));
  if (spelled(raw).replace(/-+$/, '').length > MAX_NAME_LENGTH) parts.push(l10n.t('cut to {0} characters', MAX_NAME_LENGTH));
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** A message naming what is wrong with `name`, or undefined when it is a safe name. */
export function validateDeploymentName(name: string): string | undefined {
  if (!name) return l10n.t('Enter a name for the deployment.');
  if (name.length > MAX_NAME_LENGTH) return l10n.t('The name is {0} characters long; at most {1} are allowed.', name.length, MAX_NAME_LENGTH);
  const bad = [...new Set(name.replace(/[a-z0-9-]/g, ''))];
  if (bad.length > 0) {
    const shown = bad.map((ch) => (ch === ' ' ? l10n.t('space') : l10n.t('“{0}”', ch))).join(', ');
    return l10n.t('Use only lowercase letters, digits and “-” (found {0}). Suggestion: {1}', shown, normaliseDeploymentName(name) || 'my-deployment');
  }
  if (!NAME_PATTERN.test(name)) return l10n.t('The name must start and end with a letter or digit.');
  return undefined;
}

/** A message naming what is wrong with a git ref, or undefined. Branches, tags and `refs/…` are all fine. */
export function validateRef(ref: string): string | undefined {
  if (!ref.trim()) return l10n.t('Enter a branch, tag or ref, e.g. main or refs/tags/v1.0.0.');
  if (/\s/.test(ref)) return l10n.t('A git ref cannot contain spaces.');
  return undefined;
}

export function isDeploymentType(value: unknown): value is DeploymentType {
  return typeof value === 'string' && (DEPLOYMENT_TYPES as readonly string[]).includes(value);
}

/**
 * The `POST /v2/deployments` body: the fields the contract names, from the repository record and the draft, over
 * the user's defaults setting (which fill in what the contract does not show, never a pre-filled value), over what
 * the real service requires of a create from a repository (REPOSITORY_CREATE_FIELDS); then the draft's changes after a
 * refusal. The type goes in `source_config.deployment_type`, where the real service reads it.
 */
export function buildCreateBody(repository: Repository, draft: CreateDraft, defaults: JsonObject = {}): JsonObject {
  // A copy through JSON, not structuredClone: VS Code hands out setting values as read-only proxies, which it refuses.
  const own = isPlainObject(defaults) ? (JSON.parse(JSON.stringify(defaults)) as JsonObject) : {};
  const body = mergeInto(JSON.parse(JSON.stringify(REPOSITORY_CREATE_FIELDS)) as JsonObject, own);
  for (const key of Object.keys(REPOSITORY_CREATE_FIELDS)) if (own[key] === null) delete body[key];
  // A type from 0.x defaults (top level) moves where the real service reads it.
  const type = draft.deploymentType || deploymentType(body);
  delete body.deployment_type;
  for (const [path, { value, needsValue }] of Object.entries(draft.changes?.added ?? {})) {
    // A value still to be given does not hide one the defaults setting has come to give.
    if (needsValue && isEmptyValue(value) && getPath(body, path) !== undefined) continue;
    setPath(body, path, value);
  }
  const prefilled: JsonObject = {
    name: draft.name,
    source_config: {
      integration_id: repository.host_integration_id,
      repo_url: repository.url,
      ...(type ? { deployment_type: type } : {}),
    },
    source_revision_config: {
      repo_ref: draft.ref,
    },
  };
  mergeInto(body, prefilled);
  for (const path of draft.changes?.removed ?? []) deletePath(body, path);
  return body;
}

/** A value the user still has to give: nothing, or empty text. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The value at a dotted path, or undefined. */
export function getPath(body: JsonObject, path: string): unknown {
  let current: unknown = body;
  for (const key of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** Sets a dotted path, making the objects on the way (replacing a value that is not one). */
function setPath(body: JsonObject, path: string, value: unknown): void {
  const keys = path.split('.');
  let current = body;
  for (const key of keys.slice(0, -1)) {
    if (!isPlainObject(current[key])) current[key] = {};
    current = current[key] as JsonObject;
  }
  current[keys[keys.length - 1]] = JSON.parse(JSON.stringify(value ?? null));
}

function deletePath(body: JsonObject, path: string): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  const owner = keys.length === 0 ? body : getPath(body, keys.join('.'));
  if (isPlainObject(owner)) delete owner[last];
}

/** `over` merged into `target`: objects key by key; anything else (arrays included) in `over` replaces. */
function mergeInto(target: JsonObject, over: JsonObject): JsonObject {
  for (const [key, value] of Object.entries(over)) {
    const existing = target[key];
    if (isPlainObject(value) && isPlainObject(existing)) mergeInto(existing, value);
    else target[key] = value;
  }
  return target;
}

/** The body as `path: value` lines for the review step (`source_revision_config.repo_ref` → `"main"`); arrays and empty objects stay one JSON value. */
export function flattenBody(body: JsonObject, prefix = ''): Array<{ path: string; value: string }> {
  const lines: Array<{ path: string; value: string }> = [];
  for (const [key, value] of Object.entries(body)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) lines.push(...flattenBody(value, path));
    else lines.push({ path, value: JSON.stringify(value) ?? 'null' });
  }
  return lines;
}

/**
 * The last values typed per repository, kept for the session, so cancelling the flow or a refused request
 * loses nothing: reopening the flow for the same repository starts from them.
 */
export class DraftStore {
  private readonly drafts = new Map<string, CreateDraft>();

  /** A copy of the kept draft, or the repository's own values: its normalised name and its default branch. */
  get(repository: Repository): CreateDraft {
    return structuredClone(this.drafts.get(draftKey(repository)) ?? { name: normaliseDeploymentName(repository.name), ref: repository.default_branch });
  }

  keep(repository: Repository, draft: CreateDraft): void {
    this.drafts.set(draftKey(repository), structuredClone(draft));
  }

  forget(repository: Repository): void {
    this.drafts.delete(draftKey(repository));
  }
}

function draftKey(repository: Repository): string {
  return `${repository.host_integration_id.toLowerCase()} ${repository.url}`;
}
