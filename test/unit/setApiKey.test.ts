// Set API Key… checks the key with one request, under a notification that can be cancelled: against a
// server that never answers, Cancel ends the wait at once and says the key was saved but not checked.
// The extension runs activated over the fake vscode module against the stand-in.
import { commands, until, window } from './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StandIn } from '../server/standIn';
import { simulateWindowStart, type WindowStart } from './helpers/windowStart';

describe('Set API Key…', () => {
  let standIn: StandIn;
  let start: WindowStart | undefined;

  before(async () => {
    standIn = await StandIn.start();
  });
  after(async () => {
    start?.dispose();
    await standIn.close();
  });

  it('checks the key under a cancellable notification; Cancel stops the wait and says it was not checked', async () => {
    start = await simulateWindowStart(standIn);
    standIn.addFault({ fault: { kind: 'hang' }, pathPrefix: '/v2/deployments' });
    const setting = commands.executeCommand<string>('deploymentsExplorer.setApiKey', `${standIn.apiKey}-new`);
    await until(() => window.progress.some((shown) => shown.options.title === 'Checking the API key…' && !shown.done), 'the check to start');
    const check = window.progress.find((shown) => shown.options.title === 'Checking the API key…')!;
    assert.equal(check.options.cancellable, true);
    check.cancel();
    assert.equal(await setting, 'unchecked');
    assert.ok(check.done, 'the notification closed');
    assert.ok(
      window.messages.some((shown) => shown.level === 'warning' && /^API key saved, but it could not be checked: .*cancel/i.test(shown.message)),
      JSON.stringify(window.messages),
    );
  });

  it('a key refused for want of a tenant says so and leads to Set Tenant ID…, not to another key', async () => {
    start?.dispose();
    start = undefined;
    const tenanted = await StandIn.start({ requireTenant: 'tenant-a' });
    const tenantedStart = await simulateWindowStart(tenanted);
    try {
      window.messages.length = 0;
      assert.equal(await commands.executeCommand<string>('deploymentsExplorer.setApiKey', tenanted.apiKey), 'refused');
      assert.deepEqual(
        window.messages.map((shown) => [shown.level, shown.message, shown.actions]),
        [
          [
            'warning',
            'API key saved. The control plane wants a tenant (workspace) ID with it: This API key requires workspace specification (X-Tenant-Id header)',
            ['Set Tenant ID…'],
          ],
        ],
      );
    } finally {
      tenantedStart.dispose();
      await tenanted.close();
    }
  });

  it('refuses a key with a character HTTP cannot carry before storing or sending it', async () => {
    start?.dispose();
    start = await simulateWindowStart(standIn);
    window.messages.length = 0;
    const requests = standIn.requests.length;
    await commands.executeCommand('deploymentsExplorer.setApiKey', `${standIn.apiKey}\u200b`);
    assert.ok(
      window.messages.some((shown) => shown.level === 'error' && /^This key cannot be used: .*\(U\+200B\)/.test(shown.message)),
      JSON.stringify(window.messages),
    );
    assert.equal(standIn.requests.length, requests);
    assert.equal(await commands.executeCommand<string>('deploymentsExplorer.setApiKey', standIn.apiKey), 'accepted', 'the command still works');
  });
});
