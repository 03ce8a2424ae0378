// Row commands run with no row given (from a keybinding): they act on the rows selected in the
// Deployments view, all of them. The extension runs activated over the fake vscode module against
// the stand-in; the context menu's path (a clicked row and the selection) runs in the real workbench.
import { commands, env, window } from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { StandIn } from '../server/standIn';
import { simulateWindowStart, type WindowStart } from './helpers/windowStart';
import type { DeploymentElement } from '../../src/features/deployments/deploymentsTreeProvider';

describe('deployment row commands with no row given', () => {
  let standIn: StandIn;
  let start: WindowStart | undefined;

  before(async () => {
    standIn = await StandIn.start();
  });
  afterEach(() => {
    start?.dispose();
    start = undefined;
  });
  after(async () => {
    await standIn.close();
  });

  /** Starts the window and selects the first `count` deployment rows, as Ctrl+click would. */
  async function select(count: number): Promise<DeploymentElement[]> {
    start = await simulateWindowStart(standIn);
    const view = window.treeViews.get('deploymentsExplorer.deployments')!;
    const rows = (start.rows.get('deploymentsExplorer.deployments') ?? []) as DeploymentElement[];
    const selected = rows.filter((row) => row.kind === 'deployment' && !!row.item.deployment.id).slice(0, count);
    assert.equal(selected.length, count, 'deployment rows to select');
    view.selection = selected;
    return selected;
  }

  it('Compare Deployments compares the two selected deployments, not only the first', async () => {
    const [left, right] = await select(2);
    const compared = await commands.executeCommand<string[]>('deploymentsExplorer.compareDeployments');
    assert.deepEqual(compared, [left.item.key, right.item.key]);
    const diff = commands.executed.find((run) => run.command === 'vscode.diff');
    assert.ok(diff, 'a diff editor was opened');
    const title = String(diff.args[2]);
    assert.ok(title.includes(left.item.deployment.name!) && title.includes(right.item.deployment.name!), title);
  });

  it('Copy Deployment ID copies the ID of every selected deployment', async () => {
    const selected = await select(3);
    await commands.executeCommand('deploymentsExplorer.copyDeploymentId');
    assert.equal(await env.clipboard.readText(), selected.map((row) => row.item.deployment.id).join('\n'));
  });

  it('Compare Deployments with one selected says it needs two', async () => {
    await select(1);
    await commands.executeCommand('deploymentsExplorer.compareDeployments');
    assert.ok(
      window.messages.some((shown) => shown.level === 'error' && /^Select two deployments to compare .*; 1 selected\.$/.test(shown.message)),
      JSON.stringify(window.messages),
    );
    assert.ok(!commands.executed.some((run) => run.command === 'vscode.diff'), 'no diff editor');
  });
});
