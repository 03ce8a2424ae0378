import { loadClient } from '../api/lazy';
import { type Container, type Deployment, type Mount, type RecordProblem, type ResourceSpec, type Volume } from '../api';
import { fieldWords, problemWords } from './fieldNames';
import { formatTime } from './viewText';
import { statusWithRawValue } from './deploymentStatus';
import { deploymentType } from './deploymentType';
import { isPlainObject as isObject } from './jsonValues';
import * as l10n from '@vscode/l10n';

/**
 * The grouped details of one deployment as a plain tree (the view turns it into tree items). Every
 * field the contract names has a place; a field the record lacks is absent, except the sections
 * (Source, Revision, Secrets, Secret references), which always show and say "not in this record" or
 * "none"; fields nobody names are kept under "Other fields". Secret values never appear.
 */
export interface DetailNode {
  label: string;
  value?: string;
  children?: DetailNode[];
  /** Shown open at first (the first group: the key values one click away, not two). */
  expanded?: boolean;
}

export const MASK = '••••••';

type Json = Record<string, unknown>;

/**
 * `record` (a deployment, or a creation body) with every secret value replaced by the mask; everything else, unknown fields included,
 * kept. Off the contract, `secrets` may be a map of names to values, strings, or nested: all of it but
 * a secret's `name` is masked.
 */
export function maskSecrets(record: Json): Json {
  return 'secrets' in record ? { ...record, secrets: maskedSecrets(record.secrets) } : record;
}

function maskedSecrets(secrets: unknown): unknown {
  return Array.isArray(secrets) ? secrets.map((secret) => masked(secret, 'name')) : masked(secrets);
}

/** Every leaf masked but a string field `keep` of this object (null and absent stay: they hide nothing); the shape kept. */
function masked(value: unknown, keep?: string): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((item) => masked(item));
  if (!isObject(value)) return MASK;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === keep && typeof item === 'string' ? item : masked(item)]));
}

// A function, not a constant: the titles are translated when shown, after activation configured l10n.
const components = (): ReadonlyArray<{ title: string; prefix: string; extra?: string[] }> => [
  { title: l10n.t('Main'), prefix: '' },
  { title: l10n.t('Queue'), prefix: 'queue_' },
  { title: l10n.t('Orchestrator'), prefix: 'orchestrator_' },
  { title: l10n.t('Executor'), prefix: 'executor_' },
  { title: l10n.t('Key-value store'), prefix: 'kv_' },
  { title: l10n.t('Database'), prefix: 'db_', extra: ['storage_gi', 'max_connections'] },
];
const COMPONENT_FIELDS = ['min_scale', 'max_scale', 'cpu', 'cpu_limit', 'memory_mb', 'memory_limit_mb'];
/** The unit a number field is in, by its name without a component's prefix. */
const UNITS: Record<string, string> = { memory_mb: 'MB', memory_limit_mb: 'MB', storage_gi: 'Gi' };
const SOURCE_FIELDS = ['integration_id', 'repo_url', 'build_on_push', 'custom_url', 'install_command', 'build_command', 'listener_id'];
const MOUNT_FIELDS = ['mountPath', 'subPath', 'subPathExpr', 'mountPropagation', 'readOnly'];
const CONTAINER_FIELDS = ['image', 'imagePullPolicy', 'workingDir', 'restartPolicy'];
const VOLUME_KINDS = ['configMap', 'secret', 'emptyDir', 'persistentVolumeClaim', 'nfs', 'projected', 'downwardAPI', 'csi'];
// `deployment_type`: the type as deploymentType reads it (once, wherever the record keeps it); `source`: what it is built from (`github`, `external_docker`…).
const GENERAL_FIELDS = ['name', 'status', 'image_version', 'deployment_type', 'source', 'remote_reconciled'];
const ID_FIELDS = ['id', 'tenant_id', 'latest_revision_id', 'active_revision_id', 'created_at', 'updated_at'];
/** The top-level fields a group shows; any other is under "Other fields". */
const TOP_FIELDS = [...GENERAL_FIELDS, ...ID_FIELDS, 'tag_value_ids', 'source_config', 'source_revision_config', 'secrets', 'secret_references'];

