import { loadClient } from '../api/lazy';
import { type Container, type Deployment, type Mount, type RecordProblem, type ResourceSpec, type Volume } from '../api';
import { problemWords } from './fieldNames';
import { formatTime } from './deploymentPresentation';
import { statusWords } from './deploymentStatus';
import * as l10n from '@vscode/l10n';

/**
 * The grouped details of one deployment as a plain tree (the view turns it
 * into tree items). Every field the contract names (and the listing filters
 * on) has a place; a field the record lacks is absent, except the sections
 * (Source, Revision, Secrets, Secret references), which always show and say
 * "not in this record" or "none"; fields nobody names are kept under "Other
 * fields". The first group opens by itself. Secret values never appear.
 */
export interface DetailNode {
  label: string;
  value?: string;
  children?: DetailNode[];
  /** Shown open at first (the first group: the key values one click away, not two). */
  expanded?: boolean;
}

/** What a section the record does not have says. */
export const NOT_IN_RECORD = 'not in this record';

export const MASK = '••••••';

type Json = Record<string, unknown>;

/**
 * `deployment` with every secret value replaced by the mask; everything else, unknown fields included,
 * kept. Off the contract, `secrets` may be a map of names to values, strings, or nested: all of it but
 * a secret's `name` is masked.
 */
export function maskSecrets(deployment: Deployment): Json {
  const copy = structuredClone(deployment) as Json;
  if ('secrets' in copy) copy.secrets = maskSecretValues(copy.secrets);
  return copy;
}

function maskSecretValues(secrets: unknown): unknown {
  if (Array.isArray(secrets)) {
    return secrets.map((secret) =>
      isObject(secret) ? Object.fromEntries(Object.entries(secret).map(([key, value]) => [key, key === 'name' && typeof value === 'string' ? value : maskAll(value)])) : maskAll(secret),
    );
  }
  return maskAll(secrets);
}

/** Every leaf masked (null and absent stay as they are: they hide nothing); the shape kept. */
function maskAll(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map(maskAll);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, maskAll(inner)]));
  return MASK;
}

// Functions, not constants: the labels are translated when shown, after activation configured l10n.
const componentTable = (): ReadonlyArray<{ title: string; prefix: string; extra?: ReadonlyArray<[string, string, string?]> }> => [
  { title: l10n.t('Main'), prefix: '' },
  { title: l10n.t('Queue'), prefix: 'queue_' },
  { title: l10n.t('Orchestrator'), prefix: 'orchestrator_' },
  { title: l10n.t('Executor'), prefix: 'executor_' },
  { title: l10n.t('Key-value store'), prefix: 'kv_' },
  {
    title: l10n.t('Database'),
    prefix: 'db_',
    extra: [
      ['db_storage_gi', l10n.t('Storage'), 'Gi'],
      ['db_max_connections', l10n.t('Max connections')],
    ],
  },
];

const componentFields = (): ReadonlyArray<[string, string, string?]> => [
  ['min_scale', l10n.t('Min scale')],
  ['max_scale', l10n.t('Max scale')],
  ['cpu', l10n.t('CPU')],
  ['cpu_limit', l10n.t('CPU limit')],
  ['memory_mb', l10n.t('Memory'), 'MB'],
  ['memory_limit_mb', l10n.t('Memory limit'), 'MB'],
];

