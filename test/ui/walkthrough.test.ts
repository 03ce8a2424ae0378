// The first-run walkthrough: the welcome view links to it, its five steps show, and a step
// completes when its command runs (here: Set Base URL… from the step's own button).
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { poll, snapshotUserSettings, VIEW_NAMES, Workbench } from './workbench';

let settings: ReturnType<typeof snapshotUserSettings> | undefined;
let wb: Workbench;

before(async () => {
  settings = snapshotUserSettings({ without: ['deploymentsExplorer.baseUrl'] });
  wb = await Workbench.open('walkthrough');
});

after(async () => {
  await wb?.close();
  settings?.restore();
});

test('the welcome view opens the Get Started walkthrough, whose first step completes on Set Base URL…', async () => {
  await wb.openDeploymentsContainer();
  await wb.waitForExtensionsActivated();
  const integrations = await wb.expandView(VIEW_NAMES.integrations);
  await integrations.locator('.welcome-view-content a, .welcome-view-content .monaco-button', { hasText: 'Open the Get Started walkthrough' }).first().click();

  const walkthrough = wb.page.locator('.gettingStartedContainer');
  await walkthrough.locator('.getting-started-category-title, h2', { hasText: 'Get Started with Deployments Explorer' }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const steps = walkthrough.locator('.getting-started-step');
  const titles = await poll('the five steps', async () => {
    const texts = await steps.locator('.step-title').allTextContents();
    return texts.length === 5 ? texts : undefined;
  });
  assert.deepEqual(titles, ["Set the control plane's address", 'Store your API key', 'Add or discover an integration', 'Create a deployment', 'Ask the agent']);
  const first = steps.filter({ hasText: "Set the control plane's address" });
  // VS Code marks a done step by the `complete` class on its check icon.
  const done = async () => (await first.locator('.codicon.complete').count()) > 0;
  assert.equal(await done(), false, 'not done before the URL is set');
  await wb.screenshot('walkthrough');

  await first.click();
  await first.locator('.monaco-button', { hasText: 'Set Base URL…' }).click();
  await wb.answerQuickInput(wb.env.standInUrl!);
  await poll('the first step to show as done', done);
  await wb.findRow(VIEW_NAMES.integrations, wb.env.integrations[0].label!, 30_000);
});
