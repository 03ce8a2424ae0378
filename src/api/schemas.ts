import * as z from 'zod/mini';
import { toDotPath } from 'zod/v4/core';
import * as l10n from '@vscode/l10n';
import type { RecordProblem } from './errors';
import { describeKind } from './text';
import { uuidPattern } from './vocabulary';

// The contract does not show which deployment fields are required, and FastAPI-style servers send
// `null` for absent optional values, so every deployment field accepts null or absence. The schemas
// check the fields the contract names; the client keeps each record as the server sent it (its other
// fields included), so zod's output, which would strip them, is not used.
const optional = <T extends z.ZodMiniType>(schema: T) => z.nullish(schema);

// Problems are worded here, through zod's own error customisation, so that they can be translated
// and never repeat a value the server sent (it may be a secret): only the kind of value received.
// The messages are functions, made when a record fails, in the language configured then.
type RawIssue = z.core.$ZodRawIssue;
const expected = (what: () => string) => ({ error: (issue: RawIssue) => l10n.t('expected {0}, got {1}', what(), describeKind(issue.input)) });
const string = () => z.string(expected(() => l10n.t('a string')));
const number = () => z.number(expected(() => l10n.t('a number')));
const boolean = () => z.boolean(expected(() => l10n.t('a boolean')));
const integer = () =>
  z.int({
    error: (issue: RawIssue) => {
      const input = issue.input;
      if (issue.code !== 'invalid_type') return l10n.t('expected a whole number between {0} and {1}', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      const got = typeof input === 'number' && Number.isFinite(input) ? l10n.t('a number with a fraction') : describeKind(input);
      return l10n.t('expected {0}, got {1}', l10n.t('a whole number'), got);
    },
  });
const array = <T extends z.ZodMiniType>(element: T) => z.array(element, expected(() => l10n.t('an array')));
const object = <T extends z.core.$ZodLooseShape>(shape: T) => z.object(shape, expected(() => l10n.t('an object')));
// A whole answer of the wrong kind is described without its content (records may hold secrets): "a list of 2 records".
const answer = (what: () => string) => ({
  error: (issue: RawIssue) => {
    const { input } = issue;
    const got = !Array.isArray(input) ? describeKind(input) : input.length === 1 ? l10n.t('a list of 1 record') : l10n.t('a list of {0} records', input.length);
    return l10n.t('expected {0}, got {1}', what(), got);
  },
});
// An object whose content the contract leaves open: only its kind is checked (z.record would copy every field).
const looseRecord = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  expected(() => l10n.t('an object')),
);
const uuidString = string().check(z.regex(uuidPattern, { error: () => l10n.t('expected a UUID') }));

export const repositorySchema = object({
  host_integration_id: uuidString,
  id: integer(),
  name: string(),
  owner: string(),
  url: string(),
  default_branch: string(),
});

const mountSchema = object({
  name: optional(string()),
  mountPath: optional(string()),
  subPath: optional(string()),
  mountPropagation: optional(string()),
  subPathExpr: optional(string()),
  readOnly: optional(boolean()),
});

const containerSchema = object({
  name: optional(string()),
  image: optional(string()),
  imagePullPolicy: optional(string()),
  workingDir: optional(string()),
  restartPolicy: optional(string()),
  command: optional(array(string())),
  args: optional(array(string())),
  env: optional(
    array(
      object({
        name: optional(string()),
        value: optional(string()),
        valueFrom: optional(looseRecord),
      }),
    ),
  ),
  envFrom: optional(array(looseRecord)),
  resources: optional(
    object({
      limits: optional(looseRecord),
      requests: optional(looseRecord),
    }),
  ),
  volumeMounts: optional(array(mountSchema)),
  securityContext: optional(looseRecord),
});

const volumeSchema = object({
  name: optional(string()),
  configMap: optional(looseRecord),
  secret: optional(looseRecord),
  emptyDir: optional(looseRecord),
  persistentVolumeClaim: optional(looseRecord),
  nfs: optional(looseRecord),
  projected: optional(looseRecord),
  downwardAPI: optional(looseRecord),
  csi: optional(looseRecord),
});

const count = optional(integer());
const cpu = optional(number());

