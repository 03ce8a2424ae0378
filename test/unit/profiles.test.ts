// Profiles without VS Code: validating the setting, what 0.1.0's settings become, which profile is
// active, what a workspace's own settings change, and the rule deciding where a key may go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  answerFor,
  apiKeyInputProblem,
  bindingAfterStore,
  controlPlaneKey,
  effectiveConnection,
  implicitProfile,
  keyDecision,
  mergeProfiles,
  newProfileId,
  originOf,
  parseProfiles,
  profileFromLegacy,
  profileNameProblem,
  resolveActiveProfile,
  tenantInputProblem,
} from '../../src/model/profileRules';
import { baseUrlProblem } from '../../src/api/baseUrl';

const INTEGRATION = { id: '3f2a9c1e-1b2c-4d3e-8f90-0123456789ab', label: 'Acme' };

describe('profiles setting', () => {
  it('reads valid entries with defaults applied, keeping their order', () => {
    const { profiles, problems } = parseProfiles([
      { name: 'EU', baseUrl: 'https://eu.api.example.com', tenantId: ' t-1 ' },
      { id: 'onprem', name: 'Self-hosted', baseUrl: 'https://deploy.corp.example/api-host', apiKeyHeader: 'Authorization', strictSSL: false },
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      profiles.map((p) => [p.id, p.name, p.baseUrl, p.tenantId, p.apiKeyHeader, p.tenantHeader, p.strictSSL]),
      [
        ['eu', 'EU', 'https://eu.api.example.com', 't-1', 'X-Api-Key', 'X-Tenant-Id', true],
        ['onprem', 'Self-hosted', 'https://deploy.corp.example/api-host', '', 'Authorization', 'X-Tenant-Id', false],
      ],
    );
    assert.equal(profiles[0].implicit, false);
  });

  it('leaves out bad entries and duplicate names, naming each, and keeps the rest', () => {
    const { profiles, problems } = parseProfiles([
      { name: 'EU', baseUrl: 'https://eu.example.com' },
      { name: 'eu', baseUrl: 'https://other.example.com' },
      { name: 'No URL' },
      { name: 'FTP', baseUrl: 'ftp://example.com' },
      { baseUrl: 'https://x.example.com' },
      'US',
      { id: 'EU', name: 'Clash', baseUrl: 'https://clash.example.com' },
      { name: 'US', baseUrl: 'https://us.example.com' },
    ]);
    assert.deepEqual(profiles.map((p) => p.name), ['EU', 'US']);
    assert.equal(problems.length, 6);
    assert.match(problems[0], /“eu” is defined twice/);
    assert.match(problems[1], /“No URL”: no base URL is set/);
    assert.match(problems[2], /“FTP”: “ftp:\/\/example\.com” must start with http:\/\/ or https:\/\//);
    assert.match(problems[3], /Profile 5 has no name/);
    assert.match(problems[5], /“Clash” has the same id/);
  });

  it('treats a missing setting as no profiles, and a non-list as a problem', () => {
    assert.deepEqual(parseProfiles(undefined), { profiles: [], problems: [] });
    assert.equal(parseProfiles({ name: 'EU' }).problems.length, 1);
  });

  it('adds a workspace’s own profiles after the user’s, marked, never in place of one of them', () => {
    const user = parseProfiles([
      { name: 'US', baseUrl: 'https://us.example.com' },
      { name: 'EU', baseUrl: 'https://eu.example.com' },
    ]).profiles;
    const workspace = parseProfiles([
      { name: 'Repo', baseUrl: 'https://repo.example.net' },
      { name: 'eu', baseUrl: 'https://collector.example.net' },
      { name: 'Other', id: 'us', baseUrl: 'https://collector.example.net' },
      { name: 'Broken' },
    ]);
    const merged = mergeProfiles(user, workspace);
    assert.deepEqual(
      merged.profiles.map((profile) => [profile.name, profile.baseUrl, !!profile.fromWorkspace]),
      [
        ['US', 'https://us.example.com', false],
        ['EU', 'https://eu.example.com', false],
        ['Repo', 'https://repo.example.net', true],
      ],
    );
    assert.equal(merged.problems.length, 3, merged.problems.join('\n'));
    assert.match(merged.problems.join('\n'), /In this workspace’s settings: Profile “Broken”/);
    assert.match(merged.problems.join('\n'), /Profile “eu” in this workspace’s settings has the name or id of one of yours; yours is used\./);
    assert.match(merged.problems.join('\n'), /Profile “Other” in this workspace’s settings/);
    assert.deepEqual(mergeProfiles(user, undefined), { profiles: user, problems: [] });
  });

  it('checks new names as typed', () => {
    assert.match(profileNameProblem('  ') ?? '', /Enter a name/);
    assert.match(profileNameProblem('eu', ['EU', 'US']) ?? '', /already exists/);
    assert.equal(profileNameProblem('Self-hosted', ['EU']), undefined);
  });

  it('refuses a typed key or tenant with a character HTTP cannot carry, naming the character and never the key', () => {
    assert.equal(
      apiKeyInputProblem(' sk-live-0123\u200b4567 '),
      'This key cannot be used: it holds a character that cannot be sent in an HTTP header (U+200B), perhaps copied along with it.',
    );
    assert.equal(apiKeyInputProblem(' sk-live-01234567\n'), undefined, 'a line break at either end is trimmed');
    assert.match(apiKeyInputProblem('  ') ?? '', /^Enter the API key/);
    assert.equal(tenantInputProblem('тенант'), 'This tenant ID cannot be used: it holds a character that cannot be sent in an HTTP header (U+0442), perhaps copied along with it.');
    assert.equal(tenantInputProblem(''), undefined);
  });

  it('gives added profiles IDs that are new and never Default’s', () => {
    assert.equal(newProfileId('EU West', []), 'eu-west');
    assert.equal(newProfileId('EU West', ['eu-west']), 'eu-west-2');
    assert.equal(newProfileId('Default', []), 'default-2');
    assert.equal(newProfileId('***', []), 'profile');
  });
});

describe('the base URL check', () => {
  it('accepts http(s) URLs, with a path prefix', () => {
    for (const url of ['https://api.example.com', ' http://127.0.0.1:4010/api-host/ ']) assert.equal(baseUrlProblem(url), undefined, url);
  });

  it('says what is wrong, never repeating a user name or password typed into the URL', () => {
    assert.equal(baseUrlProblem('  '), 'no base URL is set');
    assert.equal(baseUrlProblem('api.example.com'), '“api.example.com” is not a URL (expected e.g. https://api.example.com)');
    assert.equal(baseUrlProblem('ftp://bob:hunter22@example.test'), '“ftp://[redacted]@example.test” must start with http:// or https://');
    assert.equal(baseUrlProblem('https://bob:hunter22@example.test'), 'the URL must not contain a user name or password; use the API key instead');
  });
});

describe('migration from 0.1.0 settings', () => {
  const legacy = {
    baseUrl: 'https://api.example.com/api-host',
    tenantId: 'tenant-7',
    apiKeyHeader: 'X-Api-Key',
    tenantHeader: 'X-Workspace',
    caFile: '',
    strictSSL: undefined,
    integrations: [INTEGRATION],
    createDefaults: { source: 'github' },
  };

  it('makes the implicit profile Default of the top-level settings', () => {
    const profile = implicitProfile(legacy);
    assert.equal(profile.id, 'default');
    assert.equal(profile.name, 'Default');
    assert.equal(profile.implicit, true);
    assert.equal(profile.baseUrl, 'https://api.example.com/api-host');
    assert.equal(profile.tenantHeader, 'X-Workspace');
    assert.equal(profile.strictSSL, true);
  });

  it('writes out only what the user set, with the integrations and create defaults', () => {
    assert.deepEqual(profileFromLegacy(legacy), {
      id: 'default',
      name: 'Default',
      baseUrl: 'https://api.example.com/api-host',
      tenantId: 'tenant-7',
      tenantHeader: 'X-Workspace',
      integrations: [INTEGRATION],
      createDefaults: { source: 'github' },
    });
    assert.deepEqual(profileFromLegacy({ baseUrl: 'http://127.0.0.1:4010', strictSSL: false }), {
      id: 'default',
      name: 'Default',
      baseUrl: 'http://127.0.0.1:4010',
      strictSSL: false,
    });
  });

  it('has nothing to write without a base URL', () => {
    assert.equal(profileFromLegacy({ tenantId: 'x' }), undefined);
  });

  it('parses back to the same connection, under the same ID (so the stored key and state follow)', () => {
    const [parsed] = parseProfiles([profileFromLegacy(legacy)]).profiles;
    const implicit = implicitProfile(legacy);
    assert.equal(parsed.id, implicit.id);
    for (const field of ['baseUrl', 'tenantId', 'apiKeyHeader', 'tenantHeader', 'caFile', 'strictSSL'] as const) {
      assert.equal(parsed[field], implicit[field], field);
    }
    assert.deepEqual(parsed.integrations, [INTEGRATION]);
  });
});

describe('the active profile', () => {
  const { profiles } = parseProfiles([
    { name: 'EU', baseUrl: 'https://eu.example.com' },
    { name: 'US', baseUrl: 'https://us.example.com' },
    { id: 'x1', name: 'Self-hosted', baseUrl: 'https://corp.example/api-host' },
  ]);

  it('is the workspace’s choice, by ID', () => {
    assert.equal(resolveActiveProfile(profiles, 'x1', 'US')?.name, 'Self-hosted');
  });

  it('falls back to defaultProfile (by name, any case), then to the first', () => {
    assert.equal(resolveActiveProfile(profiles, undefined, 'us')?.name, 'US');
    assert.equal(resolveActiveProfile(profiles, 'removed-one', 'US')?.name, 'US');
    assert.equal(resolveActiveProfile(profiles, 'removed-one', 'nope')?.name, 'EU');
    assert.equal(resolveActiveProfile(profiles)?.name, 'EU');
    assert.equal(resolveActiveProfile([], 'x1'), undefined);
  });

  it('takes the workspace’s own connection settings over the profile’s, and says which', () => {
    const effective = effectiveConnection(profiles[0], { baseUrl: ' https://evil.example.net ', tenantId: '', strictSSL: true });
    assert.equal(effective.baseUrl, 'https://evil.example.net');
    assert.equal(effective.fromWorkspace, true);
    assert.equal(effectiveConnection(profiles[0], {}).fromWorkspace, false);
    assert.equal(effectiveConnection({ ...profiles[0], fromWorkspace: true }, {}).fromWorkspace, true, 'a profile the workspace defines');
  });
});

describe('the origin rule', () => {
  const EU = 'https://eu.example.com';
  const EVIL = 'http://127.0.0.1:9999';

  it('compares origins, not URLs', () => {
    assert.equal(originOf('https://eu.example.com/api-host/'), EU);
    assert.equal(originOf('https://EU.example.com:443'), EU);
    assert.equal(originOf('ftp://x'), undefined);
    assert.equal(originOf('not a url'), undefined);
  });

  it('sends a stored key to the origin it was stored for only', () => {
    const binding = { origin: EU };
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EU, profileOrigin: EU, binding }), 'send');
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EVIL, profileOrigin: EU, binding }), 'ask');
    // An edited profile: its own URL moved, the key did not.
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EVIL, profileOrigin: EVIL, binding }), 'ask');
  });

  it('remembers yes and no per origin', () => {
    const allowed = answerFor({ origin: EU }, EVIL, true);
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EVIL, profileOrigin: EU, binding: allowed }), 'send');
    const denied = answerFor(allowed, EVIL, false);
    assert.deepEqual(denied.allowed, []);
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EVIL, profileOrigin: EU, binding: denied }), 'withhold');
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EU, profileOrigin: EU, binding: denied }), 'send');
  });

  it('binds a key of unknown origin at its profile’s own URL, and asks anywhere else', () => {
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EU, profileOrigin: EU, binding: undefined }), 'bind');
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EVIL, profileOrigin: EU, binding: undefined }), 'ask');
  });

  it('treats the environment variable as the key of the active profile’s own URL', () => {
    assert.equal(keyDecision({ source: 'environment', effectiveOrigin: EU, profileOrigin: EU, binding: undefined }), 'send');
    assert.equal(keyDecision({ source: 'environment', effectiveOrigin: EVIL, profileOrigin: EU, binding: undefined }), 'ask');
  });

  it('asks before any key of the user’s goes to a profile the workspace’s own settings define', () => {
    // The environment's key is the user's, not the key of whatever profile a (trusted) workspace brings.
    assert.equal(keyDecision({ source: 'environment', effectiveOrigin: EVIL, profileOrigin: EVIL, binding: undefined, profileFromWorkspace: true }), 'ask');
    // A stored key of unknown origin (0.1.0's) is not bound to it either, even under the same ID.
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EVIL, profileOrigin: EVIL, binding: undefined, profileFromWorkspace: true }), 'ask');
    // The user's answer counts as for any origin, and a key the user stored for it goes there.
    assert.equal(keyDecision({ source: 'environment', effectiveOrigin: EVIL, profileOrigin: EVIL, binding: answerFor(undefined, EVIL, true), profileFromWorkspace: true }), 'send');
    assert.equal(keyDecision({ source: 'environment', effectiveOrigin: EVIL, profileOrigin: EVIL, binding: answerFor(undefined, EVIL, false), profileFromWorkspace: true }), 'withhold');
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: EVIL, profileOrigin: EVIL, binding: { origin: EVIL }, profileFromWorkspace: true }), 'send');
  });

  it('has nothing to decide without a key or a URL', () => {
    assert.equal(keyDecision({ source: 'none', effectiveOrigin: EU, profileOrigin: EU, binding: undefined }), 'none');
    assert.equal(keyDecision({ source: 'stored', effectiveOrigin: undefined, profileOrigin: undefined, binding: { origin: EU } }), 'none');
  });

  it('starts a new key from where it is stored, and lets the same key keep its answers', () => {
    assert.deepEqual(bindingAfterStore({ origin: EU, allowed: [EVIL] }, EVIL, false), { origin: EVIL });
    const same = bindingAfterStore({ origin: EU, denied: [EVIL] }, EVIL, true);
    assert.equal(same.origin, EVIL);
    assert.deepEqual(same.allowed, [EU]);
    assert.deepEqual(same.denied, []);
  });
});

describe('the control plane that per-connection state belongs to', () => {
  it('is the same however the base URL and tenant are written, and differs for another tenant or host', () => {
    const tenant = '0b0b0b0b-1c1c-4d4d-8e8e-2f2f2f2f2f2f';
    const key = controlPlaneKey({ baseUrl: 'https://api.example.com', tenantId: tenant });
    assert.equal(controlPlaneKey({ baseUrl: ' HTTPS://API.Example.com// ', tenantId: ` ${tenant.toUpperCase()} ` }), key);
    assert.notEqual(controlPlaneKey({ baseUrl: 'https://api.example.com', tenantId: '' }), key);
    assert.notEqual(controlPlaneKey({ baseUrl: 'https://eu.example.com', tenantId: tenant }), key);
  });
});
