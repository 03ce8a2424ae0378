// Records as the real service sends them (the type in source_config, `source`, records built from an image, nulls)
// beside records as a contract-only server sends them: one reading of the type everywhere a type is shown or
// counted, and image-sourced records shown with what they have and never attributed to a repository.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Deployment } from '../../src/api';
import { ControlPlaneClient } from '../../src/api/client';
import { DetailNode, deploymentDetails } from '../../src/model/deploymentDetails';
import { DeploymentIndex, usageWords } from '../../src/model/deploymentIndex';
import { deploymentContextValue, statusIcon, tooltipFields } from '../../src/model/deploymentPresentation';
import { statusWords } from '../../src/model/deploymentStatus';
import { deploymentType } from '../../src/model/deploymentType';
import { integrationsUsedBy } from '../../src/model/integrationDiscovery';
import { DEPLOYMENT_TYPES, StandIn, sampleData } from '../server/standIn';

const INTEGRATION = 'a1c3e5f7-2b4d-4e6f-8a0b-1c2d3e4f5a01';
const REPO = 'https://github.com/acme/shop';
const id = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** As the real service sends it: the type in source_config, `source`, no top-level type. */
function realRecord(n: number, type: string | undefined, repo = REPO): Deployment {
  return {
    id: id(n),
    name: `shop-${n}`,
    status: 'READY',
    source: 'github',
    source_config: { integration_id: INTEGRATION, repo_url: repo, deployment_type: type },
    source_revision_config: { repo_ref: 'main', repo_commit_sha: 'abc123', image_uri: null, source_tarball_path: null },
  } as Deployment;
}

/** As a contract-only server sends it: the type at the top level. */
function contractRecord(n: number, type: string | undefined, repo = REPO): Deployment {
  return {
    id: id(n),
    name: `shop-${n}`,
    status: 'READY',
    deployment_type: type,
    source_config: { integration_id: INTEGRATION, repo_url: repo },
    source_revision_config: { repo_ref: 'main' },
  } as Deployment;
}

