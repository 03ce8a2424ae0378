// The create flow's steps typed through in the fake window, against an
// in-memory control plane: what each step shows, Back keeping values, the
// review, a refused request, Edit Payload…
import * as fake from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { fakeServices, FakeControlPlaneOptions, repository } from './helpers/fakeServices';
import { ControlPlaneError } from '../../src/api';
import { readCreateArgument } from '../../src/model/createArguments';
import { DraftStore } from '../../src/model/createPayload';
import { FILTER_NAMES } from '../../src/model/deploymentFilters';
import { CreateResult, runCreateFlow } from '../../src/features/createDeployment/createFlow';
import { PayloadDocuments } from '../../src/features/createDeployment/payloadDocuments';
import { registerCreateDeployment } from '../../src/features/createDeployment';

const ACME = '3f2a9c1e-4b5d-4e6f-8a0b-1c2d3e4f5a6b';
const PLATFORM = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const storefront = repository('acme', 'storefront', ACME, 1);
const payments = repository('acme', 'Payments_API', ACME, 2, 'develop');
const infra = repository('platform', 'infra', PLATFORM, 3, 'trunk');

function setUp(options: FakeControlPlaneOptions = {}) {
  // The commands of other features the create flow runs, registered as the extension has them.
  for (const command of ['deploymentsExplorer.addIntegration', 'deploymentsExplorer.filterDeployments']) {
    fake.commands.registerCommand(command, () => undefined);
  }
  const control = fakeServices({
    integrations: [
      { id: ACME, label: 'Acme' },
      { id: PLATFORM, label: 'Platform' },
    ],
    repositories: { [ACME]: [storefront, payments], [PLATFORM]: [infra] },
    apiKey: 'sk-test',
    ...options,
  });
  const drafts = new DraftStore();
  const payloads = new PayloadDocuments();
  /** Runs "Create Deployment…" as the command does, with the argument a row, a script or the palette passes. */
  const create = (argument?: unknown): Promise<CreateResult> =>
    runCreateFlow({ services: control.services, deployments: control.deployments, drafts, payloads }, readCreateArgument(argument));
  return { ...control, drafts, payloads, create };
}

/** Keeps the refusal's notification open; the function answered clicks one of its buttons later, as a user would. */
function holdRefusal(): (label: string | undefined) => void {
  let click: (label: string | undefined) => void = () => undefined;
  fake.window.answer = (message) => (message.level === 'error' ? new Promise((resolve) => (click = resolve)) : undefined);
  return (label) => click(label);
}