export function deploymentDetails(deployment: Deployment, locale?: string): DetailNode[] {
  const record = deployment as Json;
  const source = deployment.source_config;
  const time = (value: string | null | undefined) => (typeof value === 'string' && value ? formatTime(value, locale) : undefined);
  const tags = record.tag_value_ids;
  // The values as shown: the status in words, the times in the user's locale.
  const shown = {
    ...record,
    status: typeof deployment.status === 'string' ? statusWithRawValue(deployment.status) : deployment.status,
    created_at: time(deployment.created_at),
    updated_at: time(deployment.updated_at),
    deployment_type: deploymentType(deployment),
  };
  // Secrets in another shape than a list show as they are, every value masked.
  const secrets = Array.isArray(deployment.secrets) ? deployment.secrets : maskedSecrets(deployment.secrets);
  const groups = compact([
    group(l10n.t('General'), [
      ...fields(shown, GENERAL_FIELDS),
      Array.isArray(tags) && tags.every((id) => typeof id === 'string')
        ? listLeaf(fieldWords('tag_value_ids'), tags)
        : leaf(fieldWords('tag_value_ids'), tags),
    ]),
    section(l10n.t('Source'), source, isObject, (source) => [
      ...fields(source, SOURCE_FIELDS),
      groupIf(fieldWords('listener_config'), source.listener_config, isObject, (listener) => withOthers(listener, ['k8s_namespace'])),
      // The type is in General.
      ...others(source, [...SOURCE_FIELDS, 'listener_config', 'resource_spec', 'deployment_type']),
    ]),
    isObject(source) && isObject(source.resource_spec)
      ? resourcesGroup(source.resource_spec, loadClient().resourceSpecProblems(deployment))
      : undefined,
    section(l10n.t('Revision'), deployment.source_revision_config, isObject, (revision) =>
      withOthers(revision, ['repo_ref', 'graph_config_path', 'image_uri', 'source_tarball_path', 'repo_commit_sha']),
    ),
    section(l10n.t('Secrets'), secrets, Array.isArray, (list) =>
      list.map((secret, index) => {
        // A value the record does not hold (a server may list secrets without them) is absent, as the JSON shows it.
        const absent = isObject(secret) && (secret.value === null || secret.value === undefined);
        return { label: nameOf(secret, index), value: absent ? l10n.t('not in this record') : MASK };
      }),
    ),
    section(l10n.t('Secret references'), deployment.secret_references, Array.isArray, (references) =>
      references.map((ref, index) => ({
        label: nameOf(ref, index),
        value: [ref?.secret_name, ref?.secret_key].filter((part) => typeof part === 'string' && part).join(' / ') || undefined,
        children: compact(withOthers(ref, ['secret_name', 'secret_key'], ['name'])),
      })),
    ),
    group(l10n.t('Identifiers & timestamps'), fields(shown, ID_FIELDS)),
    group(l10n.t('Other fields'), others(record, TOP_FIELDS)),
  ]);
  if (groups[0]?.children) groups[0].expanded = true;
  return groups;
}

/**
 * A section every record shows: its group ("none" when empty) when the record has it in the shape the
 * contract says; "not in this record" when absent or null; its value as it is in any other shape.
 */
function section<T>(label: string, value: unknown, is: (value: unknown) => value is T, children: (value: T) => Array<DetailNode | undefined>) {
  if (value === undefined || value === null) return { label, value: l10n.t('not in this record') };
  return groupIf(label, value, is, children) ?? valueNode(label, value);
}

/** A group of `children(value)` ("none" when empty) when `value` has the shape `is` checks; else undefined. */
function groupIf<T>(label: string, value: unknown, is: (value: unknown) => value is T, children: (value: T) => Array<DetailNode | undefined>) {
  return is(value) ? group(label, children(value), true) : undefined;
}

/** What of a record does not match the API contract: per problem, the field in words, then what is wrong and the field's path. */
function mismatch(problems: readonly RecordProblem[], value?: string): DetailNode {
  const children = problems.map((problem) => ({ label: problemWords(problem), value: problem.path ? `${problem.message} (${problem.path})` : problem.message }));
  return { label: l10n.t('Does not match the API contract'), value, children };
}

/**
 * The details of a record that does not match the API contract: first what does not match (open),
 * then what the record has, as far as it can be read (closed).
 */
export function offContractDetails(deployment: Deployment, problems: readonly RecordProblem[], locale?: string): DetailNode[] {
  const first = { ...mismatch(problems), expanded: true };
  try {
    return [first, ...deploymentDetails(deployment, locale).map((node) => ({ ...node, expanded: false }))];
  } catch {
    return [first, { label: l10n.t('Details'), value: l10n.t('cannot be shown; open the JSON') }];
  }
}

