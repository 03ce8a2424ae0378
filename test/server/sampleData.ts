/**
 * Deterministic sample data for the control-plane stand-in.
 * Same (seed, deploymentCount) → byte-identical data; integration ids never change.
 */

export interface Repository {
  host_integration_id: string;
  id: number;
  name: string;
  owner: string;
  url: string;
  default_branch: string;
}

export interface SampleIntegration {
  id: string;
  label: string;
  /** Code-host domain used in repository URLs. */
  host: string;
  repositories: Repository[];
}

export interface MountSpec {
  name: string;
  mountPath: string;
  subPath?: string;
  mountPropagation?: string;
  subPathExpr?: string;
  readOnly?: boolean;
}

export interface ContainerSpec {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  workingDir?: string;
  restartPolicy?: string;
  command?: string[];
  args?: string[];
  env?: Array<{ name: string; value?: string; valueFrom?: Record<string, unknown> }>;
  envFrom?: Array<Record<string, unknown>>;
  resources?: { limits?: Record<string, unknown>; requests?: Record<string, unknown> };
  volumeMounts?: MountSpec[];
  securityContext?: Record<string, unknown>;
}

export interface VolumeSpec {
  name: string;
  configMap?: Record<string, unknown>;
  secret?: Record<string, unknown>;
  emptyDir?: Record<string, unknown>;
  persistentVolumeClaim?: Record<string, unknown>;
  nfs?: Record<string, unknown>;
  projected?: Record<string, unknown>;
  downwardAPI?: Record<string, unknown>;
  csi?: Record<string, unknown>;
}

export interface ResourceSpec {
  [field: string]: unknown;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  service_account_name?: string;
  image_pull_secrets?: Array<{ name: string }>;
  volumes?: VolumeSpec[];
  volume_mounts?: MountSpec[];
  init_containers?: ContainerSpec[];
  sidecars?: ContainerSpec[];
}

export interface SourceConfig {
  [field: string]: unknown;
  /** null in a record not built from a repository (real shapes). */
  integration_id?: string | null;
  repo_url?: string | null;
  build_on_push?: boolean | null;
  custom_url?: string;
  resource_spec?: ResourceSpec;
  listener_id?: string;
  listener_config?: { k8s_namespace?: string };
  install_command?: string;
  build_command?: string;
  /** Where the real service keeps a record's type (real shapes); a contract-only server has a top-level `deployment_type`. */
  deployment_type?: string;
}

export interface SourceRevisionConfig {
  [field: string]: unknown;
  repo_ref?: string;
  graph_config_path?: string;
  image_uri?: string;
  source_tarball_path?: string;
  repo_commit_sha?: string | null;
}

/** Every field but name and id may be missing; unknown fields (e.g. from a POST body) are kept. */
export interface Deployment {
  [field: string]: unknown;
  name: string;
  id: string;
  tenant_id?: string;
  created_at?: string;
  updated_at?: string;
  status?: string;
  deployment_type?: string;
  remote_reconciled?: boolean;
  tag_value_ids?: string[];
  image_version?: string;
  source?: string;
  source_config?: SourceConfig;
  source_revision_config?: SourceRevisionConfig;
  secrets?: Array<{ name: string; value: string }>;
  secret_references?: Array<{ name: string; secret_name: string; secret_key: string }>;
  latest_revision_id?: string;
  active_revision_id?: string;
}

export interface SampleData {
  integrations: SampleIntegration[];
  deployments: Deployment[];
}

export const SAMPLE_INTEGRATIONS: ReadonlyArray<{ id: string; label: string; host: string; repositoryCount: number }> = [
  { id: 'a1c3e5f7-2b4d-4e6f-8a0b-1c2d3e4f5a01', label: 'acme-github', host: 'github.com', repositoryCount: 5 },
  { id: 'b2d4f6a8-3c5e-4f70-9b1c-2d3e4f5a6b02', label: 'platform-gitlab', host: 'gitlab.com', repositoryCount: 60 },
  { id: 'c3e5a7b9-4d6f-4081-a2c3-3e4f5a6b7c03', label: 'monorepo-github', host: 'github.com', repositoryCount: 400 },
  { id: 'd4f6b8c0-5e70-4192-b3d4-4f5a6b7c8d04', label: 'archive-bitbucket', host: 'bitbucket.org', repositoryCount: 0 },
];

export const SAMPLE_INTEGRATION_IDS: readonly string[] = SAMPLE_INTEGRATIONS.map((i) => i.id);

