// The payload editor's JSON schema is generated from the client's zod schemas: it must accept
// every record the stand-in serves (as a body a user could copy) and refuse wrong types.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import { payloadJsonSchema } from '../../src/model/payloadSchema';
import { sampleData } from '../server/sampleData';

const validate = new Ajv({ strict: false, allErrors: true }).compile(payloadJsonSchema());

describe('payload JSON schema', () => {
  it('accepts every sample deployment record', () => {
    const { deployments } = sampleData(1, 300);
    assert.equal(deployments.length, 300);
    for (const deployment of deployments) assert.ok(validate(deployment), JSON.stringify(validate.errors));
  });

  it('accepts fields the contract does not show, and upper-case UUIDs', () => {
    const body = {
      name: 'storefront',
      source: 'github',
      secrets: [],
      source_config: { integration_id: '3F2A9C1E-4B5D-4E6F-8A0B-1C2D3E4F5A6B', repo_url: 'https://github.com/acme/storefront', extra: { a: 1 } },
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
      deployment_type: 'dev',
    };
    assert.ok(validate(body), JSON.stringify(validate.errors));
  });

  it('refuses a wrong type and names where', () => {
    assert.equal(validate({ name: 'x', source_config: { build_on_push: 'yes' } }), false);
    assert.ok(validate.errors?.some((error) => error.instancePath === '/source_config/build_on_push'), JSON.stringify(validate.errors));
    assert.equal(validate({ name: 'x', source_config: { deployment_type: 3 } }), false);
    assert.equal(validate({ name: 'x', source_config: { resource_spec: { min_scale: 1.5 } } }), false);
  });

  it('offers only what a creation body carries, not the fields the control plane sets', () => {
    const offered = Object.keys(payloadJsonSchema().properties as Record<string, unknown>);
    for (const field of ['name', 'source', 'source_config', 'source_revision_config', 'secrets', 'secret_references', 'image_version']) {
      assert.ok(offered.includes(field), `${field} is offered: ${offered.join(', ')}`);
    }
    for (const field of ['id', 'tenant_id', 'created_at', 'updated_at', 'latest_revision_id', 'active_revision_id', 'status']) {
      assert.ok(!offered.includes(field), `${field} is set by the control plane, not offered: ${offered.join(', ')}`);
    }
  });

  it('offers the type inside source_config, where the real service reads it: the known values, and any other string', () => {
    const properties = payloadJsonSchema().properties as Record<string, { anyOf?: Array<Record<string, unknown>> }>;
    const sourceConfig = properties.source_config.anyOf?.find((branch) => branch.type === 'object') as { properties: Record<string, { anyOf: Array<{ enum?: string[] }> }> };
    const offered = sourceConfig.properties.deployment_type.anyOf.flatMap((branch) => branch.enum ?? []);
    assert.deepEqual(offered, ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero']);
    assert.equal('deployment_type' in properties, false, 'not offered at the top level, where the real service ignores it');
    for (const type of ['dev', 'dev_zero', 'some_future_type']) assert.ok(validate({ name: 'x', source_config: { deployment_type: type } }), `${type}: ${JSON.stringify(validate.errors)}`);
    assert.ok(validate({ name: 'x', deployment_type: 'dev' }), 'a top-level type (a contract-only server) is still accepted');
    assert.ok(validate({ name: 'x', source: 'github' }));
  });

  it('describes the body for hovers', () => {
    const schema = payloadJsonSchema();
    assert.equal(schema.title, 'Deployment creation body');
    assert.ok((schema.properties as Record<string, unknown>).source_revision_config);
  });
});
