import * as z from 'zod';
import * as l10n from '@vscode/l10n';
import { uuidPattern } from './vocabulary';

// The contract does not show which deployment fields are required, and
// FastAPI-style servers send `null` for absent optional values, so every
// deployment field accepts null or absence. Objects are loose: fields the
// contract does not name are kept, never stripped.
const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const looseRecord = z.record(z.string(), z.unknown());

// Messages as functions: they are made when a record fails, so in the language of the translator then.
const uuidString = z.string().regex(uuidPattern, { error: () => l10n.t('expected a UUID') });
const integer = z.number().int();

export const repositorySchema = z.looseObject({
  host_integration_id: uuidString,
  id: integer,
  name: z.string(),
  owner: z.string(),
  url: z.string(),
  default_branch: z.string(),
});

const mountSchema = z.looseObject({
  name: optional(z.string()),
  mountPath: optional(z.string()),
  subPath: optional(z.string()),
  mountPropagation: optional(z.string()),
  subPathExpr: optional(z.string()),
  readOnly: optional(z.boolean()),
});

const containerSchema = z.looseObject({
  name: optional(z.string()),
  image: optional(z.string()),
  imagePullPolicy: optional(z.string()),
  workingDir: optional(z.string()),
  restartPolicy: optional(z.string()),
  command: optional(z.array(z.string())),
  args: optional(z.array(z.string())),
  env: optional(
    z.array(
      z.looseObject({
        name: optional(z.string()),
        value: optional(z.string()),
        valueFrom: optional(looseRecord),
      }),
    ),
  ),
  envFrom: optional(z.array(looseRecord)),
  resources: optional(
    z.looseObject({
      limits: optional(looseRecord),
      requests: optional(looseRecord),
    }),
  ),
  volumeMounts: optional(z.array(mountSchema)),
  securityContext: optional(looseRecord),
});

const volumeSchema = z.looseObject({
  name: optional(z.string()),
  configMap: optional(looseRecord),
  secret: optional(looseRecord),
  emptyDir: optional(looseRecord),
  persistentVolumeClaim: optional(looseRecord),
  nfs: optional(looseRecord),
  projected: optional(looseRecord),
  downwardAPI: optional(looseRecord),
  csi: optional(looseRecord),
});

const count = optional(integer);
const cpu = optional(z.number());

export const resourceSpecSchema = z.looseObject({
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
  service_account_name: optional(z.string()),
  image_pull_secrets: optional(z.array(z.looseObject({ name: optional(z.string()) }))),
  volumes: optional(z.array(volumeSchema)),
  volume_mounts: optional(z.array(mountSchema)),
  init_containers: optional(z.array(containerSchema)),
  sidecars: optional(z.array(containerSchema)),
});

const sourceConfigSchema = z.looseObject({
  integration_id: optional(uuidString),
  repo_url: optional(z.string()),
  build_on_push: optional(z.boolean()),
  custom_url: optional(z.string()),
  resource_spec: optional(resourceSpecSchema),
  listener_id: optional(uuidString),
  listener_config: optional(z.looseObject({ k8s_namespace: optional(z.string()) })),
  install_command: optional(z.string()),
  build_command: optional(z.string()),
});

const sourceRevisionConfigSchema = z.looseObject({
  repo_ref: optional(z.string()),
  graph_config_path: optional(z.string()),
  image_uri: optional(z.string()),
  source_tarball_path: optional(z.string()),
  repo_commit_sha: optional(z.string()),
});

export const deploymentSchema = z.looseObject({
  name: optional(z.string()),
  source_config: optional(sourceConfigSchema),
  source_revision_config: optional(sourceRevisionConfigSchema),
  secrets: optional(z.array(z.looseObject({ name: optional(z.string()), value: optional(z.string()) }))),
  id: optional(uuidString),
  tenant_id: optional(uuidString),
  created_at: optional(z.string()),
  updated_at: optional(z.string()),
  latest_revision_id: optional(uuidString),
  active_revision_id: optional(uuidString),
  secret_references: optional(
    z.array(
      z.looseObject({
        name: optional(z.string()),
        secret_name: optional(z.string()),
        secret_key: optional(z.string()),
      }),
    ),
  ),
  image_version: optional(z.string()),
  // Not in the record table, but the listing filters on it, so servers send it.
  status: optional(z.string()),
});

/**
 * What a listing validates per record: every field, except that the deep
 * `resource_spec` is only checked to be an object here. It is validated in
 * full by `resourceSpecProblems` when it is first shown: a whole-record check
 * would triple the cost of each page (see `npm run bench`), for content most
 * rows never display.
 */
const objectOrAbsent = z.custom<ResourceSpec | null | undefined>(
  (value) => value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value)),
  { error: () => l10n.t('expected an object') },
);
export const deploymentSummarySchema = deploymentSchema.extend({
  source_config: optional(sourceConfigSchema.extend({ resource_spec: objectOrAbsent.optional() })),
});

export type Repository = z.infer<typeof repositorySchema>;
export type Deployment = z.infer<typeof deploymentSchema>;
export type ResourceSpec = z.infer<typeof resourceSpecSchema>;
export type Container = z.infer<typeof containerSchema>;
export type Mount = z.infer<typeof mountSchema>;
export type Volume = z.infer<typeof volumeSchema>;