const SOURCE_FIELDS = new Set([
  'integration_id', 'repo_url', 'build_on_push', 'custom_url', 'resource_spec', 'listener_id', 'listener_config',
  'install_command', 'build_command',
]);
const REVISION_FIELDS = new Set(['repo_ref', 'graph_config_path', 'image_uri', 'source_tarball_path', 'repo_commit_sha']);
const TOP_FIELDS = new Set([
  'name', 'source_config', 'source_revision_config', 'secrets', 'id', 'tenant_id', 'created_at', 'updated_at',
  'latest_revision_id', 'active_revision_id', 'secret_references', 'image_version', 'status', 'deployment_type',
  'remote_reconciled', 'tag_value_ids',
]);
const mountFields = (): ReadonlyArray<[keyof Mount & string, string]> => [
  ['mountPath', l10n.t('Mount path')],
  ['subPath', l10n.t('Sub path')],
  ['subPathExpr', l10n.t('Sub path expression')],
  ['mountPropagation', l10n.t('Mount propagation')],
  ['readOnly', l10n.t('Read only')],
];
const VOLUME_KINDS = ['configMap', 'secret', 'emptyDir', 'persistentVolumeClaim', 'nfs', 'projected', 'downwardAPI', 'csi'];

export function deploymentDetails(deployment: Deployment, locale?: string): DetailNode[] {
  const groups: DetailNode[] = [];
  const push = (node: DetailNode | undefined) => {
    if (node) groups.push(node);
  };

  const extra = deployment as Json;
  const status = text(deployment.status);
  push(
    group(l10n.t('General'), [
      leaf(l10n.t('Name'), deployment.name),
      leaf(l10n.t('Status'), status && statusWords(status) !== status ? `${statusWords(status)} (${status})` : deployment.status),
      leaf(l10n.t('Image version'), deployment.image_version),
      leaf(l10n.t('Deployment type'), extra.deployment_type),
      leaf(l10n.t('Remote reconciled'), extra.remote_reconciled),
      Array.isArray(extra.tag_value_ids) && extra.tag_value_ids.every((id) => typeof id === 'string')
        ? listLeaf(l10n.t('Tag value IDs'), extra.tag_value_ids as string[])
        : leaf(l10n.t('Tag value IDs'), extra.tag_value_ids),
    ]),
  );

  const source = deployment.source_config;
  if (!isObject(source)) push(absent(l10n.t('Source'), source));
  else {
    push(
      group(
        l10n.t('Source'),
        [
          leaf(l10n.t('Integration'), source.integration_id),
          leaf(l10n.t('Repository URL'), source.repo_url),
          leaf(l10n.t('Build on push'), source.build_on_push),
          leaf(l10n.t('Custom URL'), source.custom_url),
          leaf(l10n.t('Install command'), source.install_command),
          leaf(l10n.t('Build command'), source.build_command),
          leaf(l10n.t('Listener'), source.listener_id),
          isObject(source.listener_config)
            ? group(l10n.t('Listener config'), [leaf(l10n.t('Kubernetes namespace'), source.listener_config.k8s_namespace), ...others(source.listener_config, new Set(['k8s_namespace']))], true)
            : undefined,
          ...others(source, SOURCE_FIELDS),
        ],
        true,
      ),
    );
    if (isObject(source.resource_spec)) push(resourcesGroup(source.resource_spec, loadClient().resourceSpecProblems(deployment)));
  }

  const revision = deployment.source_revision_config;
  if (!isObject(revision)) push(absent(l10n.t('Revision'), revision));
  else {
    push(
      group(
        l10n.t('Revision'),
        [
          leaf(l10n.t('Ref'), revision.repo_ref),
          leaf(l10n.t('Config path'), revision.graph_config_path),
          leaf(l10n.t('Image URI'), revision.image_uri),
          leaf(l10n.t('Source tarball'), revision.source_tarball_path),
          leaf(l10n.t('Commit SHA'), revision.repo_commit_sha),
          ...others(revision, REVISION_FIELDS),
        ],
        true,
      ),
    );
  }

  if (!Array.isArray(deployment.secrets)) push(absent(l10n.t('Secrets'), maskSecretValues(deployment.secrets)));
  else {
    push(
      group(
        l10n.t('Secrets'),
        deployment.secrets.map((secret, index) => ({ label: text(secret?.name) ?? `#${index + 1}`, value: MASK })),
        true,
      ),
    );
  }
  if (!Array.isArray(deployment.secret_references)) push(absent(l10n.t('Secret references'), deployment.secret_references));
  else {
    push(
      group(
        l10n.t('Secret references'),
        deployment.secret_references.map((ref, index) => ({
          label: text(ref?.name) ?? `#${index + 1}`,
          value: [ref?.secret_name, ref?.secret_key].filter((part) => typeof part === 'string' && part).join(' / ') || undefined,
          children: compact([leaf(l10n.t('Secret name'), ref?.secret_name), leaf(l10n.t('Secret key'), ref?.secret_key), ...others(ref, new Set(['name', 'secret_name', 'secret_key']))]),
        })),
        true,
      ),
    );
  }

  const time = (value: string | null | undefined) => (typeof value === 'string' && value ? formatTime(value, locale) : undefined);
  push(
    group(l10n.t('Identifiers & timestamps'), [
      leaf(l10n.t('ID'), deployment.id),
      leaf(l10n.t('Tenant ID'), deployment.tenant_id),
      leaf(l10n.t('Latest revision'), deployment.latest_revision_id),
      leaf(l10n.t('Active revision'), deployment.active_revision_id),
      leaf(l10n.t('Created'), time(deployment.created_at)),
      leaf(l10n.t('Updated'), time(deployment.updated_at)),
    ]),
  );

  push(group(l10n.t('Other fields'), others(deployment, TOP_FIELDS)));
  if (groups[0]?.children) groups[0] = { ...groups[0], expanded: true };
  return groups;
}

