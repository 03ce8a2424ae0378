// Row commands run with no row given (from the Command Palette or a keybinding): they act on the rows
// selected in the Deployments view, all of them; Compare Deployments without two selected offers the
// loaded deployments to check; a command given a loaded deployment's ID takes the loaded record. The extension runs activated over the fake vscode module against the
// stand-in; the context menu's path (a clicked row and the selection) runs in the real workbench.
import { commands, env, window } from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { StandIn } from '../server/standIn';
import { simulateWindowStart, type WindowStart } from './helpers/windowStart';
import type { DeploymentElement } from '../../src/features/deployments/deploymentsTreeProvider';

describe('deployment row commands with no row given, or a deployment named by its ID', () => {
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

  it('Compare Deployments with one selected offers the loaded deployments, that one checked, and compares the two checked', async () => {
    const [first] = await select(1);
    const rows = (start!.rows.get('deploymentsExplorer.deployments') ?? []) as DeploymentElement[];
    const loaded = rows.filter((row) => row.kind === 'deployment');
    const comparing = commands.executeCommand<string[]>('deploymentsExplorer.compareDeployments');
    const pick = await window.nextQuickPick();
    assert.equal(pick.titleText, 'Compare Deployments');
    assert.deepEqual(pick.labels, loaded.map((row) => row.item.deployment.name));
    assert.deepEqual(pick.checkedLabels, [first.item.deployment.name]);

    // Three checked: the pick stays open and says how many.
    const [second, third] = loaded.slice(1, 3);
    pick.toggle(second.item.deployment.name!);
    pick.toggle(third.item.deployment.name!);
    pick.accept();
    assert.ok(pick.visible, 'still open');
    assert.equal(pick.placeholder, 'Check exactly two deployments to compare; 3 checked.');
    assert.ok(!commands.executed.some((run) => run.command === 'vscode.diff'), 'no diff editor yet');

    pick.toggle(first.item.deployment.name!);
    pick.accept();
    assert.deepEqual(await comparing, [second.item.key, third.item.key]);
    const diff = commands.executed.find((run) => run.command === 'vscode.diff');
    assert.ok(diff && String(diff.args[2]).includes(second.item.deployment.name!) && String(diff.args[2]).includes(third.item.deployment.name!));
  });

  it('Compare Deployments closed without an answer compares nothing', async () => {
    await select(1);
    const comparing = commands.executeCommand('deploymentsExplorer.compareDeployments');
    (await window.nextQuickPick()).escape();
    assert.equal(await comparing, undefined);
    assert.ok(!commands.executed.some((run) => run.command === 'vscode.diff'), 'no diff editor');
    assert.deepEqual(window.messages, []);
  });

  it('Watch Deployment takes the loaded record (its ID as listed, its name) without asking the control plane', async () => {
    start = await simulateWindowStart(standIn);
    const rows = (start.rows.get('deploymentsExplorer.deployments') ?? []) as DeploymentElement[];
    const row = rows.find((element) => element.kind === 'deployment' && !element.offContract && !!element.item.deployment.id && !!element.item.deployment.name);
    assert.ok(row, 'a loaded deployment with an ID and a name');
    const { id, name } = row.item.deployment;
    const requests = standIn.requests.length;
    const watched = await commands.executeCommand<string>('deploymentsExplorer.watchDeployment', ` ${id!.toUpperCase()} `);
    assert.equal(watched, id, 'the ID as the listing has it');
    assert.ok(window.statusBar.includes(`Watching deployment ${name}`), window.statusBar.join('\n'));
    assert.equal(standIn.requests.length, requests, 'nothing requested');
  });
});