/** Referenced by a couple of deployments but unknown to the repository endpoint (404). */
export const ORPHAN_INTEGRATION_ID = 'e5a7c9d1-6f81-42a3-84e5-5a6b7c8d9e05';

export const SAMPLE_TENANT_ID = '7e1d2c3b-4a59-4687-9a1b-0c2d3e4f5a6b';

export const SAMPLE_STATUSES = ['AWAITING_DATABASE', 'READY', 'UNUSED', 'AWAITING_DELETE', 'UNKNOWN'] as const;
export const SAMPLE_IMAGE_VERSIONS = ['0.2.71', '0.2.74', '0.3.0', '0.3.2'] as const;
export const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;
/** Types the real service sends besides those the contract's list filter names (real shapes). */
export const NEWER_DEPLOYMENT_TYPES = ['dev_zero', 'dev_free_zero'] as const;

// Fixed "now" so generated timestamps do not depend on when the data is built.
const BASE_TIME_MS = Date.UTC(2025, 5, 1, 9, 30, 0);

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** mulberry32 */
  u32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  }
  float(): number {
    return this.u32() / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.float() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.float() * total;
    for (const [v, w] of entries) {
      r -= w;
      if (r < 0) return v;
    }
    return entries[entries.length - 1][0];
  }
  hex(length: number): string {
    let s = '';
    while (s.length < length) s += this.u32().toString(16).padStart(8, '0');
    return s.slice(0, length);
  }
  /** RFC 4122 version-4 shaped, so strict UUID validators accept it. */
  uuid(): string {
    const h = this.hex(32);
    const variant = '89ab'[parseInt(h[16], 16) & 3];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

function poolOf(seed: number, n: number): string[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => rng.uuid());
}

export const SAMPLE_TAG_VALUE_IDS: readonly string[] = poolOf(0x7a95, 8);
const LISTENER_IDS = poolOf(0x115e, 3);

const WORDS_A = [
  'billing', 'checkout', 'search', 'auth', 'payments', 'inventory', 'notifications', 'gateway', 'analytics',
  'reporting', 'catalog', 'orders', 'users', 'profile', 'media', 'chat', 'agent', 'scheduler', 'ingest', 'etl',
  'docs', 'web', 'mobile', 'admin', 'ledger', 'pricing', 'shipping', 'recommendations', 'fraud', 'support',
];
const WORDS_B = [
  'service', 'api', 'worker', 'ui', 'app', 'pipeline', 'bot', 'backend', 'frontend', 'jobs', 'sdk', 'infra',
  'graph', 'tools', 'core',
];
const OWNERS: Record<string, string[]> = {
  'platform-gitlab': ['platform', 'platform/infra', 'data-team'],
  'monorepo-github': ['monorepo-org', 'Contoso', 'contoso-oss', 'ml-research', 'web-team'],
};

const ACME_REPOS: ReadonlyArray<readonly [number, string, string, string]> = [
  [512340001, 'storefront', 'acme', 'main'],
  [512340002, 'checkout-service', 'acme', 'master'],
  [512340017, 'Payments_API', 'acme', 'develop'],
  [512340023, 'docs.acme.dev', 'acme-labs', 'trunk'],
  [512340042, 'agent-runtime', 'acme-labs', 'main'],
];

const capitalize = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