/** A section the record does not have (absent or null), or has as something else than the contract says. */
function absent(label: string, value: unknown): DetailNode {
  return value === undefined || value === null ? { label, value: l10n.t('not in this record') } : valueNode(label, value);
}

/** One problem of a record off the contract: the field in words, then what is wrong and the field's path. */
function problemNode(problem: RecordProblem): DetailNode {
  return { label: problemWords(problem), value: problem.path ? `${problem.message} (${problem.path})` : problem.message };
}

/**
 * The details of a record that does not match the API contract: first what does not match (open),
 * then what the record has, as far as it can be read (closed).
 */
export function offContractDetails(deployment: Deployment, problems: readonly RecordProblem[], locale?: string): DetailNode[] {
  const mismatch: DetailNode = { label: l10n.t('Does not match the API contract'), expanded: true, children: problems.map(problemNode) };
  try {
    return [mismatch, ...deploymentDetails(deployment, locale).map((node) => ({ ...node, expanded: false }))];
  } catch {
    return [mismatch, { label: l10n.t('Details'), value: l10n.t('cannot be shown; open the JSON') }];
  }
}

/** `problems`: where the spec departs from the contract; shown first, and what can be shown still is. */
function resourcesGroup(spec: ResourceSpec, problems: readonly RecordProblem[]): DetailNode | undefined {
  const known = new Set<string>([
    'labels', 'annotations', 'service_account_name', 'image_pull_secrets', 'volumes', 'volume_mounts', 'init_containers', 'sidecars',
  ]);
  const components: Array<DetailNode | undefined> = componentTable().map(({ title, prefix, extra }) => {
    const fields = [...componentFields().map(([field, label, unit]) => [`${prefix}${field}`, label, unit] as [string, string, string?]), ...(extra ?? [])];
    for (const [field] of fields) known.add(field);
    const children = compact(fields.map(([field, label, unit]) => leaf(label, spec[field], unit)));
    if (children.length === 0) return undefined;
    return { label: title, value: componentSummary(spec, prefix), children };
  });

  const pod = group(
    l10n.t('Pod metadata'),
    [
      mapGroup(l10n.t('Labels'), spec.labels),
      mapGroup(l10n.t('Annotations'), spec.annotations),
      leaf(l10n.t('Service account'), spec.service_account_name),
    ],
  );
  const mismatch: DetailNode | undefined =
    problems.length > 0
      ? {
          label: l10n.t('Does not match the API contract'),
          value: problems.length === 1 ? `${problemWords(problems[0])}: ${problems[0].message}` : l10n.t('{0} problems', problems.length),
          children: problems.map(problemNode),
        }
      : undefined;
  return group(
    l10n.t('Resources'),
    [
      mismatch,
      ...components,
      pod,
      Array.isArray(spec.image_pull_secrets)
        ? group(l10n.t('Image pull secrets'), spec.image_pull_secrets.map((entry, index) => ({ label: text(entry?.name) ?? `#${index + 1}` })), true)
        : undefined,
      Array.isArray(spec.volumes) ? group(l10n.t('Volumes'), spec.volumes.map(volumeNode), true) : undefined,
      Array.isArray(spec.volume_mounts) ? group(l10n.t('Volume mounts'), spec.volume_mounts.map(mountNode), true) : undefined,
      Array.isArray(spec.init_containers) ? group(l10n.t('Init containers'), spec.init_containers.map(containerNode), true) : undefined,
      Array.isArray(spec.sidecars) ? group(l10n.t('Sidecars'), spec.sidecars.map(containerNode), true) : undefined,
      ...others(spec, known),
    ],
    true,
  );
}