/** Built from an image: no repository, no integration, no ref. */
const imageRecord = {
  id: id(99),
  name: 'agent-from-image',
  status: 'AWAITING_FINAL_DELETE',
  source: 'external_docker',
  source_config: { integration_id: null, repo_url: null, build_on_push: null, deployment_type: 'dev_zero' },
  source_revision_config: { image_uri: 'docker.io/acme/agent:1.4.2', repo_commit_sha: null },
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

/** Every node whose label is `label`, at any depth. */
function everywhere(nodes: DetailNode[], label: string): DetailNode[] {
  return nodes.flatMap((node) => [...(node.label === label ? [node] : []), ...everywhere(node.children ?? [], label)]);
}

const tooltip = (record: Deployment) => Object.fromEntries(tooltipFields(record, 'en-US'));

describe('a deployment’s type, read in one place', () => {
  it('is source_config.deployment_type, else the top-level deployment_type; any text, as it came', () => {
    assert.equal(deploymentType(realRecord(1, 'prod')), 'prod');
    assert.equal(deploymentType(contractRecord(1, 'dev')), 'dev');
    assert.equal(deploymentType(realRecord(1, 'dev_zero')), 'dev_zero');
    assert.equal(deploymentType(realRecord(1, 'dev_free_zero')), 'dev_free_zero');
    assert.equal(deploymentType({ ...contractRecord(1, 'prod'), source_config: { deployment_type: 'dev' } } as Deployment), 'dev', 'source_config first');
    assert.equal(deploymentType({ ...realRecord(1, null as never), deployment_type: 'prod' } as Deployment), 'prod', 'null there: the top level');
    assert.equal(deploymentType({ ...realRecord(1, '  '), deployment_type: 'prod' } as Deployment), 'prod', 'blank there: the top level');
    assert.equal(deploymentType(realRecord(1, undefined)), undefined);
    assert.equal(deploymentType({ source_config: null } as Deployment), undefined);
    // A record off the contract, as the server sent it.
    assert.equal(deploymentType({ source_config: 'github', deployment_type: 'prod' } as unknown as Deployment), 'prod');
    assert.equal(deploymentType({ source_config: { deployment_type: 3 } } as unknown as Deployment), undefined);
  });

  it('is the Type of a row’s tooltip, for both shapes', () => {
    assert.equal(tooltip(realRecord(1, 'prod')).Type, 'prod');
    assert.equal(tooltip(realRecord(1, 'dev_zero')).Type, 'dev_zero');
    assert.equal(tooltip(contractRecord(1, 'dev')).Type, 'dev');
    assert.equal(tooltip(realRecord(1, undefined)).Type, undefined);
  });

  it('is shown once in the details, in General, wherever the record keeps it, and source_config does not repeat it', () => {
    for (const record of [realRecord(1, 'dev_zero'), contractRecord(1, 'dev_zero'), { ...realRecord(1, 'dev_zero'), deployment_type: 'dev_zero' } as Deployment]) {
      const details = deploymentDetails(record, 'en-US');
      assert.equal(find(details, 'General', 'Deployment type')?.value, 'dev_zero');
      assert.equal(everywhere(details, 'Deployment type').length + everywhere(details, 'deployment_type').length, 1, JSON.stringify(details));
    }
    const details = deploymentDetails(realRecord(1, 'prod'), 'en-US');
    assert.equal(find(details, 'Source', 'Repository URL')?.value, REPO);
  });

  it('counts a repository’s deployments by it (“deployed: prod, 2 dev, dev_zero”), whichever shape each record has', () => {
    const index = new DeploymentIndex();
    index.startScan(true);
    index.update([realRecord(1, 'prod'), realRecord(2, 'dev'), contractRecord(3, 'dev'), realRecord(4, 'dev_zero'), contractRecord(5, undefined)]);
    index.endScan('complete');
    assert.equal(usageWords(index.usage(REPO)!), 'prod, 2 dev, dev_zero, 1 without a type');
  });
});

describe('a deployment’s source, and records not built from a repository', () => {
  it('details show the source in General, and an image-sourced record’s image under Revision; nothing for the missing repository', () => {
    assert.equal(find(deploymentDetails(realRecord(1, 'prod'), 'en-US'), 'General', 'Source')?.value, 'github');
    const details = deploymentDetails(imageRecord, 'en-US');
    assert.equal(find(details, 'General', 'Source')?.value, 'external_docker');
    assert.equal(find(details, 'Other fields', 'source'), undefined, 'not among the fields nobody names');
    assert.equal(find(details, 'General', 'Deployment type')?.value, 'dev_zero');
    assert.equal(find(details, 'General', 'Status')?.value, 'Awaiting final deletion (AWAITING_FINAL_DELETE)');
    assert.equal(find(details, 'Revision', 'Image URI')?.value, 'docker.io/acme/agent:1.4.2');
    assert.equal(find(details, 'Source', 'Repository URL'), undefined);
    assert.equal(find(details, 'Source', 'Integration'), undefined);
    assert.equal(find(details, 'Revision', 'Ref'), undefined);
  });

  it('a row’s tooltip names its image (or its source tarball) when it has no repository; a repository’s row keeps its repository', () => {
    const fields = tooltip(imageRecord);
    assert.equal(fields.Image, 'docker.io/acme/agent:1.4.2');
    assert.equal(fields.Repository, undefined);
    assert.equal(fields.Type, 'dev_zero');
    assert.equal(fields.Status, 'Awaiting final deletion (AWAITING_FINAL_DELETE)');
    const tarball = { ...imageRecord, source_revision_config: { source_tarball_path: 'gs://sources/agent.tar.gz' } } as Deployment;
    assert.equal(tooltip(tarball)['Source tarball'], 'gs://sources/agent.tar.gz');
    const fromRepository = { ...realRecord(1, 'prod'), source_revision_config: { repo_ref: 'main', image_uri: 'registry.example.test/shop:abc' } } as Deployment;
    assert.equal(tooltip(fromRepository).Repository, REPO);
    assert.equal(tooltip(fromRepository).Image, undefined, 'the image a repository was built into is in the details');
    assert.equal(statusIcon('AWAITING_FINAL_DELETE').id, 'trash');
    assert.equal(statusWords('AWAITING_FINAL_DELETE'), 'Awaiting final deletion');
  });

  it('offers no repository actions, is attributed to no repository and adds no integration', () => {
    assert.doesNotMatch(deploymentContextValue(imageRecord), /\brepo\b|\bintegration\b/);
    const index = new DeploymentIndex();
    index.startScan(true);
    index.update([imageRecord, realRecord(1, 'prod')]);
    index.endScan('complete');
    assert.equal(usageWords(index.usage(REPO)!), 'prod');
    assert.deepEqual(index.ofRemotes([{ name: 'origin', url: REPO }]).deployments.map((entry) => entry.id), [id(1)]);
    assert.deepEqual(integrationsUsedBy([imageRecord, realRecord(1, 'prod')]), { integrationIds: [INTEGRATION], codeHosts: { [INTEGRATION]: 'github.com' } });
    assert.deepEqual(integrationsUsedBy([imageRecord]), { integrationIds: [], codeHosts: {} });
  });
});

describe('the stand-in’s real shapes (--real-shapes)', () => {
  let standIn: StandIn;
  let client: ControlPlaneClient;
  before(async () => {
    standIn = await StandIn.start({ realShapes: true, deploymentCount: 300 });
    client = new ControlPlaneClient({ baseUrl: standIn.url, apiKey: standIn.apiKey ?? undefined });
  });
  after(async () => {
    await client.dispose();
    await standIn.close();
  });

  it('keeps the type in source_config (dev_zero among them), carries source, has image-sourced and AWAITING_FINAL_DELETE records, all in the first page', () => {
    const records = standIn.deployments;
    assert.ok(records.every((record) => !('deployment_type' in record)), 'no top-level type');
    const first = records.slice(0, 20);
    assert.ok(first.some((record) => record.source_config?.deployment_type === 'dev_zero'));
    assert.ok(first.some((record) => record.status === 'AWAITING_FINAL_DELETE'));
    const images = records.filter((record) => record.source === 'external_docker');
    assert.ok(first.some((record) => images.includes(record)));
    for (const image of images) {
      assert.equal(image.source_config?.repo_url, null);
      assert.equal(image.source_config?.integration_id, null);
      assert.match(String(image.source_revision_config?.image_uri), /^docker\.io\//);
      assert.equal(image.source_revision_config?.repo_ref, undefined);
    }
    assert.ok(records.filter((record) => !images.includes(record)).every((record) => record.source === 'github'));
    // The same records as without real shapes, which stay as they were.
    const contract = sampleData(1, 300).deployments;
    assert.ok(contract.every((record) => record.source === 'github' && record.source_config?.deployment_type === undefined));
    assert.deepEqual(
      records.map((record) => record.id),
      contract.map((record) => record.id),
    );
  });

  it('is read by the client without a record off the contract (nulls included), and filters by the type in source_config', async () => {
    let [records, invalid] = [0, 0];
    for await (const page of client.deploymentPages({ limit: 100 })) {
      records += page.deployments.length;
      invalid += page.offContract.length;
    }
    assert.equal(records, standIn.deployments.length);
    assert.equal(invalid, 0);
    for (const type of DEPLOYMENT_TYPES) {
      const { deployments } = await client.listDeployments({ deploymentType: type, limit: 100 });
      const expected = standIn.deployments.filter((record) => record.source_config?.deployment_type === type).slice(0, 100);
      assert.ok(expected.length > 0, type);
      assert.deepEqual(
        deployments.map((record) => record.id),
        expected.map((record) => record.id),
        type,
      );
    }
  });
});