function buildRepositories(seed: number, index: number): Repository[] {
  const meta = SAMPLE_INTEGRATIONS[index];
  if (meta.label === 'acme-github') {
    return ACME_REPOS.map(([id, name, owner, branch]) => ({
      host_integration_id: meta.id,
      id,
      name,
      owner,
      url: `https://${meta.host}/${owner}/${name}`,
      default_branch: branch,
    }));
  }
  const rng = new Rng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const owners = OWNERS[meta.label] ?? ['archive'];
  const used = new Set<string>();
  const usedIds = new Set<number>();
  const repos: Repository[] = [];
  for (let i = 0; i < meta.repositoryCount; i++) {
    const a = rng.pick(WORDS_A);
    const b = rng.pick(WORDS_B);
    const style = rng.float();
    let name: string;
    if (style < 0.08) name = `${capitalize(a)}_${capitalize(b)}`;
    else if (style < 0.13) name = `${a}.${b}`;
    else name = `${a}-${b}`;
    let unique = name;
    for (let n = 2; used.has(unique.toLowerCase()); n++) unique = `${name}-${n}`;
    used.add(unique.toLowerCase());
    let id = rng.int(1_000_000, 999_999_999);
    while (usedIds.has(id)) id++;
    usedIds.add(id);
    const owner = rng.pick(owners);
    repos.push({
      host_integration_id: meta.id,
      id,
      name: unique,
      owner,
      url: `https://${meta.host}/${owner}/${unique}`,
      default_branch: rng.weighted([
        ['main', 65],
        ['master', 20],
        ['develop', 10],
        ['trunk', 5],
      ] as const),
    });
  }
  return repos;
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

const ENV_WORDS: Record<string, string[]> = {
  prod: ['prod', 'production', 'live', 'eu', 'us'],
  dev: ['dev', 'staging', 'qa', 'preview', 'test'],
  dev_free: ['sandbox', 'playground', 'trial', 'demo', 'scratch'],
};
const OTHER_REFS = ['feature/login-flow', 'release/2025.05', 'v1.4.2', 'fix/timeout', 'experiment/cache'];
const NAMESPACES = ['apps', 'apps-staging', 'tenant-shared', 'ml-serving'];
const INSTALL = ['npm ci', 'pip install -e .', 'uv sync --frozen', 'poetry install --no-root', 'pnpm install'];
const BUILD = ['npm run build', 'python -m build', 'make build', 'pnpm build', ''];
const CONFIG_PATHS = ['config.json', 'deploy/config.json', 'apps/server/config.json', 'graph.json'];

function isoTime(ms: number, rng: Rng): string {
  const iso = new Date(ms).toISOString();
  // A few timestamps in the other common ISO 8601 UTC spelling.
  if (rng.chance(0.05)) return `${iso.slice(0, 19)}.${iso.slice(20, 23)}${rng.int(0, 999).toString().padStart(3, '0')}+00:00`;
  return iso;
}

const SIZES = {
  dev_free: { cpu: 0.25, mem: 256, max: 1 },
  dev: { cpu: 0.5, mem: 512, max: 3 },
  prod: { cpu: 2, mem: 2048, max: 10 },
} as const;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

// Name-independent parts are shared (frozen) between records: it halves generation time.
const SHARED = deepFreeze({
  mountConfig: { name: 'config', mountPath: '/etc/app', readOnly: true },
  mountScratch: { name: 'scratch', mountPath: '/tmp/scratch', subPath: '', mountPropagation: 'None', readOnly: false },
  mountCreds: { name: 'creds', mountPath: '/var/run/secrets/app', readOnly: true },
  mountData: { name: 'data', mountPath: '/data', subPathExpr: '$(POD_NAME)' },
  volScratch: { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '256Mi' } },
  volShared: { name: 'shared', nfs: { server: 'nfs.internal.example.test', path: '/exports/shared' } },
  volBundle: {
    name: 'bundle',
    projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }, { configMap: { name: 'ca-bundle' } }] },
  },
  volPodinfo: { name: 'podinfo', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
  annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' },
  imagePullSecrets: [{ name: 'registry-credentials' }],
  migrateCommand: ['sh', '-c'],
  migrateArgs: ['./migrate up'],
  migrateLogLevel: { name: 'LOG_LEVEL', value: 'info' },
  migrateResources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
  migrateMounts: [{ name: 'config', mountPath: '/etc/app', readOnly: true }],
  migrateSecurity: { runAsNonRoot: true, runAsUser: 1000, readOnlyRootFilesystem: true },
  sidecars: [
    {
      name: 'log-shipper',
      image: 'registry.example.test/observability/fluent-bit:3.1.4',
      imagePullPolicy: 'Always',
      restartPolicy: 'Always',
      args: ['--config', '/fluent-bit/etc/fluent-bit.conf'],
      env: [
        { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'OUTPUT_HOST', value: 'logs.internal.example.test' },
      ],
      resources: { limits: { cpu: '200m', memory: '128Mi' }, requests: { cpu: '50m', memory: '64Mi' } },
      volumeMounts: [{ name: 'scratch', mountPath: '/var/log/app', readOnly: true }],
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    },
  ] as ContainerSpec[],
});