/** `1–3 × 0.5 CPU, 512 MB` from whichever of the fields exist. */
function componentSummary(spec: ResourceSpec, prefix: string): string | undefined {
  const value = (field: string) => {
    const v = spec[field];
    return typeof v === 'number' ? v : undefined;
  };
  const min = value(`${prefix}min_scale`);
  const max = value(`${prefix}max_scale`);
  const cpu = value(`${prefix}cpu`);
  const memory = value(`${prefix}memory_mb`);
  const parts: string[] = [];
  if (min !== undefined || max !== undefined) parts.push(min !== undefined && max !== undefined ? l10n.t('scale {0}–{1}', min, max) : l10n.t('scale {0}', min ?? max ?? ''));
  if (cpu !== undefined) parts.push(l10n.t('{0} CPU', cpu));
  if (memory !== undefined) parts.push(l10n.t('{0} MB', memory));
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function volumeNode(volume: Volume, index: number): DetailNode {
  const kinds = VOLUME_KINDS.filter((kind) => isObject((volume as Json)[kind]));
  return {
    label: text(volume?.name) ?? `#${index + 1}`,
    value: kinds.join(', ') || undefined,
    children: compact([
      ...kinds.map((kind) => valueNode(kind, (volume as Json)[kind])),
      ...others(volume, new Set(['name', ...VOLUME_KINDS])),
    ]),
  };
}

function mountNode(mount: Mount, index: number): DetailNode {
  return {
    label: text(mount?.name) ?? `#${index + 1}`,
    value: text(mount?.mountPath),
    children: compact([
      ...mountFields().map(([field, label]) => leaf(label, mount?.[field])),
      ...others(mount, new Set(['name', ...mountFields().map(([field]) => field)])),
    ]),
  };
}

function containerNode(container: Container, index: number): DetailNode {
  const env = Array.isArray(container?.env)
    ? group(
        l10n.t('Environment'),
        container.env.map((entry, i) => {
          const from = isObject(entry?.valueFrom) ? Object.keys(entry.valueFrom) : [];
          return {
            label: text(entry?.name) ?? `#${i + 1}`,
            value: typeof entry?.value === 'string' ? entry.value : from.length > 0 ? l10n.t('from {0}', from.join(', ')) : undefined,
            children: isObject(entry?.valueFrom) ? valueNode(l10n.t('Value from'), entry.valueFrom).children : undefined,
          };
        }),
        true,
      )
    : undefined;
  const resources = isObject(container?.resources)
    ? group(l10n.t('Resources'), [valueNode(l10n.t('Requests'), container.resources.requests), valueNode(l10n.t('Limits'), container.resources.limits), ...others(container.resources, new Set(['limits', 'requests']))], true)
    : undefined;
  return {
    label: text(container?.name) ?? `#${index + 1}`,
    value: text(container?.image),
    children: compact([
      leaf(l10n.t('Image'), container?.image),
      leaf(l10n.t('Image pull policy'), container?.imagePullPolicy),
      leaf(l10n.t('Working directory'), container?.workingDir),
      leaf(l10n.t('Restart policy'), container?.restartPolicy),
      listLeaf(l10n.t('Command'), container?.command),
      listLeaf(l10n.t('Arguments'), container?.args),
      env,
      Array.isArray(container?.envFrom) ? valueNode(l10n.t('Environment from'), container.envFrom) : undefined,
      resources,
      Array.isArray(container?.volumeMounts) ? group(l10n.t('Volume mounts'), container.volumeMounts.map(mountNode), true) : undefined,
      container?.securityContext !== undefined ? valueNode(l10n.t('Security context'), container.securityContext) : undefined,
      ...others(container, new Set(['name', 'image', 'imagePullPolicy', 'workingDir', 'restartPolicy', 'command', 'args', 'env', 'envFrom', 'resources', 'volumeMounts', 'securityContext'])),
    ]),
  };
}

function mapGroup(label: string, map: Record<string, unknown> | null | undefined): DetailNode | undefined {
  if (!isObject(map)) return undefined;
  return group(label, Object.entries(map).map(([key, value]) => valueNode(key, value)), true);
}

/**
 * A group node; undefined when no child is present, unless `keepEmpty` (the
 * record has the field, it is just empty: say so rather than hide it).
 */
function group(label: string, children: Array<DetailNode | undefined>, keepEmpty = false): DetailNode | undefined {
  const present = compact(children);
  if (present.length === 0) return keepEmpty ? { label, value: 'none' } : undefined;
  return { label, children: present };
}

function leaf(label: string, value: unknown, unit?: string): DetailNode | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return { label, value: value ? 'yes' : 'no' };
  if (typeof value === 'number') return { label, value: unit ? `${value} ${unit}` : String(value) };
  if (typeof value === 'string') return { label, value: value === '' ? '(empty)' : value };
  return valueNode(label, value);
}

