import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildCreateBody,
  DraftStore,
  flattenBody,
  nameChangeNote,
  normaliseDeploymentName,
  validateDeploymentName,
  validateRef,
} from '../../src/model/createPayload';

const repository = {
  host_integration_id: 'a1c3e5f7-2b4d-4e6f-8a0b-1c2d3e4f5a01',
  id: 512340017,
  name: 'Payments_API',
  owner: 'acme',
  url: 'https://github.com/acme/Payments_API',
  default_branch: 'develop',
};

describe('normaliseDeploymentName', () => {
  const cases: Array<[string, string]> = [
    ['storefront', 'storefront'],
    ['Payments_API', 'payments-api'],
    ['docs.acme.dev', 'docs-acme-dev'],
    ['  My  App!! ', 'my-app'],
    ['--Edge--case--', 'edge-case'],
    ['Ünïcode_Repo', 'unicode-repo'],
    ['日本', ''],
    ['___', ''],
    ['a'.repeat(70), 'a'.repeat(63)],
    [`${'a'.repeat(62)}_b`, 'a'.repeat(62)],
    ['svc-ñandú-日本', 'svc-nandu'],
    ['Straße_Øresund', 'strasse-oresund'],
    ['svc日本api', 'svc-api'],
  ];
  for (const [raw, expected] of cases) {
    it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(normaliseDeploymentName(raw), expected);
      if (expected) assert.equal(validateDeploymentName(expected), undefined);
    });
  }
});

describe('nameChangeNote', () => {
  it('says which characters were spelled differently and which were left out', () => {
    assert.equal(nameChangeNote('svc-ñandú-日本'), 'ñ → n, ú → u; 日, 本 left out (no Latin spelling)');
    assert.equal(nameChangeNote('Straße'), 'ß → ss');
    assert.equal(nameChangeNote('a'.repeat(70)), 'cut to 63 characters');
  });

  it('says nothing when only case and separators changed', () => {
    assert.equal(nameChangeNote('Payments_API'), undefined);
    assert.equal(nameChangeNote('docs.acme.dev'), undefined);
  });
});

describe('validateDeploymentName', () => {
  it('accepts safe names', () => {
    for (const name of ['a', 'storefront', 'payments-api-2', '0day', 'a'.repeat(63)]) assert.equal(validateDeploymentName(name), undefined, name);
  });
  it('names what is wrong', () => {
    assert.match(validateDeploymentName('')!, /Enter a name/);
    assert.match(validateDeploymentName('My_App')!, /lowercase letters, digits and “-” \(found “M”, “_”, “A”\)\. Suggestion: my-app/);
    assert.match(validateDeploymentName('my app')!, /found space/);
    assert.match(validateDeploymentName('-app')!, /start and end with a letter or digit/);
    assert.match(validateDeploymentName('app-')!, /start and end/);
    assert.match(validateDeploymentName('a'.repeat(64))!, /64 characters long; at most 63/);
  });
});

describe('validateRef', () => {
  it('accepts branches, tags and full refs', () => {
    for (const ref of ['main', 'feature/x', 'refs/tags/v1.0.0', 'refs/heads/main', 'v1']) assert.equal(validateRef(ref), undefined, ref);
  });
  it('refuses empty refs and spaces', () => {
    assert.match(validateRef('')!, /Enter a branch/);
    assert.match(validateRef('  ')!, /Enter a branch/);
    assert.match(validateRef('my branch')!, /spaces/);
  });
});