export const resourceSpecSchema = object({
  min_scale: count,
  max_scale: count,
  cpu,
  cpu_limit: cpu,
  memory_mb: count,
  memory_limit_mb: count,
  queue_min_scale: count,
  queue_max_scale: count,
  queue_cpu: cpu,
  queue_cpu_limit: cpu,
  queue_memory_mb: count,
  queue_memory_limit_mb: count,
  orchestrator_cpu: cpu,
  orchestrator_cpu_limit: cpu,
  orchestrator_memory_mb: count,
  orchestrator_memory_limit_mb: count,
  orchestrator_min_scale: count,
  orchestrator_max_scale: count,
  executor_cpu: cpu,
  executor_cpu_limit: cpu,
  executor_memory_mb: count,
  executor_memory_limit_mb: count,
  kv_cpu: cpu,
  kv_cpu_limit: cpu,
  kv_memory_mb: count,
  kv_memory_limit_mb: count,
  db_cpu: cpu,
  db_cpu_limit: cpu,
  db_memory_mb: count,
  db_memory_limit_mb: count,
  db_storage_gi: count,
  db_max_connections: count,
  labels: optional(looseRecord),
  annotations: optional(looseRecord),
  service_account_name: optional(string()),
  image_pull_secrets: optional(array(object({ name: optional(string()) }))),
  volumes: optional(array(volumeSchema)),
  volume_mounts: optional(array(mountSchema)),
  init_containers: optional(array(containerSchema)),
  sidecars: optional(array(containerSchema)),
});

const sourceConfigSchema = object({
  integration_id: optional(uuidString),
  repo_url: optional(string()),
  build_on_push: optional(boolean()),
  custom_url: optional(string()),
  resource_spec: optional(resourceSpecSchema),
  listener_id: optional(uuidString),
  listener_config: optional(object({ k8s_namespace: optional(string()) })),
  install_command: optional(string()),
  build_command: optional(string()),
});

const sourceRevisionConfigSchema = object({
  repo_ref: optional(string()),
  graph_config_path: optional(string()),
  image_uri: optional(string()),
  source_tarball_path: optional(string()),
  repo_commit_sha: optional(string()),
});

export const deploymentSchema = object({
  name: optional(string()),
  source_config: optional(sourceConfigSchema),
  source_revision_config: optional(sourceRevisionConfigSchema),
  secrets: optional(array(object({ name: optional(string()), value: optional(string()) }))),
  id: optional(uuidString),
  tenant_id: optional(uuidString),
  created_at: optional(string()),
  updated_at: optional(string()),
  latest_revision_id: optional(uuidString),
  active_revision_id: optional(uuidString),
  secret_references: optional(
    array(
      object({
        name: optional(string()),
        secret_name: optional(string()),
        secret_key: optional(string()),
      }),
    ),
  ),
  image_version: optional(string()),
  // Not in the record table, but the listing filters on it, so servers send it.
  status: optional(string()),
});

/**
 * What a listing validates per record: every field, but the deep `resource_spec` only as an object;
 * `resourceSpecProblems` checks it in full when it is first shown. Checking it on every listed record
 * would cost more than the rest of the page, for content most rows never display.
 */
export const deploymentSummarySchema = z.extend(deploymentSchema, {
  source_config: optional(z.extend(sourceConfigSchema, { resource_spec: optional(looseRecord) })),
});

/** The answer of `GET /v2/deployments`; its records are checked one by one (deploymentSummarySchema). */
export const listingSchema = z.object(
  {
    resources: array(z.unknown()),
    offset: z
      .int({ error: (issue: RawIssue) => l10n.t('expected a whole number of 0 or more, got {0}', describeKind(issue.input)) })
      .check(z.minimum(0, { error: () => l10n.t('expected a whole number of 0 or more, got a negative number') })),
  },
  answer(() => l10n.t('an object')),
);

/** The answer of the repository listing; its records are checked one by one (repositorySchema). */
export const repositoryListingSchema = z.array(z.unknown(), answer(() => l10n.t('an array')));

/**
 * Where `value` departs from `schema`, each problem at its field path from `root` (`secrets[0].value`) in
 * the schemas' words; empty when it matches. zod's output is not used: records are kept as they came.
 */
export function problemsOf(schema: z.ZodMiniType, value: unknown, root: readonly string[] = []): RecordProblem[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: toDotPath([...root, ...issue.path]), message: issue.message }));
}

/** A record as the server sent it: the fields the contract names, as checked, and any others. */
type AsSent<T> = T & { [field: string]: unknown };
export type Repository = AsSent<z.infer<typeof repositorySchema>>;
export type Deployment = AsSent<z.infer<typeof deploymentSchema>>;
export type ResourceSpec = AsSent<z.infer<typeof resourceSpecSchema>>;
export type Container = AsSent<z.infer<typeof containerSchema>>;
export type Mount = AsSent<z.infer<typeof mountSchema>>;
export type Volume = AsSent<z.infer<typeof volumeSchema>>;