function listLeaf(label: string, value: readonly string[] | null | undefined): DetailNode | undefined {
  if (!Array.isArray(value)) return undefined;
  return { label, value: value.length > 0 ? value.map((item) => (/\s/.test(item) ? JSON.stringify(item) : item)).join(' ') : 'none' };
}

/** Any JSON value as a node: scalars inline, objects and arrays as children. */
function valueNode(label: string, value: unknown): DetailNode {
  if (value === undefined || value === null) return { label, value: 'null' };
  if (typeof value !== 'object') return leaf(label, value) ?? { label };
  if (Array.isArray(value)) {
    if (value.length === 0) return { label, value: 'none' };
    return { label, children: value.map((item, index) => valueNode(itemLabel(item, index), item)) };
  }
  const entries = Object.entries(value as Json);
  if (entries.length === 0) return { label, value: '{}' };
  return { label, children: entries.map(([key, item]) => valueNode(key, item)) };
}

function itemLabel(item: unknown, index: number): string {
  if (isObject(item) && typeof item.name === 'string' && item.name) return item.name;
  return `#${index + 1}`;
}

/** Fields of `record` that `known` does not cover, as generic nodes. */
function others(record: unknown, known: ReadonlySet<string>): DetailNode[] {
  if (!isObject(record)) return [];
  return Object.entries(record)
    .filter(([key, value]) => !known.has(key) && value !== undefined && value !== null)
    .map(([key, value]) => valueNode(key, value));
}

function compact(nodes: Array<DetailNode | undefined>): DetailNode[] {
  return nodes.filter((node): node is DetailNode => node !== undefined);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
