// The views inside VS Code's real extension host against the stand-in answering as the real service does
// (--real-shapes): the type in source_config.deployment_type (dev_zero among the values), `source`, records built
// from an image (repo_url and integration_id null), AWAITING_FINAL_DELETE. Rows, details and the Integrations view's
// "deployed: …" counts show the types; image-sourced records show their image and are never attributed to a
// repository nor add an integration. (This Workspace needs git enabled, which the workbench cannot undo for the suites
// after this one: its rows read the same index as the counts, and workspace.test.ts covers them.)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DeploymentElement, DeploymentsTreeElement, DetailElement } from '../../src/features/deployments/deploymentsTreeProvider';
import type { IntegrationsTreeNode } from '../../src/model/integrationRows';
import { SAMPLE_INTEGRATIONS, type Deployment } from '../server/standIn';
import { config, useSuiteFixture } from './support';

const KEY = `sk-real-shapes-test-${Math.random().toString(36).slice(2)}`;
const PAGE_SIZE = 20;
const ACME = SAMPLE_INTEGRATIONS.find((integration) => integration.label === 'acme-github')!;

/** The type as the real service keeps it; the stand-in's real-shaped records have none at the top level. */
const typeOf = (record: Deployment) => record.source_config?.deployment_type;

/** "deployed: …" as a person reads the records: prod, dev, dev_free, then the other types, then those without one. */
function deployedWords(records: readonly Deployment[]): string {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(typeOf(record) ?? '', (counts.get(typeOf(record) ?? '') ?? 0) + 1);
  const rank = (type: string) => (type === '' ? 4 : ['prod', 'dev', 'dev_free'].includes(type) ? ['prod', 'dev', 'dev_free'].indexOf(type) : 3);
  const types = [...counts.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const words = types.map((type) => {
    const count = counts.get(type)!;
    if (type === '') return `${count} without a type`;
    return count === 1 ? type : `${count} ${type}`;
  });
  return `deployed: ${words.join(', ')}`;
}

describe('Real service shapes', function () {
  this.timeout(90000);
  const fx = useSuiteFixture({
    key: KEY,
    standIn: () => ({ realShapes: true, deploymentCount: 300 }),
    settings: () => ({
      autoRefreshSeconds: 0,
      pageSize: PAGE_SIZE,
      integrations: [{ id: ACME.id }],
      profiles: undefined,
      defaultProfile: undefined,
      'workspace.scanLimit': undefined,
    }),
    prepare: ({ api, standIn, onRestore }) => {
      const previousFilters = api.deployments.filters.filters;
      onRestore(async () => {
        await api.deployments.filters.clear();
        await api.deployments.filters.update(previousFilters);
        for (const integration of standIn.integrations) api.services.catalog.forgetDiscovered(integration.id);
      });
    },
  });

  const feature = () => fx.api.deployments;
  const provider = () => feature().provider;
  const rootRows = () => provider().getChildren() as DeploymentsTreeElement[];
  const deploymentRows = () => rootRows().filter((e): e is DeploymentElement => e.kind === 'deployment');
  const item = (element: DeploymentsTreeElement) => provider().getTreeItem(element) as vscode.TreeItem;
  /** The row's tooltip as read: one `Label: value` a line (appendText escapes Markdown and keeps spaces as &nbsp;). */
  const tooltip = (row: DeploymentElement) =>
    (provider().resolveTreeItem(item(row), row).tooltip as vscode.MarkdownString).value
      .replace(/\\(.)/g, '$1')
      .replace(/&nbsp;/g, ' ')
      .split('\n')
      .map((line) => line.trim());
  const details = (parent: DeploymentElement | DetailElement) => provider().getChildren(parent) as DetailElement[];
  const detail = (parent: DeploymentElement | DetailElement, label: string) => details(parent).find((child) => child.node.label === label);
  const recordOf = (row: DeploymentElement) => fx.standIn.deployments.find((record) => record.id === row.item.deployment.id)!;

  beforeEach(async () => {
    fx.messages.clear();
    await feature().filters.clear();
    fx.standIn.reset();
  });

  it('deployment rows show each record’s type from source_config, unknown ones as they came; none is off the contract', async () => {
    await feature().refresh();
    const rows = deploymentRows();
    assert.deepEqual(
      rows.map((row) => row.item.deployment.id),
      fx.standIn.deployments.slice(0, PAGE_SIZE).map((record) => record.id),
      'the first page, every record a row of its own (nulls and unknown values are not off the contract)',
    );
    assert.ok(rows.every((row) => !row.offContract && !/offContract/.test(String(item(row).contextValue))));
    const shown: string[] = [];
    for (const row of rows) {
      const type = typeOf(recordOf(row));
      const line = tooltip(row).find((text) => text.startsWith('Type: '));
      assert.equal(line, type ? `Type: ${type}` : undefined, `${String(item(row).label)}: ${tooltip(row).join(' | ')}`);
      if (type) shown.push(type);
    }
    assert.ok(shown.includes('dev_zero'), `types shown: ${shown.join(', ')}`);

    const zero = rows.find((row) => typeOf(recordOf(row)) === 'dev_zero')!;
    const general = detail(zero, 'General')!;
    assert.equal(item(detail(general, 'Deployment type')!).description, 'dev_zero');
    assert.equal(item(detail(general, 'Source')!).description, 'github');
    assert.equal(detail(detail(zero, 'Source')!, 'deployment_type'), undefined, 'the type once, in General');

    const deleting = rows.find((row) => recordOf(row).status === 'AWAITING_FINAL_DELETE');
    assert.ok(deleting, 'the first page has a deployment awaiting its final deletion');
    assert.match(String(item(deleting).description), /^Awaiting final deletion\b/);
    assert.equal((item(deleting).iconPath as vscode.ThemeIcon).id, 'trash');
  });

  it('a deployment built from an image shows its image in its tooltip and details, and offers no repository', async () => {
    await feature().refresh();
    const row = deploymentRows().find((candidate) => recordOf(candidate).source === 'external_docker');
    assert.ok(row, 'the first page has an image-sourced deployment');
    const record = recordOf(row);
    const image = String(record.source_revision_config?.image_uri);
    const lines = tooltip(row);
    assert.ok(lines.includes(`Image: ${image}`), lines.join(' | '));
    assert.ok(!lines.some((line) => /^(Repository|Ref):/.test(line)), lines.join(' | '));
    assert.doesNotMatch(String(item(row).contextValue), /\brepo\b|\bintegration\b/, 'no Open or Reveal Repository');

    const general = detail(row, 'General')!;
    assert.equal(item(detail(general, 'Source')!).description, 'external_docker');
    assert.equal(item(detail(detail(row, 'Revision')!, 'Image URI')!).description, image);
    const source = detail(row, 'Source')!;
    assert.equal(detail(source, 'Repository URL'), undefined);
    assert.equal(detail(source, 'Integration'), undefined);
  });

  it('the Integrations view’s repository rows count by the type in source_config; image-sourced records count nowhere and add no integration', async () => {
    // The acme repository with the most deployments, a dev_zero among them.
    const ofRepository = (repository: (typeof fx.standIn.integrations)[number]['repositories'][number]) =>
      fx.standIn.deployments.filter((record) => record.source_config?.repo_url === repository.url);
    const acme = fx.standIn.integrations.find((integration) => integration.id === ACME.id)!;
    const repository = acme.repositories
      .filter((candidate) => ofRepository(candidate).some((record) => typeOf(record) === 'dev_zero'))
      .sort((a, b) => ofRepository(b).length - ofRepository(a).length)[0];
    assert.ok(repository, 'an acme repository with a dev_zero deployment');
    const deployments = ofRepository(repository);

    // This Workspace's Refresh (its title bar, shown with or without a git repository): a scan of every deployment.
    await vscode.commands.executeCommand('deploymentsExplorer.refreshWorkspace');

    const tree = fx.api.integrations.provider;
    const roots = (await tree.getChildren()) as IntegrationsTreeNode[];
    const acmeNode = roots.find((node) => node.kind === 'integration' && node.integration.id === ACME.id);
    assert.ok(acmeNode, 'the acme integration is a row');
    const repositoryRows = (await tree.getChildren(acmeNode)) as IntegrationsTreeNode[];
    const described = (url: string) => {
      const node = repositoryRows.find((candidate) => candidate.kind === 'repository' && candidate.repository.url === url)!;
      return String(tree.getTreeItem(node).description);
    };
    assert.equal(described(repository.url), `${repository.owner} · ${repository.default_branch} · ${deployedWords(deployments)}`);
    for (const other of acme.repositories) {
      const counted = ofRepository(other);
      assert.equal(described(other.url), [`${other.owner} · ${other.default_branch}`, ...(counted.length ? [deployedWords(counted)] : [])].join(' · '));
    }
    const images = fx.standIn.deployments.filter((record) => record.source === 'external_docker');
    assert.ok(images.length > 0);
    const counted = acme.repositories.reduce((sum, each) => sum + ofRepository(each).length, 0);
    const fromAcme = fx.standIn.deployments.filter((record) => record.source_config?.integration_id === ACME.id).length;
    assert.equal(counted, fromAcme, 'every acme deployment counted once, no image-sourced one among them');

    // Discovery: the integrations the records name, none for the image-sourced ones.
    const summary = (await vscode.commands.executeCommand('deploymentsExplorer.discoverIntegrations')) as { found: number; deployments: number };
    const named = new Set(fx.standIn.deployments.flatMap((record) => (record.source_config?.integration_id ? [record.source_config.integration_id] : [])));
    assert.equal(summary.deployments, fx.standIn.deployments.length);
    assert.equal(summary.found, named.size);
    const integrationIds = ((await tree.getChildren()) as IntegrationsTreeNode[]).flatMap((node) => (node.kind === 'integration' ? [node.integration.id.toLowerCase()] : []));
    assert.deepEqual(new Set(integrationIds), named);
    assert.equal(config().get('discoverIntegrations'), false);
  });
});
