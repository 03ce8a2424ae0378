// Deploy This Workspace's pick waits out the "Looking for this workspace's repository…"
// notification, which VS Code keeps up for at least 800 ms.
import './helpers/fakeVscodeHost';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progressNotificationGoneIn } from '../../src/features/createDeployment/deployWorkspace';

describe('Deploy This Workspace', () => {
  it('opens its pick only once the progress notification has closed', () => {
    assert.equal(progressNotificationGoneIn(1_000, 1_100), 850, 'a quick search: the rest of the 800 ms, and the fade');
    assert.equal(progressNotificationGoneIn(1_000, 1_950), 0, 'exactly gone');
    assert.equal(progressNotificationGoneIn(1_000, 5_000), 0, 'a slow search: the notification closed with it');
  });
});
