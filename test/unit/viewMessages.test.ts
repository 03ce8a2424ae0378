import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ViewMessages } from '../../src/platform/viewMessages';

describe('ViewMessages', () => {
  it('shows the connection note above the view’s own text, and neither erases the other', () => {
    const messages = new ViewMessages();
    const view: { message?: string } = {};
    messages.set(view, 'view', 'Filters: status READY');
    assert.equal(view.message, 'Filters: status READY');
    messages.set(view, 'connection', 'Showing https://eu.example.com, set by this workspace’s settings.');
    assert.equal(view.message, 'Showing https://eu.example.com, set by this workspace’s settings.\nFilters: status READY');
    messages.set(view, 'view', undefined);
    assert.equal(view.message, 'Showing https://eu.example.com, set by this workspace’s settings.');
    messages.set(view, 'connection', '');
    assert.equal(view.message, undefined, 'no part left: no message, so the welcome view can show');
  });

  it('writes the view only when a part changed, and keeps views apart', () => {
    const messages = new ViewMessages();
    let writes = 0;
    let shown: string | undefined;
    const counted = {
      get message() {
        return shown;
      },
      set message(value: string | undefined) {
        writes++;
        shown = value;
      },
    };
    const other: { message?: string } = {};
    messages.set(counted, 'view', 'A');
    messages.set(counted, 'view', 'A');
    messages.set(other, 'view', 'B');
    assert.equal(writes, 1);
    assert.equal(counted.message, 'A');
    assert.equal(other.message, 'B');
  });
});
