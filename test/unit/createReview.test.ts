import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCreateBody, getPath } from '../../src/model/createPayload';
import { actionForField, ReviewRow, reviewRows } from '../../src/model/createReview';
import { changesForRefusal, conflictingDeployments, rememberedDefaults, unfilledFields } from '../../src/model/createRefusal';

const repository = {
  host_integration_id: '3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b',
  id: 7,
  name: 'storefront',
  owner: 'acme',
  url: 'https://github.com/acme/storefront',
  default_branch: 'main',
};
const body = buildCreateBody(repository, { name: 'storefront', ref: 'main', deploymentType: 'dev' }, { secrets: [] });

/** The rows as a person reads them: separators as “── label”, items as “label — description”. */
const shown = (rows: ReviewRow[]) =>
  rows.map((row) => (row.kind === 'separator' ? `── ${row.label}` : `${row.label}${row.description ? ` — ${row.description}` : ''}`));

describe('create review rows', () => {
  it('offers Create, Edit Payload… and Back, then every field of the body with where it is set', () => {
    const rows = reviewRows(body);
    assert.deepEqual(shown(rows), [
      "$(rocket) Create Deployment — POST /v2/deployments · the body's fields are below",
      '$(json) Edit Payload… — open the body as JSON, change it, send it from the editor title',
      '$(arrow-left) Back',
      '── ',
      'source — "github"',
      'secrets — []',
      'name — "storefront"',
      'source_config.integration_id — "3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b"',
      'source_config.repo_url — "https://github.com/acme/storefront"',
      'source_config.deployment_type — "dev"',
      'source_revision_config.repo_ref — "main"',
    ]);
    const create = rows[0];
    assert.ok(create.kind === 'item');
    assert.deepEqual(JSON.parse(create.detail ?? ''), body, 'the Create row shows the exact body');
    const actions = Object.fromEntries(rows.flatMap((row) => (row.kind === 'item' ? [[row.label, row.action]] : [])));
    assert.equal(actions['$(rocket) Create Deployment'], 'create');
    assert.equal(actions['$(json) Edit Payload…'], 'edit');
    assert.equal(actions['$(arrow-left) Back'], 'back');
    assert.deepEqual(actions['name'], { goto: 'name' });
    assert.deepEqual(actions['source_revision_config.repo_ref'], { goto: 'ref' });
    assert.deepEqual(actions['source_config.deployment_type'], { goto: 'type' });
    assert.equal(actions['source_config.repo_url'], 'edit', 'fields the flow does not ask for are changed in the payload');
    assert.equal(actions['secrets'], 'edit');
  });

  it('shows the secrets of the defaults setting masked, by name', () => {
    const secrets = [{ name: 'DB_PASSWORD', value: 'hunter2' }];
    const rows = reviewRows(buildCreateBody(repository, { name: 'storefront', ref: 'main' }, { secrets }));
    const text = JSON.stringify(rows);
    assert.equal(text.includes('hunter2'), false, text);
    assert.ok(shown(rows).includes('secrets — [{"name":"DB_PASSWORD","value":"••••••"}]'), JSON.stringify(shown(rows)));
  });

  it('leads with the server’s reasons for a refusal, each going where it is fixed', () => {
    const rows = reviewRows(body, {
      message: 'The server refused the request (HTTP 422):\nbody.name: String should match pattern\nbody.source: Field required',
      issues: [
        { loc: 'body.name', msg: 'String should match pattern' },
        { loc: 'body.source', msg: 'Field required' },
      ],
      answered: true,
    });
    assert.deepEqual(shown(rows).slice(0, 4), [
      '$(error) Name — refused by the server: go to the name step',
      '$(error) Source — refused by the server: fix it in the payload',
      '── ',
      "$(rocket) Create Deployment — POST /v2/deployments · the body's fields are below",
    ]);
    // Each reason in full on its own detail line.
    assert.deepEqual(
      rows.slice(0, 2).map((row) => row.kind === 'item' && row.detail),
      ['String should match pattern', 'Field required'],
    );
    assert.equal(rows[0].kind, 'item', 'no labelled separator sits on the first reason');
    assert.deepEqual(rows[0].kind === 'item' && rows[0].action, { goto: 'name' });
    assert.equal(rows[1].kind === 'item' && rows[1].action, 'edit');
  });

  it('names nested fields in words, whatever the request part', () => {
    const rows = reviewRows(body, {
      message: 'refused',
      issues: [{ loc: 'body.source_revision_config.repo_ref', msg: 'Unknown branch “mian”: the repository has main, develop' }],
      answered: true,
    });
    assert.equal(shown(rows)[0], '$(error) Revision › Ref — refused by the server: go to the ref step');
    assert.equal(rows[0].kind === 'item' && rows[0].detail, 'Unknown branch “mian”: the repository has main, develop');
  });

  it('shows the message of a refusal that names no field', () => {
    const rows = reviewRows(body, { message: 'The control plane answered HTTP 409: name taken', issues: [], answered: true });
    assert.equal(shown(rows)[0], '$(error) The control plane answered HTTP 409: name taken — refused by the server: fix it in the payload');
  });

  it('warns that an unanswered request may still have created the deployment, and offers to check', () => {
    const rows = reviewRows(body, { message: 'The request was cancelled.\nmore detail', issues: [], answered: false });
    assert.deepEqual(shown(rows).slice(0, 2), [
      '$(warning) The request was cancelled. — no answer came: it may still have been created; check the Deployments view before sending again',
      '── ',
    ]);
    assert.equal(rows[0].kind === 'item' && rows[0].detail, 'The request was cancelled.\nmore detail', 'the whole message as the detail');
    assert.equal(rows[0].kind === 'item' && rows[0].action, 'check');
    assert.equal(shown(rows).some((row) => /refused/.test(row)), false);
  });

  it('maps the fields a 422 names to the step that sets them', () => {
    assert.deepEqual(actionForField('body.name'), { goto: 'name' });
    assert.deepEqual(actionForField('name'), { goto: 'name' });
    assert.equal(actionForField('body.source_config.name'), 'edit');
    assert.deepEqual(actionForField('body.source_revision_config.repo_ref'), { goto: 'ref' });
    assert.deepEqual(actionForField('body.deployment_type'), { goto: 'type' });
    assert.equal(actionForField(''), 'edit');
  });

  it('says what the flow added or left out after a 422, and asks for a value it could not know before Create sends', () => {
    const changes = {
      added: { secrets: { value: [] }, 'source_revision_config.graph_config_path': { value: '', needsValue: true } },
      removed: ['source'],
    };
    const changed = buildCreateBody(repository, { name: 'storefront', ref: 'main', changes }, {});
    const rows = reviewRows(
      changed,
      {
        message: 'refused',
        issues: [
          { loc: 'body.secrets', msg: 'Field required', type: 'missing' },
          { loc: 'body.source_revision_config.graph_config_path', msg: 'Field required', type: 'missing' },
          { loc: 'body.source', msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
          { loc: 'body.name', msg: 'String should match pattern', type: 'string_pattern_mismatch' },
        ],
        answered: true,
      },
      changes,
    );
    assert.deepEqual(shown(rows).slice(0, 7), [
      '$(error) Name — refused by the server: go to the name step',
      '── ',
      '$(add) secrets — [] · added: the server requires it',
      '$(edit) source_revision_config.graph_config_path — needs a value: the server requires it (pick to enter it)',
      '$(remove) source — left out: the server does not permit it',
      '── ',
      '$(rocket) Create Deployment — first give source_revision_config.graph_config_path a value',
    ]);
    const create = rows[6];
    assert.deepEqual(create.kind === 'item' && create.action, { fill: 'source_revision_config.graph_config_path' }, 'Create asks for the value instead of sending');
    assert.equal(rows[3].kind === 'item' && JSON.stringify(rows[3].action), JSON.stringify({ fill: 'source_revision_config.graph_config_path' }));

    changes.added['source_revision_config.graph_config_path'].value = 'agent.json';
    const filled = reviewRows(buildCreateBody(repository, { name: 'storefront', ref: 'main', changes }, {}), undefined, changes);
    const createNow = filled.find((row) => row.kind === 'item' && row.label === '$(rocket) Create Deployment');
    assert.equal(createNow?.kind === 'item' && createNow.action, 'create');
    assert.ok(shown(filled).includes('$(add) source_revision_config.graph_config_path — "agent.json" · added: the server requires it (pick to change it)'), JSON.stringify(shown(filled)));
  });

  it('shows a conflict’s reason and the existing deployment of the same repository and ref', () => {
    const rows = reviewRows(body, {
      message: 'The control plane answered HTTP 409: A deployment already exists for this agent environment',
      issues: [],
      answered: true,
      conflict: { reason: 'A deployment already exists for this agent environment', existing: { id: 'd-1', name: 'storefront' } },
    });
    assert.deepEqual(shown(rows).slice(0, 4), [
      '$(error) A deployment already exists for this agent environment — refused by the server (HTTP 409)',
      '$(eye) Show Existing Deployment — “storefront” deploys this repository and ref',
      '── ',
      "$(rocket) Create Deployment — POST /v2/deployments · the body's fields are below",
    ]);
    assert.equal(rows[1].kind === 'item' && rows[1].action, 'existing');
  });
});

describe('what a refusal asks to change', () => {
  const sent = buildCreateBody(repository, { name: 'storefront', ref: 'main' }, { secrets: null });

  it('adds what a 422 says is missing: a known value where there is one, else an empty one to fill', () => {
    const changes = changesForRefusal(
      [
        { loc: 'body.secrets', msg: 'Field required', type: 'missing' },
        { loc: 'body.source_revision_config.graph_config_path', msg: 'Field required', type: 'missing' },
      ],
      sent,
    );
    assert.deepEqual(changes, {
      added: { secrets: { value: [] }, 'source_revision_config.graph_config_path': { value: '', needsValue: true } },
      removed: [],
    });
    assert.deepEqual(unfilledFields(changes, sent), ['source_revision_config.graph_config_path']);
    const fromDefaults = buildCreateBody(repository, { name: 'storefront', ref: 'main', changes }, { source_revision_config: { graph_config_path: 'config.json' } });
    assert.equal(getPath(fromDefaults, 'source_revision_config.graph_config_path'), 'config.json', 'a value still to give does not hide one the defaults give');
    assert.deepEqual(unfilledFields(changes, fromDefaults), []);
  });

  it('leaves out what a 422 says is not permitted, and keeps what an earlier refusal changed', () => {
    const earlier = { added: { secrets: { value: [] } }, removed: [] };
    const changes = changesForRefusal([{ loc: 'body.source', msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }], sent, earlier);
    assert.deepEqual(changes, { added: { secrets: { value: [] } }, removed: ['source'] });
    assert.deepEqual(earlier, { added: { secrets: { value: [] } }, removed: [] }, 'the earlier changes are not modified');
  });

  it('answers nothing for a 422 it cannot fix by adding or leaving out a field', () => {
    const issues = [
      { loc: 'body.name', msg: 'String should match pattern', type: 'string_pattern_mismatch' },
      { loc: 'body.name', msg: 'Field required', type: 'missing' }, // the body has it: not a field to add
      { loc: 'body.secrets.0.value', msg: 'Field required', type: 'missing' }, // inside a list: the user's to fix
      { loc: 'query.limit', msg: 'Field required', type: 'missing' },
      { loc: 'body.source_config.repo_url.x', msg: 'Field required', type: 'missing' }, // under a string
      { loc: 'body.nope', msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }, // not in the body
      { loc: 'body.other', msg: 'Field required' }, // no type named
    ];
    assert.equal(changesForRefusal(issues, sent), undefined);
  });

  it('remembers the changes in the defaults: values added, fields left out removed (null for those the extension adds)', () => {
    const defaults = { secrets: null, source_config: { build_on_push: true, custom_url: 'x' } };
    const remembered = rememberedDefaults(defaults, {
      added: { secrets: { value: [] }, 'source_revision_config.graph_config_path': { value: 'agent.json', needsValue: true } },
      removed: ['source', 'source_config.custom_url'],
    });
    assert.deepEqual(remembered, {
      secrets: [],
      source: null,
      source_config: { build_on_push: true },
      source_revision_config: { graph_config_path: 'agent.json' },
    });
    assert.deepEqual(defaults, { secrets: null, source_config: { build_on_push: true, custom_url: 'x' } }, 'the setting object is not changed');
  });

  it('finds the deployments of the same repository (however its URL is spelled) and ref for a 409', () => {
    const refused = buildCreateBody(repository, { name: 'storefront-2', ref: 'main' });
    const found = conflictingDeployments(
      [
        { id: 'a', name: 'storefront', repoUrl: 'git@github.com:acme/storefront.git', ref: 'refs/heads/main' },
        { id: 'b', name: 'storefront-dev', repoUrl: 'https://github.com/acme/storefront', ref: 'develop' },
        { id: 'c', name: 'other', repoUrl: 'https://github.com/acme/other', ref: 'main' },
        { id: 'd', name: 'image' },
      ],
      refused,
    );
    assert.deepEqual(found.map((candidate) => candidate.id), ['a']);
  });
});