describe('create flow', () => {
  beforeEach(() => fake.resetFake());

  it('from the palette: integration, repository, name, ref, type, review, then sends the body shown', async () => {
    const { create, posted, deployments } = setUp();
    const done = create();

    const integration = await fake.window.nextQuickPick();
    assert.equal(integration.titleText, 'Create Deployment (1/6)');
    assert.equal(integration.placeholder, 'Pick the code-host integration of the repository');
    assert.deepEqual(integration.labels, ['Acme', 'Platform']);
    assert.deepEqual(
      integration.visibleItems.map((item) => [item.description, item.detail]),
      [
        [ACME, 'Added'],
        [PLATFORM, 'Added'],
      ],
    );
    integration.pick('Acme');

    const repo = await fake.window.nextQuickPick();
    assert.equal(repo.titleText, 'Create Deployment (2/6)');
    assert.equal(repo.placeholder, 'Pick a repository of Acme (type to search by name, owner or URL)');
    await repo.loaded();
    assert.deepEqual(repo.labels, ['acme/Payments_API', 'acme/storefront']);
    assert.deepEqual(
      repo.visibleItems.map((item) => [item.description, item.detail]),
      [
        ['develop', 'https://github.com/acme/Payments_API'],
        ['main', 'https://github.com/acme/storefront'],
      ],
    );
    repo.type('store');
    assert.deepEqual(repo.labels, ['acme/storefront']);
    repo.accept();

    const name = await fake.window.nextInputBox();
    assert.equal(name.titleText, 'Create Deployment (3/6)');
    assert.equal(name.value, 'storefront', 'pre-filled from the repository');
    assert.equal(name.prompt, 'Name of the new deployment of acme/storefront: lowercase letters, digits and “-”.');
    name.type('Bad Name');
    assert.match(name.validationText ?? '', /Use only lowercase letters, digits and “-” \(found “B”, space, “N”\)\. Suggestion: bad-name/);
    name.accept();
    assert.equal(name.visible, true, 'an invalid name is not accepted');
    name.type('shop');
    name.accept();

    const ref = await fake.window.nextInputBox();
    assert.equal(ref.value, 'main', 'the default branch');
    assert.equal(ref.prompt, 'Branch, tag or ref to deploy (default branch: main), e.g. refs/tags/v1.0.0.');
    ref.type('refs/tags/v1');
    ref.pressBack();
    const nameAgain = await fake.window.nextInputBox();
    assert.equal(nameAgain.value, 'shop', 'Back shows the name typed');
    nameAgain.accept();
    const refAgain = await fake.window.nextInputBox();
    assert.equal(refAgain.value, 'refs/tags/v1', 'and forward again the ref typed');
    refAgain.accept();

    const type = await fake.window.nextQuickPick();
    assert.equal(type.titleText, 'Create Deployment (5/6)');
    assert.deepEqual(type.labels, ['Don’t set', 'dev_free', 'dev', 'prod']);
    assert.equal(type.visibleItems[0].description, 'the server decides');
    assert.equal(type.activeLabel, 'Don’t set');
    type.pick('dev');

    const review = await fake.window.nextQuickPick();
    assert.equal(review.titleText, 'Create Deployment (6/6)');
    assert.equal(review.placeholder, 'Review: shop from acme/storefront at refs/tags/v1');
    assert.equal(review.activeLabel, 'Create Deployment');
    const expected = {
      source: 'github',
      secrets: [],
      name: 'shop',
      // The type where the real service reads it: at the top level it would be ignored, and a prod deployment made.
      source_config: { integration_id: ACME, repo_url: 'https://github.com/acme/storefront', deployment_type: 'dev' },
      source_revision_config: { repo_ref: 'refs/tags/v1' },
    };
    assert.deepEqual(JSON.parse(String(review.find('Create Deployment')?.detail)), expected);
    assert.deepEqual(review.labels, [
      'Create Deployment',
      'Edit Payload…',
      'Back',
      '',
      'source',
      'secrets',
      'name',
      'source_config.integration_id',
      'source_config.repo_url',
      'source_config.deployment_type',
      'source_revision_config.repo_ref',
    ]);
    review.accept();

    const result = await done;
    assert.equal(result.outcome, 'created');
    assert.deepEqual(posted, [expected]);
    assert.deepEqual(
      fake.window.messages.map((m) => [m.level, m.message, m.actions]),
      [['info', 'Deployment “shop” created.', ['Copy ID', 'Show']]],
    );
    assert.equal(deployments.refreshed, 1, 'the Deployments view is reloaded to show it');
  });

  it('skips the integration step when only one integration is known', async () => {
    const { create } = setUp({ integrations: [{ id: PLATFORM, label: 'Platform' }] });
    const done = create();
    const repo = await fake.window.nextQuickPick();
    assert.equal(repo.titleText, 'Create Deployment (1/5)');
    assert.equal(repo.hasBackButton, false);
    await repo.loaded();
    repo.pick('platform/infra');
    const name = await fake.window.nextInputBox();
    assert.equal(name.value, 'infra');
    name.escape();
    assert.deepEqual(await done, { outcome: 'cancelled', step: 'name', draft: { name: 'infra', ref: 'trunk' }, repository: infra, lastError: undefined });
  });

  it('from a repository row asks only for name, ref, type and review', async () => {
    const { create, posted } = setUp();
    const done = create({ kind: 'repository', integrationId: ACME, id: 'row', repository: payments });
    const name = await fake.window.nextInputBox();
    assert.equal(name.titleText, 'Create Deployment (1/4)');
    assert.equal(name.value, 'payments-api', 'normalised from Payments_API');
    assert.equal(name.hasBackButton, false);
    name.accept();
    const ref = await fake.window.nextInputBox();
    assert.equal(ref.value, 'develop');
    ref.accept();
    (await fake.window.nextQuickPick()).pick('Don’t set');
    (await fake.window.nextQuickPick()).pick('Create Deployment');
    assert.equal((await done).outcome, 'created');
    assert.equal(posted[0].name, 'payments-api');
    assert.equal('deployment_type' in posted[0], false);
    assert.equal('deployment_type' in (posted[0].source_config as object), false, 'no type chosen: none sent');
  });

  it('says in the name prompt what the suggested name changed of the repository’s name', async () => {
    const { create } = setUp();
    const unusual = repository('acme', 'svc-ñandú-日本', ACME, 77);
    const done = create({ kind: 'repository', integrationId: ACME, id: 'row', repository: unusual });
    const name = await fake.window.nextInputBox();
    assert.equal(name.value, 'svc-nandu');
    assert.match(name.prompt ?? '', /Suggested from “svc-ñandú-日本”: ñ → n, ú → u; 日, 本 left out \(no Latin spelling\)/);
    name.escape();
    assert.equal((await done).outcome, 'cancelled');

    const plain = create({ kind: 'repository', integrationId: ACME, id: 'row', repository: payments });
    const second = await fake.window.nextInputBox();
    assert.doesNotMatch(second.prompt ?? '', /Suggested from/, 'nothing to say when only case and separators changed');
    second.escape();
    await plain;
  });

  it('Back to another repository starts from that one’s values and keeps the first one’s', async () => {
    const { create } = setUp();
    const done = create();
    (await fake.window.nextQuickPick()).pick('Acme');
    const repo = await fake.window.nextQuickPick();
    await repo.loaded();
    repo.pick('acme/storefront');
    const name = await fake.window.nextInputBox();
    name.type('typed-for-storefront');
    name.pressBack();

    const repoAgain = await fake.window.nextQuickPick();
    await repoAgain.loaded();
    assert.equal(repoAgain.activeLabel, 'acme/storefront', 'the chosen repository is highlighted');
    repoAgain.pick('acme/Payments_API');
    const paymentsName = await fake.window.nextInputBox();
    assert.equal(paymentsName.value, 'payments-api');
    paymentsName.pressBack();

    const third = await fake.window.nextQuickPick();
    await third.loaded();
    third.pick('acme/storefront');
    const storefrontName = await fake.window.nextInputBox();
    assert.equal(storefrontName.value, 'typed-for-storefront');
    storefrontName.escape();
    assert.equal((await done).outcome, 'cancelled');
  });

  it('Back to the integration step keeps the repository search of the same integration only', async () => {
    const { create } = setUp();
    const done = create();
    (await fake.window.nextQuickPick()).pick('Acme');
    const repo = await fake.window.nextQuickPick();
    await repo.loaded();
    repo.type('pay');
    repo.pressBack();
    const integration = await fake.window.nextQuickPick();
    assert.equal(integration.activeLabel, 'Acme');
    integration.pick('Acme');
    const again = await fake.window.nextQuickPick();
    assert.equal(again.value, 'pay', 'the search is shown again');
    again.pressBack();
    (await fake.window.nextQuickPick()).pick('Platform');
    const platform = await fake.window.nextQuickPick();
    assert.equal(platform.value, '', 'another integration starts a new search');
    platform.escape();
    assert.deepEqual(await done, { outcome: 'cancelled', step: 'repository', draft: { name: '', ref: '' }, repository: undefined, lastError: undefined });
  });

  it('a body row of the review goes to the step that sets it and comes back to the review', async () => {
    const { create, posted } = setUp();
    const done = create({ repository: storefront, name: 'first', deploymentType: 'prod' });
    (await fake.window.nextInputBox()).accept();
    (await fake.window.nextInputBox()).accept();
    const type = await fake.window.nextQuickPick();
    assert.equal(type.activeLabel, 'prod', 'the given type is highlighted');
    type.accept();
    const review = await fake.window.nextQuickPick();
    review.pick('name');
    const name = await fake.window.nextInputBox();
    assert.equal(name.value, 'first');
    name.type('second');
    name.accept();
    (await fake.window.nextInputBox()).accept();
    (await fake.window.nextQuickPick()).accept();
    const reviewAgain = await fake.window.nextQuickPick();
    assert.equal(reviewAgain.placeholder, 'Review: second from acme/storefront at main');
    reviewAgain.pick('Back');
    const typeAgain = await fake.window.nextQuickPick();
    assert.equal(typeAgain.placeholder, 'Deployment type (optional)');
    typeAgain.pick('dev_free');
    (await fake.window.nextQuickPick()).pick('Create Deployment');
    assert.equal((await done).outcome, 'created');
    assert.deepEqual([posted[0].name, (posted[0].source_config as Record<string, unknown>).deployment_type], ['second', 'dev_free']);
  });

  it('a refused request comes back to the review with the server’s reasons and every value kept', async () => {
    const { create, posted, drafts } = setUp({
      create: async () => {
        throw new ControlPlaneError('validation', { status: 422, issues: [{ loc: 'body.name', msg: 'String should match pattern' }] });
      },
    });
    const clickReview = holdRefusal();
    const done = create({ repository: storefront, name: 'Bad_Name', ref: 'release/2', confirm: true });

    const review = await fake.window.nextQuickPick();
    assert.equal(posted.length, 1, 'sent once without asking (confirm), then back to the review');
    assert.deepEqual(
      fake.window.messages.map((m) => [m.level, m.message, m.actions]),
      [['error', 'The server refused the request (HTTP 422): body.name: String should match pattern', ['Review', 'Show Log']]],
    );
    assert.equal(review.placeholder, 'Review: Bad_Name from acme/storefront at release/2');
    assert.deepEqual(review.labels.slice(0, 2), ['Name', '']);
    assert.equal(review.find('Name')?.description, 'refused by the server: go to the name step');
    assert.equal(review.find('Name')?.detail, 'String should match pattern', 'the reason in full');
    assert.equal(review.activeLabel, 'Create Deployment', 'Enter would send again only when asked');
    review.escape();

    const result = await done;
    assert.equal(result.outcome, 'cancelled');
    assert.ok(result.outcome === 'cancelled');
    assert.equal(result.step, 'review');
    assert.deepEqual(result.draft, { name: 'Bad_Name', ref: 'release/2' });
    assert.deepEqual(result.lastError?.issues, [{ loc: 'body.name', msg: 'String should match pattern' }]);
    assert.deepEqual(drafts.get(storefront), { name: 'Bad_Name', ref: 'release/2' }, 'kept for the next time');
    assert.equal(posted.length, 1, 'never retried by itself');

    // The review was closed: the notification's Review opens it again, reasons and values kept.
    clickReview('Review');
    const again = await fake.window.nextQuickPick();
    assert.equal(again.placeholder, 'Review: Bad_Name from acme/storefront at release/2');
    assert.equal(again.find('Name')?.detail, 'String should match pattern');
    again.escape();
    assert.equal(posted.length, 1);
  });

  it('a 422 naming missing fields comes back to the review with them added, sends again only when asked, then offers to remember them', async () => {
    const { create, posted, services } = setUp({
      create: async (body) => {
        const missing = ['secrets', 'source_revision_config.graph_config_path'].filter((path) =>
          path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body) === undefined,
        );
        if (missing.length > 0) throw new ControlPlaneError('validation', { status: 422, issues: missing.map((path) => ({ loc: `body.${path}`, msg: 'Field required', type: 'missing' })) });
        return { id: '00000000-0000-4000-8000-000000000002', name: String(body.name) };
      },
    });
    // The user's defaults leave secrets out: the server says it is required.
    fake.workspace.set('deploymentsExplorer.createDeployment.defaults', { secrets: null });
    const done = create({ repository: storefront, name: 'shop', ref: 'release/2', deploymentType: 'dev', confirm: true });

    const review = await fake.window.nextQuickPick();
    assert.equal(posted.length, 1, 'back at the review: nothing sent again without the user');
    assert.equal('secrets' in posted[0], false);
    assert.deepEqual(review.labels.slice(0, 4), ['secrets', 'source_revision_config.graph_config_path', '', 'Create Deployment']);
    assert.equal(review.find('secrets')?.description, '[] · added: the server requires it');
    assert.equal(review.find('source_revision_config.graph_config_path')?.description, 'needs a value: the server requires it (pick to enter it)');
    assert.equal(review.find('Create Deployment')?.description, 'first give source_revision_config.graph_config_path a value');
    assert.equal(review.placeholder, 'Review: shop from acme/storefront at release/2', 'the values typed are kept');

    // Create asks for the value the server wants before anything is sent.
    review.pick('Create Deployment');
    const value = await fake.window.nextInputBox();
    assert.equal(value.prompt, 'The server requires source_revision_config.graph_config_path: enter its value (text; for a list or an object use Edit Payload…).');
    value.type('agent.json');
    value.accept();
    const again = await fake.window.nextQuickPick();
    assert.equal(posted.length, 1);
    assert.equal(again.find('Create Deployment')?.description, "POST /v2/deployments · the body's fields are below");
    fake.window.answer = (message) => (message.message.startsWith('The server needed') ? 'Remember for This Profile' : undefined);
    again.pick('Create Deployment');
    const result = await done;
    assert.equal(result.outcome, 'created');
    assert.equal(posted.length, 2, 'sent again once, when the user confirmed');
    assert.deepEqual(posted[1], {
      secrets: [],
      source: 'github',
      name: 'shop',
      source_config: { integration_id: ACME, repo_url: 'https://github.com/acme/storefront', deployment_type: 'dev' },
      source_revision_config: { graph_config_path: 'agent.json', repo_ref: 'release/2' },
    });

    await fake.until(
      () => JSON.stringify(services.connection.profiles.createDefaults()) !== JSON.stringify({ secrets: null }),
      'the defaults to be remembered',
    );
    const offer = fake.window.messages.find((m) => m.message.startsWith('The server needed'));
    assert.deepEqual(offer?.actions, ['Remember for This Profile']);
    assert.equal(
      offer?.message,
      'The server needed these changes to the body: secrets, source_revision_config.graph_config_path. Keep them in the create defaults of profile “Default”, so the next create sends them at once?',
    );
    assert.deepEqual(services.connection.profiles.createDefaults(), { secrets: [], source_revision_config: { graph_config_path: 'agent.json' } });

    // The next create sends them at once, with no offer.
    fake.window.messages.length = 0;
    assert.equal((await create({ repository: payments, name: 'pay', confirm: true })).outcome, 'created');
    assert.equal(posted.length, 3);
    assert.deepEqual(posted[2].secrets, []);
    assert.equal(fake.window.messages.some((m) => m.message.startsWith('The server needed')), false);
  });

  it('a 422 naming a field that is not permitted leaves it out, and one naming nothing fixable keeps the review as it was', async () => {
    const { create, posted } = setUp({
      create: async (body) => {
        if ('source' in body) throw new ControlPlaneError('validation', { status: 422, issues: [{ loc: 'body.source', msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }] });
        throw new ControlPlaneError('validation', { status: 422, issues: [{ loc: 'body.name', msg: 'String should match pattern', type: 'string_pattern_mismatch' }] });
      },
    });
    const done = create({ repository: storefront, name: 'shop', confirm: true });
    const review = await fake.window.nextQuickPick();
    assert.deepEqual(review.labels.slice(0, 3), ['source', '', 'Create Deployment']);
    assert.equal(review.find('source')?.description, 'left out: the server does not permit it');
    review.pick('Create Deployment');
    const after = await fake.window.nextQuickPick();
    assert.equal('source' in posted[1], false, 'sent without it');
    assert.deepEqual(after.labels.slice(0, 4), ['Name', '', 'source', ''], 'the reason it cannot fix, and what it changed before');
    after.escape();
    const result = await done;
    assert.ok(result.outcome === 'cancelled');
    assert.deepEqual(result.draft?.changes, { added: {}, removed: ['source'] }, 'kept with the other values');
    assert.equal(posted.length, 2);
  });

  it('a 409 says the server’s reason, offers the deployment of the same repository and ref, and never sends again', async () => {
    const existing = { id: '00000000-0000-4000-8000-0000000000aa', name: 'storefront', source_config: { repo_url: 'https://github.com/acme/storefront' }, source_revision_config: { repo_ref: 'main' } };
    const { create, posted, services, deployments } = setUp({
      create: async () => {
        throw new ControlPlaneError('http', { status: 409, detail: 'A deployment already exists for this agent environment' });
      },
    });
    const queries: unknown[] = [];
    const client = (await services.connection.getClient()) as unknown as Record<string, unknown>;
    client.listDeployments = async (query: unknown) => {
      queries.push(query);
      const other = { ...existing, id: '00000000-0000-4000-8000-0000000000bb', name: 'storefront-dev', source_revision_config: { repo_ref: 'develop' } };
      return { deployments: [other, existing], offContract: [], requestedOffset: 0, limit: 100, nextOffset: 2, mayHaveMore: false };
    };
    const done = create({ repository: storefront, name: 'storefront-2', confirm: true });

    const review = await fake.window.nextQuickPick();
    assert.deepEqual(queries, [{ nameContains: 'storefront', limit: 100 }], 'one listing call');
    assert.deepEqual(
      fake.window.messages.map((m) => [m.level, m.message, m.actions]),
      [
        [
          'warning',
          '“storefront-2” was not created: A deployment already exists for this agent environment (HTTP 409). “storefront” deploys the same repository and ref.',
          ['Show Existing Deployment', 'Review'],
        ],
      ],
    );
    assert.deepEqual(review.labels.slice(0, 3), ['A deployment already exists for this agent environment', 'Show Existing Deployment', '']);
    assert.equal(review.placeholder, 'Review: storefront-2 from acme/storefront at main', 'the values are kept');
    review.pick('Show Existing Deployment');
    const result = await done;
    assert.ok(result.outcome === 'existing');
    assert.equal(result.deploymentId, existing.id);
    assert.equal(result.draft.name, 'storefront-2');
    assert.deepEqual(deployments.revealed, [existing.id]);
    assert.equal(posted.length, 1, 'never a second POST');
  });

  it('a refusal’s Review, clicked after the fixed request created the deployment, does not lead to sending it again', async () => {
    const { create, posted } = setUp({
      create: async (body) => {
        if (posted.length === 1) throw new ControlPlaneError('validation', { status: 422, issues: [{ loc: 'body.name', msg: 'String should match pattern' }] });
        return { id: '00000000-0000-4000-8000-000000000002', name: String(body.name) };
      },
    });
    const clickReview = holdRefusal();
    const done = create({ repository: storefront, name: 'Bad_Name', confirm: true });
    (await fake.window.nextQuickPick()).pick('Name');
    const name = await fake.window.nextInputBox();
    name.type('good-name');
    name.accept();
    (await fake.window.nextInputBox()).accept();
    (await fake.window.nextQuickPick()).accept();
    (await fake.window.nextQuickPick()).pick('Create Deployment');
    assert.equal((await done).outcome, 'created');

    const shown = fake.window.inputs.length;
    clickReview('Review');
    await fake.until(() => fake.window.messages.some((m) => m.message.includes('has been created since')), 'the answer to Review');
    assert.equal(fake.window.inputs.length, shown, 'no review of a deployment already created');
    assert.ok(fake.window.messages.some((m) => m.message === '“good-name” has been created since this refusal: there is nothing to review.'));
    assert.equal(posted.length, 2);
  });

  it('a refusal’s Review, clicked after switching profile, does not reopen a body made for the other control plane', async () => {
    const { create, posted, services } = setUp({
      create: async () => {
        throw new ControlPlaneError('validation', { status: 422, issues: [{ loc: 'body.name', msg: 'String should match pattern' }] });
      },
    });
    const clickReview = holdRefusal();
    const done = create({ repository: storefront, name: 'Bad_Name', confirm: true });
    (await fake.window.nextQuickPick()).escape();
    assert.equal((await done).outcome, 'cancelled');

    const shown = fake.window.inputs.length;
    (services.connection as { profile: () => unknown }).profile = () => ({ id: 'us', name: 'US', implicit: false });
    clickReview('Review');
    await fake.until(() => fake.window.messages.length > 1, 'the answer to Review');
    assert.equal(fake.window.inputs.length, shown, 'no review of the other profile’s body');
    assert.equal(
      fake.window.messages.at(-1)?.message,
      'You switched to profile “US” while this deployment was being prepared for another: nothing was sent. Start Create Deployment again.',
    );
    assert.equal(posted.length, 1);
  });

  it('a request left without an answer warns that it may exist, and the review offers to check', async () => {
    const { create, posted } = setUp({
      create: async () => {
        throw new ControlPlaneError('cancelled');
      },
    });
    const done = create({ repository: storefront, name: 'maybe-made', confirm: true });
    const review = await fake.window.nextQuickPick();
    assert.deepEqual(
      fake.window.messages.map((m) => [m.level, m.message, m.actions]),
      [
        [
          'warning',
          'Stopped waiting for the control plane. “maybe-made” may still be created: check the Deployments view before sending it again.',
          ['Check Deployments'],
        ],
      ],
    );
    assert.deepEqual(review.labels.slice(0, 2), ['The request was cancelled.', '']);
    assert.equal(review.labels.some((label) => /refused/.test(label)), false, 'no answer is not a refusal');
    review.pick('The request was cancelled.');
    const result = await done;
    assert.equal(result.outcome, 'cancelled');
    assert.equal(posted.length, 1, 'not sent again');
    // By the name alone: another filter in force (a status) could leave the new deployment out.
    const noOtherFilter = Object.fromEntries(FILTER_NAMES.map((filter) => [filter, undefined]));
    await fake.until(() => fake.commands.executed.length >= 2, 'the Deployments view to be filtered');
    assert.deepEqual(
      fake.commands.executed.map((c) => [c.command, ...c.args]),
      [['deploymentsExplorer.deployments.focus'], ['deploymentsExplorer.filterDeployments', { ...noOtherFilter, nameContains: 'maybe-made' }]],
    );
  });

  it('an accepted request whose answer is not a record is not called a refusal: the review offers to check, not to send again', async () => {
    // A 201 or 202 without a body (or with one that is not a record) took effect: sending it again makes a second deployment.
    for (const error of [new ControlPlaneError('invalidResponse', { status: 201, snippet: '' }), new ControlPlaneError('schema', { what: 'The created deployment', problems: [{ path: 'id', message: 'expected a UUID' }] })]) {
      fake.resetFake();
      const { create, posted } = setUp({
        create: async () => {
          throw error;
        },
      });
      const done = create({ repository: storefront, name: 'made-anyway', confirm: true });
      const review = await fake.window.nextQuickPick();
      assert.deepEqual(
        fake.window.messages.map((m) => [m.level, m.message, m.actions]),
        [
          [
            'warning',
            `The control plane accepted “made-anyway”, but its answer could not be read: ${error.message.split('\n').join(' ')} Check the Deployments view before sending it again.`,
            ['Check Deployments'],
          ],
        ],
      );
      assert.equal(review.labels.some((label) => /refused/.test(label) || /refused/.test(review.find(label)?.description ?? '')), false, 'not a refusal');
      const first = review.labels[0];
      assert.equal(review.find(first)?.description, 'accepted, but its answer could not be read: check the Deployments view before sending again');
      review.pick(first);
      const result = await done;
      assert.equal(result.outcome, 'cancelled');
      assert.equal(posted.length, 1, 'not sent again');
    }
  });

  it('the type step and the review show what the defaults setting adds', async () => {
    const { create, posted } = setUp();
    // A type at the top level: defaults written for 0.x.
    fake.workspace.set('deploymentsExplorer.createDeployment.defaults', { deployment_type: 'prod', secrets: [], name: 'not-this' });
    const done = create({ repository: storefront });
    (await fake.window.nextInputBox()).accept();
    (await fake.window.nextInputBox()).accept();
    const type = await fake.window.nextQuickPick();
    assert.equal(type.find('Don’t set')?.description, 'keeps prod from the defaults setting');
    type.accept();
    const review = await fake.window.nextQuickPick();
    assert.deepEqual(review.labels.slice(4), [
      'source',
      'secrets',
      'name',
      'source_config.integration_id',
      'source_config.repo_url',
      'source_config.deployment_type',
      'source_revision_config.repo_ref',
    ]);
    assert.equal(review.find('name')?.description, '"storefront"', 'the repository’s values win over the defaults');
    review.accept();
    assert.equal((await done).outcome, 'created');
    assert.equal((posted[0].source_config as Record<string, unknown>).deployment_type, 'prod', 'moved where the real service reads it');
    assert.equal('deployment_type' in posted[0], false);
  });

  it('Edit Payload… opens the body as a JSON document instead of sending', async () => {
    const { create, posted } = setUp();
    const done = create({ repository: infra, name: 'infra-edit', ref: 'trunk', deploymentType: null });
    (await fake.window.nextInputBox()).accept();
    (await fake.window.nextInputBox()).accept();
    (await fake.window.nextQuickPick()).accept();
    (await fake.window.nextQuickPick()).pick('Edit Payload…');
    const result = await done;
    assert.equal(result.outcome, 'editing');
    assert.ok(result.outcome === 'editing');
    const document = fake.workspace.textDocuments.find((d) => d.uri.toString() === result.document);
    assert.ok(document, 'the document is open');
    assert.equal(document.languageId, 'json');
    assert.equal(document.uri.toString(), 'untitled:/infra-edit.deployment.json', 'named so the payload schema applies');
    assert.deepEqual(JSON.parse(document.getText()), result.body);
    assert.match(
      document.getText(),
      /^\{\n  "source": "github",\n  "secrets": \[\],\n  "name": "infra-edit",\n  "source_config": \{\n    "integration_id": [^]*\n\}\n$/,
      'pretty-printed, with a final newline',
    );
    assert.deepEqual(fake.commands.context.get('deploymentsExplorer.payloadDocuments'), [result.document], 'its editor title offers Create Deployment');
    assert.equal(posted.length, 0, 'nothing is sent before the user asks');
  });

  it('Create Deployment on an edited payload sends it once, however often it is asked while the first is on its way', async () => {
    let answer!: () => void;
    const { services, deployments, posted } = setUp({
      create: (body) => new Promise((resolve) => (answer = () => resolve({ id: '00000000-0000-4000-8000-000000000001', name: String(body.name) }))),
    });
    registerCreateDeployment(services, deployments);
    const opened = await fake.commands.executeCommand<CreateResult>('deploymentsExplorer.createDeployment', { repository: infra, name: 'infra-edit', openPayload: true });
    assert.ok(opened.outcome === 'editing');
    const uri = fake.Uri.parse(opened.document);
    const first = fake.commands.executeCommand<{ outcome: string }>('deploymentsExplorer.sendPayload', uri);
    await fake.until(() => posted.length === 1, 'the first request');
    const second = await fake.commands.executeCommand<{ outcome: string } | undefined>('deploymentsExplorer.sendPayload', uri);
    assert.equal(posted.length, 1, 'a second click while the first request is on its way sends nothing');
    assert.deepEqual(second, { outcome: 'sending' });
    assert.ok(fake.window.messages.some((m) => m.message === '“infra-edit” is being sent already: its answer comes in the progress notification.'), JSON.stringify(fake.window.messages));
    answer();
    assert.equal((await first).outcome, 'created');
    assert.deepEqual(fake.commands.context.get('deploymentsExplorer.payloadDocuments'), [], 'sent: its editor title no longer offers Create Deployment');
  });

  it('with no integration known, offers to add one', async () => {
    const { create } = setUp({ integrations: [] });
    fake.window.answer = (message) => (message.actions.includes('Add Integration…') ? 'Add Integration…' : undefined);
    const result = await create();
    assert.deepEqual(result, { outcome: 'cancelled', step: 'integration' });
    assert.deepEqual(fake.window.messages.map((m) => m.message), ['No code-host integrations are known yet. Add one by its ID to pick a repository from it.']);
    assert.deepEqual(fake.commands.executed.map((c) => c.command), ['deploymentsExplorer.addIntegration']);
    assert.equal(fake.window.inputs.length, 0);
  });

  it('says so when an integration lists no repositories', async () => {
    const { create } = setUp({ integrations: [{ id: ACME, label: 'Acme' }], repositories: { [ACME]: [] } });
    const done = create();
    const repo = await (await fake.window.nextQuickPick()).loaded();
    assert.deepEqual(repo.labels, []);
    assert.deepEqual(fake.window.messages.map((m) => m.message), ['The integration Acme lists no repositories. Go Back to pick another.']);
    repo.escape();
    assert.equal((await done).outcome, 'cancelled');
  });
});