/** `problems`: where the spec departs from the contract; shown first, and what can be shown still is. */
function resourcesGroup(spec: ResourceSpec, problems: readonly RecordProblem[]): DetailNode | undefined {
  const known = ['labels', 'annotations', 'service_account_name', 'image_pull_secrets', 'volumes', 'volume_mounts', 'init_containers', 'sidecars'];
  const componentNodes = components().map(({ title, prefix, extra = [] }): DetailNode | undefined => {
    const names = [...COMPONENT_FIELDS, ...extra];
    known.push(...names.map((name) => `${prefix}${name}`));
    const children = compact(fields(spec, names, prefix));
    return children.length > 0 ? { label: title, value: componentSummary(spec, prefix), children } : undefined;
  });
  const [first] = problems;
  return group(
    l10n.t('Resources'),
    [
      first && mismatch(problems, problems.length === 1 ? `${problemWords(first)}: ${first.message}` : l10n.t('{0} problems', problems.length)),
      ...componentNodes,
      group(l10n.t('Pod metadata'), [
        groupIf(l10n.t('Labels'), spec.labels, isObject, entryNodes),
        groupIf(l10n.t('Annotations'), spec.annotations, isObject, entryNodes),
        leaf(l10n.t('Service account'), spec.service_account_name),
      ]),
      listGroup(l10n.t('Image pull secrets'), spec.image_pull_secrets, (entry, index) => ({ label: nameOf(entry, index) })),
      listGroup(l10n.t('Volumes'), spec.volumes, volumeNode),
      listGroup(l10n.t('Volume mounts'), spec.volume_mounts, mountNode),
      listGroup(l10n.t('Init containers'), spec.init_containers, containerNode),
      listGroup(l10n.t('Sidecars'), spec.sidecars, containerNode),
      ...others(spec, known),
    ],
    true,
  );
}

/** `1–3 × 0.5 CPU, 512 MB` from whichever of the fields exist. */
function componentSummary(spec: ResourceSpec, prefix: string): string | undefined {
  const value = (field: string) => (typeof spec[`${prefix}${field}`] === 'number' ? (spec[`${prefix}${field}`] as number) : undefined);
  const [min, max, cpu, memory] = [value('min_scale'), value('max_scale'), value('cpu'), value('memory_mb')];
  const parts: string[] = [];
  if (min !== undefined && max !== undefined) parts.push(l10n.t('scale {0}–{1}', min, max));
  else if (min !== undefined || max !== undefined) parts.push(l10n.t('scale {0}', min ?? max ?? ''));
  if (cpu !== undefined) parts.push(l10n.t('{0} CPU', cpu));
  if (memory !== undefined) parts.push(l10n.t('{0} MB', memory));
  return parts.join(', ') || undefined;
}

function volumeNode(volume: Volume, index: number): DetailNode {
  const kinds = VOLUME_KINDS.filter((kind) => isObject((volume as Json)[kind]));
  return {
    label: nameOf(volume, index),
    value: kinds.join(', ') || undefined,
    children: [...kinds.map((kind) => valueNode(kind, (volume as Json)[kind])), ...others(volume, ['name', ...VOLUME_KINDS])],
  };
}

function mountNode(mount: Mount, index: number): DetailNode {
  return { label: nameOf(mount, index), value: text(mount?.mountPath), children: compact(withOthers(mount, MOUNT_FIELDS, ['name'])) };
}