describe('buildCreateBody', () => {
  it('copies the record fields where the contract says', () => {
    const body = buildCreateBody(repository, new DraftStore().get(repository));
    assert.deepEqual(body, {
      // What the real service requires of a create from a repository, besides the contract's three fields.
      source: 'github',
      secrets: [],
      name: 'payments-api',
      source_config: { integration_id: repository.host_integration_id, repo_url: repository.url },
      source_revision_config: { repo_ref: 'develop' },
    });
  });

  it('sends a changed ref, and a chosen type in source_config, where the real service reads it', () => {
    const body = buildCreateBody(repository, { name: 'pay', ref: 'refs/tags/v1', deploymentType: 'prod' });
    assert.equal((body.source_revision_config as Record<string, unknown>).repo_ref, 'refs/tags/v1');
    assert.equal((body.source_config as Record<string, unknown>).deployment_type, 'prod');
    assert.equal('deployment_type' in body, false, 'not at the top level, where the real service ignores it (and creates prod)');
    assert.equal(body.name, 'pay');
  });

  it('lets the defaults setting change or leave out source and secrets (null leaves one out)', () => {
    const body = buildCreateBody(repository, { name: 'pay', ref: 'main' }, { source: 'external_docker', secrets: null });
    assert.equal(body.source, 'external_docker');
    assert.equal('secrets' in body, false);
    const withSecrets = buildCreateBody(repository, { name: 'pay', ref: 'main' }, { secrets: [{ name: 'A', value: 'b' }] });
    assert.deepEqual(withSecrets.secrets, [{ name: 'A', value: 'b' }]);
  });

  it('moves a type of 0.x defaults (top level) into source_config', () => {
    const body = buildCreateBody(repository, { name: 'pay', ref: 'main' }, { deployment_type: 'dev_zero' });
    assert.equal('deployment_type' in body, false);
    assert.equal((body.source_config as Record<string, unknown>).deployment_type, 'dev_zero', 'a value the extension does not know is kept');
    const inSource = buildCreateBody(repository, { name: 'pay', ref: 'main' }, { source_config: { deployment_type: 'dev' }, deployment_type: 'prod' });
    assert.equal((inSource.source_config as Record<string, unknown>).deployment_type, 'dev', 'source_config wins over the top level');
  });

  it('applies the changes a refusal asked for over everything else, and keeps the pre-filled values', () => {
    const body = buildCreateBody(
      repository,
      {
        name: 'pay',
        ref: 'main',
        deploymentType: 'dev',
        changes: { added: { secrets: { value: [] }, 'source_revision_config.graph_config_path': { value: 'agent.json', needsValue: true } }, removed: ['source'] },
      },
      { secrets: null },
    );
    assert.deepEqual(body, {
      secrets: [],
      name: 'pay',
      source_config: { integration_id: repository.host_integration_id, repo_url: repository.url, deployment_type: 'dev' },
      source_revision_config: { graph_config_path: 'agent.json', repo_ref: 'main' },
    });
  });

  it('merges the defaults under the pre-filled values, deeply, without changing them', () => {
    const defaults = {
      source: 'github',
      secrets: [],
      name: 'ignored-default-name',
      deployment_type: 'dev',
      source_config: { repo_url: 'https://example.invalid/overridden', build_on_push: true, resource_spec: { cpu: 1 } },
      source_revision_config: { graph_config_path: 'langgraph.json' },
    };
    const before = structuredClone(defaults);
    const body = buildCreateBody(repository, { name: 'pay', ref: 'main' }, defaults);
    assert.deepEqual(body, {
      source: 'github',
      secrets: [],
      name: 'pay',
      source_config: {
        repo_url: repository.url,
        build_on_push: true,
        resource_spec: { cpu: 1 },
        integration_id: repository.host_integration_id,
        deployment_type: 'dev',
      },
      source_revision_config: { graph_config_path: 'langgraph.json', repo_ref: 'main' },
    });
    assert.deepEqual(defaults, before, 'the setting object must not be changed');
    (body.secrets as unknown[]).push('x');
    assert.deepEqual(defaults.secrets, [], 'the body must not share arrays with the setting');
  });

  it('lets a chosen type override the default one', () => {
    const body = buildCreateBody(repository, { name: 'pay', ref: 'main', deploymentType: 'dev_free' }, { source_config: { deployment_type: 'prod' } });
    assert.equal((body.source_config as Record<string, unknown>).deployment_type, 'dev_free');
    const old = buildCreateBody(repository, { name: 'pay', ref: 'main', deploymentType: 'dev_free' }, { deployment_type: 'prod' });
    assert.equal((old.source_config as Record<string, unknown>).deployment_type, 'dev_free');
    assert.equal('deployment_type' in old, false);
  });

  it('replaces a default that is not an object where the body needs one', () => {
    const body = buildCreateBody(repository, { name: 'pay', ref: 'main' }, { source_config: 'oops', source_revision_config: ['x'] });
    assert.deepEqual(body.source_config, { integration_id: repository.host_integration_id, repo_url: repository.url });
    assert.deepEqual(body.source_revision_config, { repo_ref: 'main' });
  });
});

describe('the body as copied, reviewed and edited', () => {
  it('copies settings handed out as read-only proxies (structuredClone refuses those)', () => {
    const readOnly = <T extends object>(target: T): T =>
      new Proxy(target, {
        get: (object, key) => {
          const value = Reflect.get(object, key);
          return value && typeof value === 'object' ? readOnly(value) : value;
        },
        set: () => {
          throw new Error('read-only');
        },
      });
    const defaults = readOnly({ source: 'github', source_config: { build_on_push: true }, secrets: [{ name: 'a' }] });
    assert.throws(() => structuredClone(defaults));
    const body = buildCreateBody({ host_integration_id: 'a1c3e5f7-2b4d-4e6f-8a0b-1c2d3e4f5a01', id: 1, name: 'x', owner: 'o', url: 'u', default_branch: 'main' }, { name: 'x', ref: 'main' }, defaults);
    assert.deepEqual(body.secrets, [{ name: 'a' }]);
    (body.source_config as Record<string, unknown>).extra = 1;
    assert.equal((defaults.source_config as Record<string, unknown>).extra, undefined);
  });

  it('flattens the body into path/value lines for the review', () => {
    assert.deepEqual(flattenBody({ name: 'a', source_config: { repo_url: 'u', resource_spec: {} }, secrets: [], n: 1, x: null }), [
      { path: 'name', value: '"a"' },
      { path: 'source_config.repo_url', value: '"u"' },
      { path: 'source_config.resource_spec', value: '{}' },
      { path: 'secrets', value: '[]' },
      { path: 'n', value: '1' },
      { path: 'x', value: 'null' },
    ]);
  });
});