function buildResourceSpec(rng: Rng, name: string, type: keyof typeof SIZES, team: string): ResourceSpec {
  const s = SIZES[type];
  if (rng.chance(0.05)) {
    // partial spec: only the main group
    return { min_scale: 1, max_scale: s.max, cpu: s.cpu, memory_mb: s.mem };
  }
  const mounts: MountSpec[] = [SHARED.mountConfig, SHARED.mountScratch];
  const volumes: VolumeSpec[] = [{ name: 'config', configMap: { name: `${name}-config`, defaultMode: 420 } }, SHARED.volScratch];
  if (rng.chance(0.6)) {
    volumes.push({ name: 'creds', secret: { secretName: `${name}-creds`, optional: false } });
    mounts.push(SHARED.mountCreds);
  }
  if (type === 'prod' && rng.chance(0.5)) {
    volumes.push({ name: 'data', persistentVolumeClaim: { claimName: `${name}-data`, readOnly: false } });
    mounts.push(SHARED.mountData);
  }
  if (rng.chance(0.15)) volumes.push(SHARED.volShared);
  if (rng.chance(0.15)) volumes.push(SHARED.volBundle);
  if (rng.chance(0.1)) volumes.push(SHARED.volPodinfo);
  if (rng.chance(0.1)) volumes.push({ name: 'vault', csi: { driver: 'secrets-store.csi.k8s.io', readOnly: true, volumeAttributes: { secretProviderClass: name } } });

  const initContainers: ContainerSpec[] = rng.chance(0.5)
    ? [
        {
          name: 'migrate',
          image: `registry.example.test/tools/migrate:1.${rng.int(0, 9)}.${rng.int(0, 20)}`,
          imagePullPolicy: 'IfNotPresent',
          command: SHARED.migrateCommand,
          args: SHARED.migrateArgs,
          workingDir: '/app',
          env: [{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: `${name}-db`, key: 'url' } } }, SHARED.migrateLogLevel],
          envFrom: [{ configMapRef: { name: `${name}-config` } }],
          resources: SHARED.migrateResources,
          volumeMounts: SHARED.migrateMounts,
          securityContext: SHARED.migrateSecurity,
        },
      ]
    : [];
  const sidecars: ContainerSpec[] = rng.chance(0.4) ? SHARED.sidecars : [];

  return {
    min_scale: type === 'prod' ? 2 : 1,
    max_scale: s.max,
    cpu: s.cpu,
    cpu_limit: s.cpu * 2,
    memory_mb: s.mem,
    memory_limit_mb: s.mem * 2,
    queue_min_scale: 1,
    queue_max_scale: Math.max(1, Math.floor(s.max / 2)),
    queue_cpu: s.cpu,
    queue_cpu_limit: s.cpu * 2,
    queue_memory_mb: s.mem,
    queue_memory_limit_mb: s.mem * 2,
    orchestrator_cpu: 0.5,
    orchestrator_cpu_limit: 1,
    orchestrator_memory_mb: 512,
    orchestrator_memory_limit_mb: 1024,
    orchestrator_min_scale: 1,
    orchestrator_max_scale: type === 'prod' ? 3 : 1,
    executor_cpu: s.cpu,
    executor_cpu_limit: s.cpu * 4,
    executor_memory_mb: s.mem,
    executor_memory_limit_mb: s.mem * 4,
    kv_cpu: 0.25,
    kv_cpu_limit: 0.5,
    kv_memory_mb: 256,
    kv_memory_limit_mb: 512,
    db_cpu: type === 'prod' ? 2 : 0.5,
    db_cpu_limit: type === 'prod' ? 4 : 1,
    db_memory_mb: type === 'prod' ? 4096 : 1024,
    db_memory_limit_mb: type === 'prod' ? 8192 : 2048,
    db_storage_gi: type === 'prod' ? 100 : 10,
    db_max_connections: type === 'prod' ? 400 : 100,
    labels: { app: name, team, 'app.kubernetes.io/managed-by': 'control-plane' },
    annotations: SHARED.annotations,
    service_account_name: `${name}-sa`,
    image_pull_secrets: SHARED.imagePullSecrets,
    volumes,
    volume_mounts: mounts,
    init_containers: initContainers,
    sidecars,
  };
}

interface RepoChoice {
  integrationId: string;
  repoName: string;
  url: string;
  defaultBranch: string;
}

const OPTIONAL_DROPS: ReadonlyArray<(d: Deployment) => void> = [
  (d) => delete d.source_config?.custom_url,
  (d) => delete d.source_config?.resource_spec,
  (d) => delete d.secrets,
  (d) => delete d.status,
  (d) => delete d.image_version,
  (d) => delete d.secret_references,
  (d) => {
    delete d.source_config?.listener_id;
    delete d.source_config?.listener_config;
  },
  (d) => delete d.active_revision_id,
  (d) => delete d.latest_revision_id,
  (d) => delete d.updated_at,
  (d) => delete d.source_revision_config?.graph_config_path,
  (d) => delete d.source_revision_config?.image_uri,
  (d) => delete d.source_revision_config,
  (d) => delete d.tag_value_ids,
  (d) => delete d.deployment_type,
];

