import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCreateBody } from '../../src/model/createPayload';
import { actionForField, ReviewRow, reviewRows } from '../../src/model/createReview';

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
      'secrets — []',
      'name — "storefront"',
      'source_config.integration_id — "3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b"',
      'source_config.repo_url — "https://github.com/acme/storefront"',
      'source_revision_config.repo_ref — "main"',
      'deployment_type — "dev"',
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
    assert.deepEqual(actions['deployment_type'], { goto: 'type' });
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
});
