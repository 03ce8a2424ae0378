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
      name: 'payments-api',
      source_config: { integration_id: repository.host_integration_id, repo_url: repository.url },
      source_revision_config: { repo_ref: 'develop' },
    });
  });

  it('sends a changed ref and a chosen type', () => {
    const body = buildCreateBody(repository, { name: 'pay', ref: 'refs/tags/v1', deploymentType: 'prod' });
    assert.equal((body.source_revision_config as Record<string, unknown>).repo_ref, 'refs/tags/v1');
    assert.equal(body.deployment_type, 'prod');
    assert.equal(body.name, 'pay');
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
      deployment_type: 'dev',
      source_config: {
        repo_url: repository.url,
        build_on_push: true,
        resource_spec: { cpu: 1 },
        integration_id: repository.host_integration_id,
      },
      source_revision_config: { graph_config_path: 'langgraph.json', repo_ref: 'main' },
    });
    assert.deepEqual(defaults, before, 'the setting object must not be changed');
    (body.secrets as unknown[]).push('x');
    assert.deepEqual(defaults.secrets, [], 'the body must not share arrays with the setting');
  });

  it('lets a chosen type override the default one', () => {
    const body = buildCreateBody(repository, { name: 'pay', ref: 'main', deploymentType: 'dev_free' }, { deployment_type: 'prod' });
    assert.equal(body.deployment_type, 'dev_free');
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
