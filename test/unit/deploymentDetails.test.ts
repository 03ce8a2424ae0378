import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Deployment } from '../../src/api';
import { DetailNode, deploymentDetails, MASK, maskSecrets } from '../../src/model/deploymentDetails';

const NOT_IN_RECORD = 'not in this record';
import {
  accessibleLabel,
  deploymentContextValue,
  deploymentDescription,
  deploymentLabel,
  repositoryWebUrl,
  statusIcon,
  tooltipFields,
} from '../../src/model/deploymentPresentation';

const full: Deployment = {
  name: 'billing-prod',
  id: '3f2a9c1e-1111-4222-8333-444455556666',
  tenant_id: '7e1d2c3b-4a59-4687-9a1b-0c2d3e4f5a6b',
  status: 'READY',
  image_version: '0.3.2',
  created_at: '2025-05-01T10:00:00Z',
  updated_at: 'not a date',
  latest_revision_id: '11111111-1111-4111-8111-111111111111',
  active_revision_id: '11111111-1111-4111-8111-111111111111',
  source_config: {
    integration_id: 'a1c3e5f7-2b4d-4e6f-8a0b-1c2d3e4f5a01',
    repo_url: 'https://github.com/acme/billing',
    build_on_push: true,
    custom_url: 'https://billing.example.test',
    install_command: 'npm ci',
    build_command: '',
    listener_id: '22222222-2222-4222-8222-222222222222',
    listener_config: { k8s_namespace: 'apps' },
    resource_spec: {
      min_scale: 1,
      max_scale: 3,
      cpu: 0.5,
      memory_mb: 512,
      db_storage_gi: 10,
      labels: { app: 'billing' },
      volumes: [{ name: 'config', configMap: { name: 'billing-config', defaultMode: 420 } }],
      volume_mounts: [{ name: 'config', mountPath: '/etc/app', readOnly: true }],
      init_containers: [
        {
          name: 'migrate',
          image: 'migrate:1.0',
          command: ['sh', '-c'],
          env: [{ name: 'DB', valueFrom: { secretKeyRef: { name: 'db', key: 'url' } } }],
          resources: { limits: { cpu: '500m' } },
        },
      ],
      sidecars: [],
    },
  },
  source_revision_config: { repo_ref: 'main', repo_commit_sha: 'abc123' },
  secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-live-supersecret' }],
  secret_references: [{ name: 'STRIPE', secret_name: 'billing-external', secret_key: 'stripe' }],
  deployment_type: 'prod',
  tag_value_ids: ['t1'],
} as Deployment;

function find(nodes: DetailNode[] | undefined, ...path: string[]): DetailNode | undefined {
  let node: DetailNode | undefined;
  let level = nodes;
  for (const label of path) {
    node = level?.find((n) => n.label === label);
    level = node?.children;
  }
  return node;
}

function allText(nodes: DetailNode[]): string {
  return nodes.map((n) => `${n.label}=${n.value ?? ''}(${allText(n.children ?? [])})`).join(';');
}

