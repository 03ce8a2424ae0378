// What a refused create says to change: a 422's missing or not-permitted fields become changes to the body;
// a 409's existing deployment is found by repository and ref.
import type { ValidationIssue } from '../api';
import { BodyChanges, getPath, isEmptyValue, JsonObject, REPOSITORY_CREATE_FIELDS } from './createPayload';
import { isPlainObject } from './jsonValues';
import { remoteKey } from './remoteUrls';

/** Values known for a field a server says is missing, where there is only one sensible value for a create from a repository. */
const KNOWN_VALUES: Readonly<JsonObject> = REPOSITORY_CREATE_FIELDS;

/** `body.source_revision_config.graph_config_path` → `source_revision_config.graph_config_path`; undefined for what is not a named field of the body (list items included). */
function bodyPath(loc: string): string | undefined {
  const match = /^body\.(.+)$/.exec(loc);
  if (!match) return undefined;
  const keys = match[1].split('.');
  return keys.every((key) => key !== '' && !/^\d+$/.test(key)) ? match[1] : undefined;
}

/**
 * The changes a 422 asks for, added to `previous`: a field it says is `missing` is added (with its known value, else
 * an empty one the user must fill), one it says is not permitted (`extra_forbidden`) is left out. Undefined when it
 * names nothing fixable this way (the user fixes the body as before).
 */
export function changesForRefusal(issues: readonly ValidationIssue[], body: JsonObject, previous?: BodyChanges): BodyChanges | undefined {
  const changes: BodyChanges = { added: { ...previous?.added }, removed: [...(previous?.removed ?? [])] };
  let changed = false;
  for (const issue of issues) {
    const path = bodyPath(issue.loc);
    if (!path) continue;
    if (issue.type === 'missing') {
      // Already in the body (the server must mean something else), or under a value that is not an object.
      if (getPath(body, path) !== undefined || !parentIsObject(body, path)) continue;
      const known = Object.hasOwn(KNOWN_VALUES, path);
      changes.added[path] = known ? { value: KNOWN_VALUES[path] } : { value: '', needsValue: true };
      changes.removed = changes.removed.filter((removed) => removed !== path);
      changed = true;
    } else if (issue.type === 'extra_forbidden') {
      if (getPath(body, path) === undefined) continue;
      delete changes.added[path];
      if (!changes.removed.includes(path)) changes.removed.push(path);
      changed = true;
    }
  }
  return changed ? changes : undefined;
}

function parentIsObject(body: JsonObject, path: string): boolean {
  const keys = path.split('.').slice(0, -1);
  for (let n = 1; n <= keys.length; n++) {
    const value = getPath(body, keys.slice(0, n).join('.'));
    if (value === undefined) return true;
    if (!isPlainObject(value)) return false;
  }
  return true;
}

/** The fields added that still need a value from the user: empty in `body` (the body about to be sent). */
export function unfilledFields(changes: BodyChanges | undefined, body: JsonObject): string[] {
  return Object.entries(changes?.added ?? {})
    .filter(([path, field]) => field.needsValue && isEmptyValue(getPath(body, path)))
    .map(([path]) => path);
}

/** Whether there is anything to remember of `changes`. */
export function hasChanges(changes: BodyChanges | undefined): changes is BodyChanges {
  return !!changes && (Object.keys(changes.added).length > 0 || changes.removed.length > 0);
}

/**
 * The create defaults with `changes` remembered, so the next create sends the body the server took: fields added go
 * in with their values; a field left out is removed from the defaults, and one the extension adds by itself
 * (REPOSITORY_CREATE_FIELDS) is set to null, which leaves it out.
 */
export function rememberedDefaults(defaults: JsonObject, changes: BodyChanges): JsonObject {
  const result = JSON.parse(JSON.stringify(defaults ?? {})) as JsonObject;
  for (const [path, { value }] of Object.entries(changes.added)) {
    const keys = path.split('.');
    let current = result;
    for (const key of keys.slice(0, -1)) {
      if (!isPlainObject(current[key])) current[key] = {};
      current = current[key] as JsonObject;
    }
    current[keys[keys.length - 1]] = value;
  }
  for (const path of changes.removed) {
    if (Object.hasOwn(REPOSITORY_CREATE_FIELDS, path)) {
      result[path] = null;
      continue;
    }
    const keys = path.split('.');
    const last = keys.pop()!;
    const owner = keys.length === 0 ? result : getPath(result, keys.join('.'));
    if (isPlainObject(owner)) delete owner[last];
  }
  return result;
}

/** The fields of `changes`, in words for a message: "source, secrets" / "graph_config_path left out". */
export function changedFields(changes: BodyChanges): string {
  return [...Object.keys(changes.added), ...changes.removed].join(', ');
}

/** A deployment a 409 may be about, as the listing or the index gives it. */
export interface ConflictCandidate {
  id: string;
  name?: string;
  repoUrl?: string;
  ref?: string;
}

/** The candidates of the same repository (the same code-host repository, however its URL is spelled) and ref as the refused body. */
export function conflictingDeployments<C extends ConflictCandidate>(candidates: Iterable<C>, body: JsonObject): C[] {
  const url = getPath(body, 'source_config.repo_url');
  const ref = getPath(body, 'source_revision_config.repo_ref');
  if (typeof url !== 'string' || typeof ref !== 'string') return [];
  const key = remoteKey(url) ?? url;
  const found: C[] = [];
  for (const candidate of candidates) {
    if (!candidate.repoUrl || sameRef(candidate.ref, ref) === false) continue;
    if ((remoteKey(candidate.repoUrl) ?? candidate.repoUrl) === key) found.push(candidate);
  }
  return found;
}

/** `main` and `refs/heads/main` name the same branch. */
function sameRef(a: string | undefined, b: string): boolean {
  const plain = (ref: string) => ref.trim().replace(/^refs\/heads\//, '');
  return a !== undefined && plain(a) === plain(b);
}
