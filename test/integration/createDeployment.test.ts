// Creating deployments inside VS Code's real extension host, against the
// control-plane stand-in: what the POST body carries, the defaults setting,
// a refused request (422) that keeps every value, the edited payload
// document, and Deploy This Workspace matching an ssh remote.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { StandIn } from '../server/standIn';
import { config, snapshotSettings, useApiKey, useSuiteFixture, waitFor } from './support';

const KEY = `sk-create-test-${Math.random().toString(36).slice(2)}`;

type Body = {
  name?: string;
  deployment_type?: string;
  source_config?: Record<string, unknown>;
  source_revision_config?: Record<string, unknown>;
  [key: string]: unknown;
};
type Result = {
  outcome: string;
  deployment?: { id: string; name: string };
  body?: Body;
  document?: string;
  step?: string;
  draft?: { name: string; ref: string; deploymentType?: string; changes?: unknown };
  lastError?: { message: string; issues: Array<{ loc: string; msg: string }> };
  message?: string;
  line?: number;
  column?: number;
  remotes?: Array<{ name: string; url: string }>;
};

function integration(standIn: StandIn, label: string) {
  const found = standIn.integrations.find((i) => i.label === label);
  assert.ok(found, label);
  return found;
}

describe('Create deployment', function () {
  this.timeout(60000);
  const fx = useSuiteFixture({
    key: KEY,
    settings: (standIn) => ({
      'createDeployment.defaults': undefined,
      integrations: [
        { id: integration(standIn, 'acme-github').id, label: 'Acme' },
        { id: integration(standIn, 'platform-gitlab').id, label: 'Platform' },
      ],
    }),
    prepare: ({ api, onRestore }) =>
      onRestore(async () => {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        api.watch.scheduler.replaceAll([]);
      }),
  });
  const { shown } = fx.messages;
  const tempDirs: string[] = [];

  const repository = (label: string, name: string) => {
    const found = integration(fx.standIn, label).repositories.find((r) => r.name === name);
    assert.ok(found, `${label}/${name}`);
    return found;
  };
  const posts = () => fx.standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v2/deployments');
  const create = (argument: unknown) => vscode.commands.executeCommand<Result>('deploymentsExplorer.createDeployment', argument);
  const setDefaults = (value: unknown) => config().update('createDeployment.defaults', value, vscode.ConfigurationTarget.Global);

  after(() => {
    for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    fx.messages.clear();
    // reset() removes the deployments created so far: stop following them, or they would be reported as no longer listed.
    fx.api.watch.scheduler.replaceAll([]);
    fx.standIn.reset();
  });

  it('sends the repository record’s integration, URL and default branch, and shows the new deployment', async () => {
    const storefront = repository('acme-github', 'storefront');
    // What the Integrations tree passes from the repository row's inline action.
    const node = { kind: 'repository', integrationId: storefront.host_integration_id, id: 'repo-node', repository: storefront };
    const result = await create({ ...node, confirm: true });

    assert.equal(result?.outcome, 'created', JSON.stringify(result));
    assert.equal(posts().length, 1);
    const body = posts()[0].body as Body;
    assert.equal(body.source_config?.integration_id, storefront.host_integration_id);
    assert.equal(body.source_config?.repo_url, storefront.url);
    assert.equal(body.source_revision_config?.repo_ref, storefront.default_branch);
    assert.equal(body.name, 'storefront');
    assert.equal('deployment_type' in body, false, 'no type was chosen');
    assert.equal('deployment_type' in body.source_config!, false, 'no type was chosen');
    // What the real service requires besides the contract's three fields.
    assert.equal(body.source, 'github');
    assert.deepEqual(body.secrets, []);

    const id = result!.deployment!.id;
    assert.ok(fx.standIn.deployments.some((d) => d.id === id), 'the stand-in stored it');
    const toast = shown.find((s) => s.level === 'info' && s.message.includes('“storefront” created'));
    assert.ok(toast, JSON.stringify(shown));
    assert.deepEqual(toast.actions, ['Copy ID', 'Show']);

    // The Deployments view was refreshed and holds the new record.
    const provider = fx.api.deployments.provider;
    await waitFor('the new deployment in the Deployments view', () =>
      provider.getChildren().some((element) => element.kind === 'deployment' && element.item.deployment.id === id),
    );
  });

  it('Show opens the new deployment’s JSON even when the view’s filters leave it out', async () => {
    const filters = fx.api.deployments.filters;
    await filters.update({ nameContains: 'zz-no-such-deployment' });
    try {
      fx.messages.answers.info.push('Show');
      const result = await create({ repository: repository('acme-github', 'storefront'), name: 'shown-while-filtered', confirm: true });
      assert.equal(result?.outcome, 'created', JSON.stringify(result));
      const text = await waitFor('the JSON document', () => {
        const editor = vscode.window.activeTextEditor;
        return editor?.document.uri.scheme === 'deployments-explorer-deployment' ? editor.document.getText() : undefined;
      });
      assert.equal(JSON.parse(text).id, result!.deployment!.id);
      assert.ok(!shown.some((s) => s.level === 'error'), JSON.stringify(shown));
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      await filters.clear();
    }
  });

  it('sends a changed ref, a chosen type and normalises the default name', async () => {
    const payments = repository('acme-github', 'Payments_API');
    const result = await create({ repository: payments, ref: 'refs/tags/v1.2.0', deploymentType: 'prod', confirm: true });
    assert.equal(result?.outcome, 'created', JSON.stringify(result));
    const body = posts()[0].body as Body;
    assert.equal(body.source_revision_config?.repo_ref, 'refs/tags/v1.2.0');
    assert.notEqual(payments.default_branch, 'refs/tags/v1.2.0');
    assert.equal(body.source_config?.deployment_type, 'prod');
    assert.equal(body.name, 'payments-api');
    assert.equal(body.source_config?.repo_url, payments.url);
  });

  it('merges the defaults setting under the pre-filled values', async () => {
    await setDefaults({
      source: 'github',
      secrets: [],
      name: 'not-this-name',
      source_config: { build_on_push: true, repo_url: 'https://example.invalid/not-this' },
      source_revision_config: { graph_config_path: 'langgraph.json' },
    });
    try {
      const runtime = repository('acme-github', 'agent-runtime');
      const result = await create({ repository: runtime, name: 'agent-runtime-defaults', confirm: true });
      assert.equal(result?.outcome, 'created', JSON.stringify(result));
      assert.deepEqual(posts()[0].body, {
        source: 'github',
        secrets: [],
        name: 'agent-runtime-defaults',
        source_config: { build_on_push: true, repo_url: runtime.url, integration_id: runtime.host_integration_id },
        source_revision_config: { graph_config_path: 'langgraph.json', repo_ref: runtime.default_branch },
      });
    } finally {
      await setDefaults(undefined);
    }
  });

  it('shows the server’s reasons for a 422, returns to the review and keeps every value', async () => {
    const checkout = repository('acme-github', 'checkout-service');
    const running = create({ repository: checkout, name: 'Checkout_Service', ref: 'release/2', deploymentType: 'dev', confirm: true });
    let settled = false;
    void running.then(() => (settled = true));

    const error = await waitFor('the error message', () => shown.find((s) => s.level === 'error'));
    assert.match(error.message, /HTTP 422/);
    assert.match(error.message, /body\.name: String should match pattern/);
    assert.equal(error.actions.includes('Retry'), false, 'a POST is never offered for a blind retry');
    // The flow is back at its review step (a quick pick): leave it as a user pressing Escape would.
    await waitFor('the flow to end', async () => {
      if (!settled) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return settled;
    });
    const result = await running;
    assert.equal(result?.outcome, 'cancelled');
    assert.equal(result?.step, 'review');
    assert.deepEqual(result?.draft, { name: 'Checkout_Service', ref: 'release/2', deploymentType: 'dev' });
    assert.deepEqual(result?.lastError?.issues.map((issue) => issue.loc), ['body.name']);
    assert.equal(posts().length, 1, 'sent once, not retried');

    // Reopening the flow for the same repository starts from what was typed.
    const fixed = await create({ repository: checkout, name: 'checkout-fixed', confirm: true });
    assert.equal(fixed?.outcome, 'created', JSON.stringify(fixed));
    const body = posts()[1].body as Body;
    assert.equal(body.name, 'checkout-fixed');
    assert.equal(body.source_revision_config?.repo_ref, 'release/2');
    assert.equal(body.source_config?.deployment_type, 'dev');

    // Once created, the draft is done with: the next flow starts from the record again.
    await create({ repository: checkout, confirm: true });
    const fresh = posts()[2].body as Body;
    assert.equal(fresh.name, 'checkout-service');
    assert.equal(fresh.source_revision_config?.repo_ref, checkout.default_branch);
  });

  it('keeps the values when the server requires fields the contract does not show', async () => {
    const strict = await StandIn.start({ apiKey: KEY, requiredCreateFields: ['source', 'source_revision_config.graph_config_path'] });
    await config().update('baseUrl', strict.url, vscode.ConfigurationTarget.Global);
    // Another origin: the key goes there once stored for it (the profile keeps its answer for the first one).
    await useApiKey(fx.api, KEY);
    try {
      // Same sample data (same seed), so the record is valid on this server too.
      const docs = repository('acme-github', 'docs.acme.dev');
      const running = create({ repository: docs, confirm: true });
      let settled = false;
      void running.then(() => (settled = true));
      const error = await waitFor('the error message', () => shown.find((s) => s.level === 'error'));
      assert.doesNotMatch(error.message, /body\.source: Field required/, 'source is sent by default');
      assert.match(error.message, /body\.source_revision_config\.graph_config_path: Field required/);
      await waitFor('the flow to end', async () => {
        if (!settled) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        return settled;
      });
      const result = await running;
      assert.equal(result?.step, 'review');
      assert.deepEqual(result?.draft, {
        name: 'docs-acme-dev',
        ref: 'trunk',
        // Added for the review, empty: a value only the user can give.
        changes: { added: { 'source_revision_config.graph_config_path': { value: '', needsValue: true } }, removed: [] },
      });

      await setDefaults({ source: 'github', source_revision_config: { graph_config_path: 'config.json' } });
      const again = await create({ repository: docs, confirm: true });
      assert.equal(again?.outcome, 'created', JSON.stringify(again));
      const sent = strict.requests.filter((r) => r.method === 'POST').map((r) => r.body as Body);
      assert.equal(sent.length, 2);
      assert.equal(sent[1].source, 'github');
      assert.equal(sent[1].source_revision_config?.graph_config_path, 'config.json');
    } finally {
      await setDefaults(undefined);
      await config().update('baseUrl', fx.standIn.url, vscode.ConfigurationTarget.Global);
      await strict.close();
    }
  });

  it('opens the payload for editing, reports invalid JSON with its position and sends the edited body', async () => {
    const storefront = repository('acme-github', 'storefront');
    const opened = await create({ repository: storefront, name: 'storefront-edited', openPayload: true });
    assert.equal(opened?.outcome, 'editing', JSON.stringify(opened));
    const uri = vscode.Uri.parse(opened!.document!);
    const document = await waitFor('the payload document', () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()));
    assert.equal(document.languageId, 'json');
    assert.deepEqual(JSON.parse(document.getText()), opened!.body);
    assert.equal(posts().length, 0, 'nothing is sent before the user asks');

    try {
      const replaceAll = async (text: string) => {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(uri, new vscode.Range(0, 0, document.lineCount + 1, 0), text);
        assert.ok(await vscode.workspace.applyEdit(edit));
      };
      await replaceAll('{\n  "name": "storefront-edited",\n}\n');
      const invalid = await vscode.commands.executeCommand<Result>('deploymentsExplorer.sendPayload', uri);
      assert.equal(invalid?.outcome, 'invalid');
      assert.deepEqual([invalid?.line, invalid?.column], [3, 1]);
      assert.ok(shown.some((s) => s.level === 'error' && /line 3, column 1/.test(s.message)), JSON.stringify(shown));
      assert.equal(posts().length, 0);

      const edited = { ...opened!.body, deployment_type: 'dev_free', secrets: [] };
      await replaceAll(JSON.stringify(edited, null, 2));
      const sent = await vscode.commands.executeCommand<Result>('deploymentsExplorer.sendPayload', uri);
      assert.equal(sent?.outcome, 'created', JSON.stringify(sent));
      assert.deepEqual(posts()[0].body, edited);
    } finally {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  function gitFolder(remoteUrl: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'de-create-ws-'));
    tempDirs.push(dir);
    try {
      execFileSync('git', ['init', '-q', dir]);
      execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', remoteUrl]);
    } catch {
      // No git binary: a hand-written repository config is what the extension reads anyway.
      fs.mkdirSync(path.join(dir, '.git'));
      fs.writeFileSync(path.join(dir, '.git', 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${remoteUrl}\n`);
    }
    return dir;
  }

  it('matches a workspace whose git remote is the ssh form of a repository URL', async () => {
    const runtime = repository('acme-github', 'agent-runtime');
    assert.match(runtime.url, /^https:\/\/github\.com\/acme-labs\/agent-runtime$/);
    const folder = gitFolder('git@github.com:acme-labs/agent-runtime.git');
    const result = await vscode.commands.executeCommand<Result>('deploymentsExplorer.deployWorkspace', {
      folders: [folder],
      name: 'agent-runtime-ws',
      confirm: true,
    });
    assert.equal(result?.outcome, 'created', JSON.stringify(result));
    const body = posts()[0].body as Body;
    assert.equal(body.source_config?.repo_url, runtime.url);
    assert.equal(body.source_config?.integration_id, runtime.host_integration_id);
    assert.equal(body.source_revision_config?.repo_ref, runtime.default_branch);
    const offer = await waitFor('the offer to pin', () => shown.find((s) => /Keep “agent-runtime-ws” in the status bar/.test(s.message)));
    assert.deepEqual(offer.actions, ['Pin to Status Bar']);
  });

  it('finds the repository in an integration of 150,000 repositories', async () => {
    const large = fx.standIn.addIntegration({ repositoryCount: 150_000 });
    const target = large.repositories[149_999];
    const restore = await snapshotSettings(fx.api, ['integrations']);
    try {
      await config().update('integrations', [{ id: large.id, label: 'Large' }], vscode.ConfigurationTarget.Global);
      fx.api.services.catalog.invalidate();
      const folder = gitFolder(`${target.url}.git`);
      const result = await vscode.commands.executeCommand<Result>('deploymentsExplorer.deployWorkspace', {
        folders: [folder],
        name: 'large-ws',
        confirm: true,
      });
      assert.equal(result?.outcome, 'created', JSON.stringify(result));
      assert.equal((posts()[0].body as Body).source_config?.repo_url, target.url);
    } finally {
      await restore();
      fx.standIn.removeIntegration(large.id);
    }
  });

  it('with several matching repositories, each row names its integration and default branch, and the progress has closed first', async () => {
    const runtime = repository('acme-github', 'agent-runtime');
    const other = integration(fx.standIn, 'platform-gitlab').repositories[0];
    const folder = gitFolder('git@github.com:acme-labs/agent-runtime.git');
    fs.appendFileSync(path.join(folder, '.git', 'config'), `[remote "upstream"]\n\turl = ${other.url}.git\n`);
    fx.api.services.catalog.invalidate(); // nothing cached: the search shows its progress notification

    type Item = vscode.QuickPickItem & { match?: unknown };
    const window = vscode.window as unknown as Record<string, unknown>;
    const originals = { showQuickPick: window.showQuickPick, withProgress: window.withProgress };
    const progress: Array<{ title?: string; shownAt: number; doneAt?: number }> = [];
    let picked: { items: Item[]; at: number } | undefined;
    window.withProgress = (options: vscode.ProgressOptions, task: (...args: unknown[]) => Promise<unknown>) => {
      const entry: { title?: string; shownAt: number; doneAt?: number } = { title: options.title, shownAt: Date.now() };
      progress.push(entry);
      return (originals.withProgress as typeof vscode.window.withProgress)(options, (...args) =>
        task(...args).finally(() => (entry.doneAt = Date.now())),
      );
    };
    window.showQuickPick = async (items: Item[] | Thenable<Item[]>) => {
      const all = await items;
      picked = { items: all, at: Date.now() };
      return all.find((item) => item.label.endsWith(`${other.owner}/${other.name}`));
    };
    try {
      const result = await vscode.commands.executeCommand<Result>('deploymentsExplorer.deployWorkspace', {
        folders: [folder],
        name: 'two-matches-ws',
        confirm: true,
      });
      assert.equal(result?.outcome, 'created', JSON.stringify(result));
    } finally {
      window.showQuickPick = originals.showQuickPick;
      window.withProgress = originals.withProgress;
    }
    assert.ok(picked, 'the pick opened');
    assert.deepEqual(
      picked.items.map((item) => [item.label, item.description]).sort(),
      [
        [`$(repo) ${runtime.owner}/${runtime.name}`, `Acme · default branch ${runtime.default_branch}`],
        [`$(repo) ${other.owner}/${other.name}`, `Platform · default branch ${other.default_branch}`],
      ].sort(),
    );
    assert.notEqual(picked.items[0].detail, picked.items[1].detail, 'rows can be told apart by more than their labels');
    const search = progress.find((entry) => entry.title === 'Looking for this workspace’s repository…');
    assert.ok(search?.doneAt, 'the search showed its progress');
    // VS Code keeps a progress notification up until its task is done and 800 ms have passed.
    assert.ok(picked.at >= search.doneAt && picked.at >= search.shownAt + 800, `pick at +${picked.at - search.shownAt} ms, search done at +${search.doneAt - search.shownAt} ms`);
    assert.equal(posts()[0]?.body && (posts()[0].body as Body).source_config?.repo_url, other.url, 'the picked repository is deployed');
  });

  it('names the remotes it tried when nothing matches', async () => {
    const folder = gitFolder('git@github.com:someone-else/unknown-app.git');
    const result = await vscode.commands.executeCommand<Result>('deploymentsExplorer.deployWorkspace', { folders: [folder], confirm: true });
    assert.equal(result?.outcome, 'noMatch');
    const warning = await waitFor('the warning', () => shown.find((s) => s.level === 'warning'));
    assert.match(warning.message, /No repository of the 2 known integrations matches the remotes origin \(git@github\.com:someone-else\/unknown-app\.git\)/);
    assert.ok(warning.actions.includes('Add Integration…'));
    assert.equal(posts().length, 0);
  });

  it('counts only the integrations it could search when nothing matches', async () => {
    const platform = integration(fx.standIn, 'platform-gitlab').id;
    await vscode.commands.executeCommand('deploymentsExplorer.refreshIntegrations');
    fx.standIn.addFault({ fault: { kind: 'status', status: 404 }, pathPrefix: `/v1/integrations/forge/codehost/${platform}/repos` });
    const folder = gitFolder('git@github.com:someone-else/unknown-app.git');
    try {
      const result = await vscode.commands.executeCommand<Result>('deploymentsExplorer.deployWorkspace', { folders: [folder], confirm: true });
      assert.equal(result?.outcome, 'noMatch');
      const warning = await waitFor('the warning', () => shown.find((s) => s.level === 'warning'));
      assert.match(warning.message, /^No repository of the 1 integration searched matches the remotes origin \(git@github\.com:someone-else\/unknown-app\.git\)\. Not searched: Platform: /);

      fx.messages.clear();
      const acme = integration(fx.standIn, 'acme-github').id;
      await vscode.commands.executeCommand('deploymentsExplorer.refreshIntegrations');
      fx.standIn.addFault({ fault: { kind: 'status', status: 404 }, pathPrefix: `/v1/integrations/forge/codehost/${acme}/repos` });
      await vscode.commands.executeCommand<Result>('deploymentsExplorer.deployWorkspace', { folders: [folder], confirm: true });
      const none = await waitFor('the warning', () => shown.find((s) => s.level === 'warning'));
      assert.doesNotMatch(none.message, /\.\.|\. *\./, 'one full stop after the reasons');
      assert.match(none.message, /^None of the 2 known integrations could be searched for the remotes origin \(git@github\.com:someone-else\/unknown-app\.git\): Acme: .*; Platform: /);
    } finally {
      fx.standIn.reset();
      await vscode.commands.executeCommand('deploymentsExplorer.refreshIntegrations');
    }
  });
});

// Against a stand-in that answers as the real service does: the type read from source_config, `source` and
// `secrets` required, a 409 for a second deployment of the same repository, ref and type.
describe('Create deployment against the real service’s shapes', function () {
  this.timeout(60000);
  const fx = useSuiteFixture({
    key: KEY,
    standIn: () => ({ realShapes: true }),
    settings: (standIn) => ({
      'createDeployment.defaults': undefined,
      integrations: [{ id: integration(standIn, 'acme-github').id, label: 'Acme' }],
    }),
    prepare: ({ api, onRestore }) =>
      onRestore(async () => {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        api.watch.scheduler.replaceAll([]);
      }),
  });
  const { shown } = fx.messages;
  const storefront = () => integration(fx.standIn, 'acme-github').repositories.find((r) => r.name === 'storefront')!;
  const posts = () => fx.standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v2/deployments');
  const create = (argument: unknown) => vscode.commands.executeCommand<Result>('deploymentsExplorer.createDeployment', argument);
  const setDefaults = (value: unknown) => config().update('createDeployment.defaults', value, vscode.ConfigurationTarget.Global);

  beforeEach(() => {
    fx.messages.clear();
    fx.api.watch.scheduler.replaceAll([]);
    fx.standIn.reset();
  });

  it('a dev create sends its type in source_config, and the service keeps it', async () => {
    const result = await create({ repository: storefront(), name: 'storefront-real-dev', ref: 'refs/tags/real-dev', deploymentType: 'dev', confirm: true });
    assert.equal(result?.outcome, 'created', JSON.stringify(result));
    assert.equal(posts().length, 1);
    const body = posts()[0].body as Body;
    assert.equal(body.source_config?.deployment_type, 'dev');
    assert.equal('deployment_type' in body, false, 'a top-level type is ignored by the real service, which then makes prod');
    assert.equal(body.source, 'github');
    assert.deepEqual(body.secrets, []);
    const stored = fx.standIn.deployments.find((d) => d.id === result!.deployment!.id) as Body | undefined;
    assert.equal(stored?.source_config?.deployment_type, 'dev');
  });

  it('a 422 naming a missing field comes back to the review with it added, and sends again once the user confirms', async () => {
    // The user's defaults leave secrets out; the service requires them.
    await setDefaults({ secrets: null });
    try {
      fx.messages.answers.info.push(undefined, 'Remember for This Profile');
      const running = create({ repository: storefront(), name: 'storefront-real-422', ref: 'refs/tags/real-422', deploymentType: 'dev', confirm: true });
      let settled = false;
      void running.then(() => (settled = true));
      const error = await waitFor('the refusal', () => shown.find((s) => s.level === 'error'));
      assert.match(error.message, /HTTP 422/);
      assert.match(error.message, /body\.secrets: Field required/);
      assert.equal('secrets' in (posts()[0].body as Body), false);

      // The review is open with secrets added; Enter on its Create row (the active one) sends again.
      let postsBeforeConfirming: number | undefined;
      await waitFor('the confirmed resend', async () => {
        if (!settled && posts().length === 1) {
          postsBeforeConfirming ??= posts().length;
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        }
        return settled;
      });
      assert.equal(postsBeforeConfirming, 1, 'nothing was sent again before the user confirmed');
      const result = await running;
      assert.equal(result?.outcome, 'created', JSON.stringify(result));
      assert.equal(posts().length, 2, 'two POSTs in all');
      const resent = posts()[1].body as Body;
      assert.deepEqual(resent.secrets, []);
      assert.equal(resent.name, 'storefront-real-422', 'the values entered are kept');
      assert.equal(resent.source_revision_config?.repo_ref, 'refs/tags/real-422');
      assert.equal(resent.source_config?.deployment_type, 'dev');

      // Offered once; remembered in this profile's create defaults, so the next create sends it at once.
      const offer = await waitFor('the offer to remember', () => shown.find((s) => s.message.startsWith('The server needed these changes to the body: secrets.')));
      assert.deepEqual(offer.actions, ['Remember for This Profile']);
      await waitFor('the defaults to be remembered', () => JSON.stringify(config().get('createDeployment.defaults')) === JSON.stringify({ secrets: [] }));
      const next = await create({ repository: storefront(), name: 'storefront-real-next', ref: 'refs/tags/real-next', confirm: true });
      assert.equal(next?.outcome, 'created', JSON.stringify(next));
      assert.equal(posts().length, 3);
      assert.equal(shown.filter((s) => s.message.startsWith('The server needed')).length, 1, 'offered once');
    } finally {
      await setDefaults(undefined);
    }
  });

  it('a 409 says the server’s reason, offers the existing deployment of that repository and ref, and sends nothing more', async () => {
    const first = await create({ repository: storefront(), name: 'storefront-real-a', ref: 'refs/tags/real-409', deploymentType: 'dev', confirm: true });
    assert.equal(first?.outcome, 'created', JSON.stringify(first));
    fx.messages.clear();
    fx.messages.answers.warning.push('Show Existing Deployment');

    const running = create({ repository: storefront(), name: 'storefront-real-b', ref: 'refs/tags/real-409', deploymentType: 'dev', confirm: true });
    let settled = false;
    void running.then(() => (settled = true));
    const conflict = await waitFor('the conflict', () => shown.find((s) => s.level === 'warning'));
    assert.equal(
      conflict.message,
      '“storefront-real-b” was not created: A deployment already exists for this agent environment (HTTP 409). “storefront-real-a” deploys the same repository and ref.',
    );
    assert.deepEqual(conflict.actions, ['Show Existing Deployment', 'Review']);
    const view = fx.api.deployments.treeView;
    await waitFor('the existing deployment to be selected', () =>
      view.selection.some((row) => row.kind === 'deployment' && row.item.deployment.id === first!.deployment!.id),
    );
    // The flow is back at its review with the values kept: leave it as a user pressing Escape would.
    await waitFor('the flow to end', async () => {
      if (!settled) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return settled;
    });
    const result = await running;
    assert.equal(result?.outcome, 'cancelled');
    assert.equal(result?.step, 'review');
    assert.equal(result?.draft?.name, 'storefront-real-b');
    assert.equal(posts().length, 2, 'never a second POST of the refused body');
    const lookups = fx.standIn.requests.filter((r) => r.method === 'GET' && r.path === '/v2/deployments' && r.query.name_contains !== undefined);
    // One listing call by the repository's name, or none when the deployment index is loaded.
    assert.ok(lookups.length <= 1 && lookups.every((r) => r.query.name_contains === 'storefront'), JSON.stringify(lookups.map((r) => r.query)));
  });
});