describe('deployment details', () => {
  const details = deploymentDetails(full, 'en-US');

  it('groups every field of the record', () => {
    assert.deepEqual(details.map((g) => g.label), [
      'General', 'Source', 'Resources', 'Revision', 'Secrets', 'Secret references', 'Identifiers & timestamps',
    ]);
    assert.equal(find(details, 'Source', 'Build on push')?.value, 'yes');
    assert.equal(find(details, 'Source', 'Build command')?.value, '(empty)');
    assert.equal(find(details, 'Source', 'Listener config', 'Kubernetes namespace')?.value, 'apps');
    assert.equal(find(details, 'Revision', 'Commit SHA')?.value, 'abc123');
    assert.equal(find(details, 'Identifiers & timestamps', 'Updated')?.value, 'not a date');
    assert.match(find(details, 'Identifiers & timestamps', 'Created')?.value ?? '', /2025/);
    assert.equal(find(details, 'General', 'Deployment type')?.value, 'prod');
    assert.match(find(details, 'General', 'Tag value IDs')?.value ?? '', /^t1\b/);
    assert.equal(find(details, 'Other fields'), undefined, 'known fields are in their group');
    const withUnknown = deploymentDetails({ ...full, region_hint: 'eu-west' } as Deployment);
    assert.equal(find(withUnknown, 'Other fields', 'region_hint')?.value, 'eu-west', 'fields nobody names are kept');
    assert.equal(details[0].expanded, true, 'the first group opens by itself');
    assert.equal(details.filter((group) => group.expanded).length, 1);
  });

  it('says a status in words with the raw value beside it', () => {
    assert.equal(find(deploymentDetails({ status: 'AWAITING_DATABASE' }), 'General', 'Status')?.value, 'Awaiting database (AWAITING_DATABASE)');
    assert.equal(find(deploymentDetails({ status: 'Ready' }), 'General', 'Status')?.value, 'Ready');
  });

  it('shows nested resource values per component, pod metadata, volumes, mounts and containers', () => {
    assert.equal(find(details, 'Resources', 'Main')?.value, 'scale 1–3, 0.5 CPU, 512 MB');
    assert.equal(find(details, 'Resources', 'Main', 'Memory')?.value, '512 MB');
    assert.equal(find(details, 'Resources', 'Database', 'Storage')?.value, '10 Gi');
    assert.equal(find(details, 'Resources', 'Queue'), undefined);
    assert.equal(find(details, 'Resources', 'Pod metadata', 'Labels', 'app')?.value, 'billing');
    assert.equal(find(details, 'Resources', 'Volumes', 'config')?.value, 'configMap');
    assert.equal(find(details, 'Resources', 'Volumes', 'config', 'configMap', 'defaultMode')?.value, '420');
    assert.equal(find(details, 'Resources', 'Volume mounts', 'config', 'Read only')?.value, 'yes');
    assert.equal(find(details, 'Resources', 'Init containers', 'migrate', 'Command')?.value, 'sh -c');
    assert.equal(find(details, 'Resources', 'Init containers', 'migrate', 'Environment', 'DB')?.value, 'from secretKeyRef');
    assert.equal(find(details, 'Resources', 'Init containers', 'migrate', 'Resources', 'Limits', 'cpu')?.value, '500m');
    assert.equal(find(details, 'Resources', 'Sidecars')?.value, 'none');
  });

  it('names where a resource_spec departs from the contract and still shows the rest', () => {
    const odd = structuredClone(full) as Deployment;
    const spec = odd.source_config!.resource_spec as Record<string, unknown>;
    spec.memory_mb = 'lots';
    const nodes = deploymentDetails(odd);
    const mismatch = find(nodes, 'Resources', 'Does not match the API contract');
    assert.equal(mismatch?.value, 'Source › Resources › Memory: expected a whole number, got a string');
    assert.deepEqual(mismatch?.children?.map((child) => [child.label, child.value]), [
      ['Source › Resources › Memory', 'expected a whole number, got a string (source_config.resource_spec.memory_mb)'],
    ]);
    assert.equal(find(nodes, 'Resources', 'Main', 'CPU')?.value, '0.5');
    assert.equal(find(details, 'Resources', 'Does not match the API contract'), undefined);
  });

  it('lists secrets by name with the value masked', () => {
    assert.equal(find(details, 'Secrets', 'OPENAI_API_KEY')?.value, MASK);
    assert.equal(find(details, 'Secret references', 'STRIPE')?.value, 'billing-external / stripe');
    assert.doesNotMatch(allText(details), /supersecret/);
  });

  it('says a secret without a value (null, or left out, as a server may list them) has none, not a mask over nothing', () => {
    const listed = deploymentDetails({ id: 'x', secrets: [{ name: 'DB_URL', value: null }, { name: 'TOKEN' }, { name: 'KEY', value: 'hunter2' }] });
    assert.deepEqual(
      listed.find((node) => node.label === 'Secrets')?.children?.map((child) => [child.label, child.value]),
      [
        ['DB_URL', NOT_IN_RECORD],
        ['TOKEN', NOT_IN_RECORD],
        ['KEY', MASK],
      ],
    );
  });

  it('treats missing sections one way: they show and say so; missing single values are left out', () => {
    const bare = deploymentDetails({ id: full.id });
    assert.deepEqual(
      bare.map((g) => [g.label, g.value]),
      [
        ['Source', NOT_IN_RECORD],
        ['Revision', NOT_IN_RECORD],
        ['Secrets', NOT_IN_RECORD],
        ['Secret references', NOT_IN_RECORD],
        ['Identifiers & timestamps', undefined],
      ],
    );
    const nulls = deploymentDetails({ name: 'x', source_config: null, secrets: null, secret_references: [] } as Deployment);
    assert.deepEqual(
      nulls.map((g) => [g.label, g.value]),
      [
        ['General', undefined],
        ['Source', NOT_IN_RECORD],
        ['Revision', NOT_IN_RECORD],
        ['Secrets', NOT_IN_RECORD],
        ['Secret references', 'none'],
      ],
    );
  });

  it('masks secret values in the JSON and keeps unknown fields', () => {
    const masked = maskSecrets(full);
    const text = JSON.stringify(masked);
    assert.doesNotMatch(text, /supersecret/);
    assert.deepEqual(masked.secrets, [{ name: 'OPENAI_API_KEY', value: MASK }]);
    assert.equal(masked.deployment_type, 'prod');
    assert.equal((full.secrets as Array<{ value: string }>)[0].value, 'sk-live-supersecret', 'the record itself is unchanged');
  });

  it('masks secret values off the contract too: a map, strings, nested values; names stay', () => {
    const shapes: Array<[unknown, unknown]> = [
      [{ DB_PASSWORD: 'hunter2', NESTED: { inner: ['hunter2'] } }, { DB_PASSWORD: MASK, NESTED: { inner: [MASK] } }],
      [['hunter2', null], [MASK, null]],
      [[{ name: 'TOKEN', value: { raw: 'hunter2' }, extra: 'hunter2' }], [{ name: 'TOKEN', value: { raw: MASK }, extra: MASK }]],
      [[{ name: 42, secret: 'hunter2' }], [{ name: MASK, secret: MASK }]],
      ['hunter2', MASK],
    ];
    for (const [secrets, expected] of shapes) {
      const record = { ...full, secrets } as unknown as Deployment;
      assert.deepEqual(maskSecrets(record).secrets, expected, JSON.stringify(secrets));
      const shown = JSON.stringify(deploymentDetails(record, 'en-US'));
      assert.doesNotMatch(shown, /hunter2/, `details of ${JSON.stringify(secrets)}: ${shown}`);
    }
  });
});

