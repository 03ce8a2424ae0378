import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isUnrecognisedStatus, statusWords } from '../../src/model/deploymentStatus';

describe('statusWords', () => {
  it('says the known statuses in words', () => {
    assert.equal(statusWords('AWAITING_DATABASE'), 'Awaiting database');
    assert.equal(statusWords('AWAITING_DELETE'), 'Awaiting deletion');
    assert.equal(statusWords('READY'), 'Ready');
    assert.equal(statusWords('ready'), 'Ready');
  });

  it('turns any other value into words, whatever its casing', () => {
    assert.equal(statusWords('BUILD_FAILED'), 'Build failed');
    assert.equal(statusWords('buildFailed'), 'Build failed');
    assert.equal(statusWords('scaling-down'), 'Scaling down');
  });

  it('keeps a very long value short and an absent one empty', () => {
    const words = statusWords(`AWAITING_${'VERY_'.repeat(20)}LONG`);
    assert.ok(words.length <= 40 && words.endsWith('…'), words);
    assert.equal(statusWords(undefined), '');
    assert.equal(statusWords('  '), '');
  });

  it('tells an unrecognised status from UNKNOWN', () => {
    assert.equal(isUnrecognisedStatus('UNKNOWN'), false);
    assert.equal(isUnrecognisedStatus('BUILD_FAILED'), true);
    assert.equal(isUnrecognisedStatus(null), false);
  });
});