function containerNode(container: Container, index: number): DetailNode {
  const environment = (entry: NonNullable<Container['env']>[number], i: number): DetailNode => {
    const from = isObject(entry?.valueFrom) ? Object.keys(entry.valueFrom) : [];
    return {
      label: nameOf(entry, i),
      value: typeof entry?.value === 'string' ? entry.value : from.length > 0 ? l10n.t('from {0}', from.join(', ')) : undefined,
      children: isObject(entry?.valueFrom) ? valueNode(l10n.t('Value from'), entry.valueFrom).children : undefined,
    };
  };
  return {
    label: nameOf(container, index),
    value: text(container?.image),
    children: compact([
      ...fields(container, CONTAINER_FIELDS),
      listLeaf(l10n.t('Command'), container?.command),
      listLeaf(l10n.t('Arguments'), container?.args),
      listGroup(l10n.t('Environment'), container?.env, environment),
      Array.isArray(container?.envFrom) ? valueNode(l10n.t('Environment from'), container.envFrom) : undefined,
      groupIf(l10n.t('Resources'), container?.resources, isObject, (resources) => [
        valueNode(l10n.t('Requests'), resources.requests),
        valueNode(l10n.t('Limits'), resources.limits),
        ...others(resources, ['limits', 'requests']),
      ]),
      listGroup(l10n.t('Volume mounts'), container?.volumeMounts, mountNode),
      container?.securityContext !== undefined ? valueNode(l10n.t('Security context'), container.securityContext) : undefined,
      ...others(container, [...CONTAINER_FIELDS, 'name', 'command', 'args', 'env', 'envFrom', 'resources', 'volumeMounts', 'securityContext']),
    ]),
  };
}

/** A group of one node per item, "none" when empty; undefined when the record has no list there. */
function listGroup<T>(label: string, items: T[] | null | undefined, node: (item: T, index: number) => DetailNode): DetailNode | undefined {
  return Array.isArray(items) ? group(label, items.map(node), true) : undefined;
}

/**
 * A group node; undefined when no child is present, unless `keepEmpty` (the
 * record has the field, it is just empty: say so rather than hide it).
 */
function group(label: string, children: Array<DetailNode | undefined>, keepEmpty = false): DetailNode | undefined {
  const present = compact(children);
  if (present.length === 0) return keepEmpty ? { label, value: l10n.t('none') } : undefined;
  return { label, children: present };
}

/** A leaf, named in the interface's words (fieldWords), per field of `names` (each after `prefix`) that the record has. */
function fields(record: unknown, names: readonly string[], prefix = ''): Array<DetailNode | undefined> {
  const values = isObject(record) ? record : {};
  return names.map((name) => leaf(fieldWords(name), values[`${prefix}${name}`], UNITS[name]));
}

/** `fields`, then the record's fields that neither `names` nor `alsoKnown` names, as generic nodes. */
function withOthers(record: unknown, names: readonly string[], alsoKnown: readonly string[] = []): Array<DetailNode | undefined> {
  return [...fields(record, names), ...others(record, [...alsoKnown, ...names])];
}

function leaf(label: string, value: unknown, unit?: string): DetailNode | undefined {
  return value === undefined || value === null ? undefined : valueNode(label, value, unit);
}

function listLeaf(label: string, value: readonly string[] | null | undefined): DetailNode | undefined {
  if (!Array.isArray(value)) return undefined;
  return { label, value: value.length > 0 ? value.map((item) => (/\s/.test(item) ? JSON.stringify(item) : item)).join(' ') : l10n.t('none') };
}

/** Any JSON value as a node: scalars inline (a number in `unit`), objects and arrays as children. */
function valueNode(label: string, value: unknown, unit?: string): DetailNode {
  if (value === undefined || value === null) return { label, value: 'null' };
  if (typeof value === 'boolean') return { label, value: value ? l10n.t('yes') : l10n.t('no') };
  if (typeof value === 'number') return { label, value: unit ? `${value} ${unit}` : String(value) };
  if (typeof value === 'string') return { label, value: value === '' ? l10n.t('(empty)') : value };
  if (Array.isArray(value)) {
    if (value.length === 0) return { label, value: l10n.t('none') };
    return { label, children: value.map((item, index) => valueNode(nameOf(item, index), item)) };
  }
  return Object.keys(value as Json).length === 0 ? { label, value: '{}' } : { label, children: entryNodes(value as Json) };
}

function entryNodes(record: Json): DetailNode[] {
  return Object.entries(record).map(([key, value]) => valueNode(key, value));
}

/** Fields of `record` that `known` does not name, as generic nodes. */
function others(record: unknown, known: readonly string[]): DetailNode[] {
  if (!isObject(record)) return [];
  return Object.entries(record)
    .filter(([key, value]) => !known.includes(key) && value !== undefined && value !== null)
    .map(([key, value]) => valueNode(key, value));
}

function compact(nodes: Array<DetailNode | undefined>): DetailNode[] {
  return nodes.filter((node): node is DetailNode => node !== undefined);
}

/** An item of a list by its `name`, else by its place: `#2`. */
function nameOf(item: unknown, index: number): string {
  return (isObject(item) && text(item.name)) || `#${index + 1}`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