describe('deployment row presentation', () => {
  it('labels, describes and tokens the row from the fields it has', () => {
    assert.equal(deploymentLabel(full), 'billing-prod');
    assert.equal(deploymentLabel({ id: full.id }), '3f2a9c1e…');
    assert.equal(deploymentDescription(full), 'Ready · 0.3.2');
    assert.equal(deploymentDescription({ image_version: '0.3.0' }), '0.3.0');
    assert.equal(deploymentDescription({ status: 'AWAITING_DATABASE', image_version: '0.3.2' }), 'Awaiting database · 0.3.2');
    assert.equal(deploymentDescription({ status: 'DEGRADED' }), 'Degraded');
    assert.equal(deploymentDescription({ status: '  ', image_version: '0.3.0' }), '0.3.0');
    assert.equal(deploymentContextValue(full), 'deployment id status image customUrl repo integration');
    // Reveal Repository needs the integration too: without it the row offers only Open Repository.
    const withoutIntegration = { ...full, source_config: { ...full.source_config, integration_id: null } } as unknown as Deployment;
    assert.equal(deploymentContextValue(withoutIntegration), 'deployment id status image customUrl repo');
    assert.equal(deploymentContextValue({ name: 'x' }), 'deployment');
    assert.match(deploymentContextValue(full), /^deployment\b.*\bstatus\b/);
  });

  it('maps statuses to icons, tolerating unknown ones', () => {
    assert.deepEqual(statusIcon('READY'), { id: 'pass-filled', color: 'testing.iconPassed' });
    assert.equal(statusIcon('AWAITING_DATABASE').id, 'clock');
    assert.equal(statusIcon('AWAITING_BUILD').id, 'sync');
    assert.equal(statusIcon('AWAITING_DELETE').id, 'trash');
    assert.equal(statusIcon('UNUSED').id, 'circle-slash');
    assert.equal(statusIcon('UNKNOWN').id, 'question');
    assert.equal(statusIcon('unknown').id, 'question');
    assert.equal(statusIcon(undefined).id, 'question');
    assert.equal(statusIcon('DEGRADED').id, 'warning');
  });

  it('never gives a status the extension does not know UNKNOWN’s question mark', () => {
    for (const status of ['DEGRADED', 'BUILD_FAILED', 'AWAITING_BUILD', 'SCALING_UP', 'paused', 'Migrating-Data']) {
      assert.notEqual(statusIcon(status).id, 'question', status);
    }
    assert.deepEqual(statusIcon('SCALING_UP'), { id: 'circle-large-outline' });
    assert.equal(statusIcon('paused').id, statusIcon('SCALING_UP').id, 'one icon for every status it cannot place');
  });

  it('says the status in words to screen readers, and with its raw value in the tooltip', () => {
    assert.equal(accessibleLabel(full), 'Deployment billing-prod, status Ready, image version 0.3.2');
    assert.equal(accessibleLabel({ name: 'x', status: 'AWAITING_DELETE' }), 'Deployment x, status Awaiting deletion');
    const status = (deployment: Deployment) => tooltipFields(deployment, 'en-US').find(([label]) => label === 'Status')?.[1];
    assert.equal(status(full), 'Ready (READY)');
    assert.equal(status({ status: 'AWAITING_DATABASE' }), 'Awaiting database (AWAITING_DATABASE)');
    assert.equal(status({ status: 'DEGRADED' }), 'Degraded (DEGRADED), a status this extension does not know');
    assert.equal(status({}), undefined);
  });

  it('opens the repository at its ref on GitHub/GitLab-like hosts', () => {
    assert.equal(repositoryWebUrl(full), 'https://github.com/acme/billing/tree/abc123', 'the deployed commit first');
    const onlyRef = { ...full, source_revision_config: { repo_ref: 'main' } };
    assert.equal(repositoryWebUrl(onlyRef), 'https://github.com/acme/billing/tree/main');
    const feature = { ...full, source_config: { repo_url: 'https://gitlab.com/g/p.git' }, source_revision_config: { repo_ref: 'feature/x y' } };
    assert.equal(repositoryWebUrl(feature), 'https://gitlab.com/g/p/tree/feature/x%20y');
    const other = { ...full, source_config: { repo_url: 'https://bitbucket.org/a/b' } };
    assert.equal(repositoryWebUrl(other), 'https://bitbucket.org/a/b');
    const ssh = { source_config: { repo_url: 'git@github.com:a/b.git' }, source_revision_config: { repo_ref: 'main' } };
    assert.equal(repositoryWebUrl(ssh), 'https://github.com/a/b/tree/main');
    assert.equal(repositoryWebUrl({ source_config: { repo_url: 'not a url' } }), undefined);
  });

  it('puts ID, type, repository, ref and local times in the tooltip', () => {
    const labels = tooltipFields(full, 'en-US').map(([label]) => label);
    assert.deepEqual(labels, ['ID', 'Status', 'Type', 'Image version', 'Repository', 'Ref', 'Created', 'Updated']);
  });
});