/** The integration StandIn.addIntegration adds unless told otherwise: not one of the sample integrations. */
export const LARGE_INTEGRATION = { id: 'f6a8c0e2-7a92-4b04-95f6-6b7c8d9e0f06', label: 'large-github', host: 'github.com' } as const;

/**
 * `count` repositories of one owner, more than a view shows at once: sorted, the one at index k is
 * `service-<k>` (zero-padded to the same width, so any sort agrees); listed in a shuffled order
 * (the same for the same seed), as a server does not sort them.
 */
export function manyRepositories(integrationId: string, host: string, count: number, owner = 'large-org', seed = 1): Repository[] {
  const width = String(Math.max(0, count - 1)).length;
  const order = Array.from({ length: count }, (_, k) => k);
  const rng = new Rng((seed * 0x9e3779b1) ^ count);
  for (let i = count - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.map((k) => {
    const name = `service-${String(k).padStart(width, '0')}`;
    return { host_integration_id: integrationId, id: 2_000_000_000 + k, name, owner, url: `https://${host}/${owner}/${name}`, default_branch: 'main' };
  });
}

/**
 * `realShapes`: the records as the real service answers where the contract is silent (shared DESIGN.md, fourth
 * round), from the same draws, so the contract-only records stay byte-identical: see toRealShape.
 */
export function sampleData(seed = 1, deploymentCount = 1200, options: { realShapes?: boolean } = {}): SampleData {
  const integrations: SampleIntegration[] = SAMPLE_INTEGRATIONS.map((meta, index) => ({
    id: meta.id,
    label: meta.label,
    host: meta.host,
    repositories: buildRepositories(seed, index),
  }));
  const withRepos = integrations.filter((i) => i.repositories.length > 0);
  const archive = integrations.find((i) => i.label === 'archive-bitbucket');
  const rng = new Rng((seed * 2654435761) ^ 0x5eed);

  const orphanAt = new Set([3, Math.floor(deploymentCount / 2) + 1]);
  const archiveAt = new Set([11, deploymentCount - 5]);

  const names = new Set<string>();
  const deployments: Deployment[] = [];
  let t = BASE_TIME_MS;
  for (let i = 0; i < deploymentCount; i++) {
    t -= rng.int(60, 600 * 60) * 1000 + rng.int(0, 999);
    let choice: RepoChoice;
    if (orphanAt.has(i)) {
      choice = { integrationId: ORPHAN_INTEGRATION_ID, repoName: 'legacy-importer', url: 'https://github.com/ghost-org/legacy-importer', defaultBranch: 'master' };
    } else if (archiveAt.has(i) && archive) {
      choice = { integrationId: archive.id, repoName: 'old-portal', url: `https://${archive.host}/acme-archive/old-portal`, defaultBranch: 'master' };
    } else {
      const integ = rng.weighted(withRepos.map((x) => [x, x.repositories.length === 5 ? 30 : 35] as const));
      const repo = rng.pick(integ.repositories);
      choice = { integrationId: integ.id, repoName: repo.name, url: repo.url, defaultBranch: repo.default_branch };
    }

    const type = rng.weighted([
      ['dev_free', 30],
      ['dev', 40],
      ['prod', 30],
    ] as const);
    const base = `${slug(choice.repoName) || 'app'}-${rng.pick(ENV_WORDS[type])}`;
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base}-${n}`;
    names.add(name);

    const status = rng.weighted<string | undefined>([
      ['READY', 45],
      ['UNUSED', 18],
      ['AWAITING_DATABASE', 10],
      ['AWAITING_DELETE', 8],
      ['UNKNOWN', 10],
      ['DEGRADED', 1.5],
      [undefined, 1.5],
    ]);
    const id = rng.uuid();
    const sha = rng.hex(40);
    const team = rng.pick(['core', 'growth', 'payments', 'ml', 'platform']);
    const tags: string[] = [];
    const tagCount = rng.weighted([
      [0, 30],
      [1, 40],
      [2, 20],
      [3, 10],
    ] as const);
    while (tags.length < tagCount) {
      const tag = rng.pick(SAMPLE_TAG_VALUE_IDS);
      if (!tags.includes(tag)) tags.push(tag);
    }
    const created = t;
    const updated = Math.min(BASE_TIME_MS, created + rng.int(0, 30 * 24 * 3600) * 1000);
    const latestRevision = rng.uuid();

    const d: Deployment = {
      name,
      status,
      source: 'github',
      source_config: {
        integration_id: choice.integrationId,
        repo_url: choice.url,
        build_on_push: rng.chance(0.6),
        custom_url: `https://${name}.deployments.example.test`,
        resource_spec: buildResourceSpec(rng, name, type, team),
        listener_id: rng.pick(LISTENER_IDS),
        listener_config: { k8s_namespace: rng.pick(NAMESPACES) },
        install_command: rng.pick(INSTALL),
        build_command: rng.pick(BUILD),
      },
      source_revision_config: {
        repo_ref: rng.chance(0.7) ? choice.defaultBranch : rng.pick(OTHER_REFS),
        graph_config_path: rng.pick(CONFIG_PATHS),
        image_uri: `registry.example.test/${SAMPLE_TENANT_ID.slice(0, 8)}/${name}:${sha.slice(0, 12)}`,
        source_tarball_path: `gs://deployment-sources/${SAMPLE_TENANT_ID}/${id}/${sha.slice(0, 12)}.tar.gz`,
        repo_commit_sha: sha,
      },
      secrets: buildSecrets(rng),
      id,
      tenant_id: SAMPLE_TENANT_ID,
      created_at: isoTime(created, rng),
      updated_at: isoTime(updated, rng),
      latest_revision_id: latestRevision,
      active_revision_id: status === 'READY' || rng.chance(0.5) ? latestRevision : rng.uuid(),
      secret_references: rng.chance(0.3) ? [{ name: 'STRIPE_API_KEY', secret_name: `${name}-external`, secret_key: 'stripe' }] : [],
      image_version: rng.weighted([
        ['0.2.71', 15],
        ['0.2.74', 25],
        ['0.3.0', 25],
        ['0.3.2', 35],
      ] as const),
      deployment_type: type,
      remote_reconciled: rng.chance(0.7),
      tag_value_ids: tags,
    };
    if (status === undefined) delete d.status;

    if (rng.chance(0.05)) {
      const drops = rng.int(1, 3);
      for (let k = 0; k < drops; k++) rng.pick(OPTIONAL_DROPS)(d);
    }
    if (options.realShapes) toRealShape(d, i);
    deployments.push(d);
  }
  return { integrations, deployments };
}

/**
 * A record as the real service sends it, by its place `i` in the listing (so the first page has one of each): the
 * type in `source_config.deployment_type`, never at the top level (every 8th a `dev_zero`, every 40th a
 * `dev_free_zero`); every 12th built from an image (`source: "external_docker"`, `repo_url` and `integration_id`
 * null, `source_revision_config` with `image_uri` alone); every 15th `AWAITING_FINAL_DELETE`. The rest keep
 * `source: "github"`. Draws nothing: the contract-only records stay as they are.
 */
function toRealShape(d: Deployment, i: number): void {
  let type = d.deployment_type;
  delete d.deployment_type;
  if (i % 8 === 1) type = 'dev_zero';
  else if (i % 40 === 13) type = 'dev_free_zero';
  d.source_config ??= {};
  if (type !== undefined) d.source_config.deployment_type = type;
  if (i % 12 === 2) {
    d.source = 'external_docker';
    d.source_config.integration_id = null;
    d.source_config.repo_url = null;
    d.source_config.build_on_push = null;
    delete d.source_config.install_command;
    delete d.source_config.build_command;
    d.source_revision_config = { image_uri: `docker.io/acme/${d.name}:${d.image_version ?? 'latest'}`, repo_commit_sha: null };
  }
  if (i % 15 === 6) d.status = 'AWAITING_FINAL_DELETE';
}

function buildSecrets(rng: Rng): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  if (rng.chance(0.7)) out.push({ name: 'OPENAI_API_KEY', value: `sk-live-${rng.hex(32)}` });
  if (rng.chance(0.4)) out.push({ name: 'DATABASE_PASSWORD', value: `pw-${rng.hex(20)}` });
  if (rng.chance(0.2)) out.push({ name: 'WEBHOOK_SIGNING_SECRET', value: `whsec_${rng.hex(24)}` });
  return out;
}
