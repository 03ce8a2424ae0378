// The model's messages go through t(): English with placeholders filled until the extension installs
// vscode.l10n.t as the translator, then whatever that answers.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTranslator, t, translated } from '../../src/api/l10n';
import { validateDeploymentName } from '../../src/model/createPayload';
import { statusWords } from '../../src/model/deploymentStatus';

describe('model l10n', () => {
  afterEach(() => setTranslator(undefined));

  it('fills {0}-style placeholders like vscode.l10n.t', () => {
    assert.equal(t('plain'), 'plain');
    assert.equal(t('{0} of {1}', 3, 'ten'), '3 of ten');
    assert.equal(t('{1} before {0}', 'a', 'b'), 'b before a');
    assert.equal(t('kept: {2} {name}', 'x'), 'kept: {2} {name}');
    assert.equal(t('braces {} and {0}', '{1}', 'no'), 'braces {} and {1}');
    assert.equal(t('{0}', false), 'false');
  });

  it('hands every message and its arguments to the installed translator', () => {
    const seen: unknown[] = [];
    setTranslator((message, ...args) => {
      seen.push([message, ...args]);
      return `«${message}»`;
    });
    assert.equal(validateDeploymentName(''), '«Enter a name for the deployment.»');
    assert.equal(t('{0} selected', 2), '«{0} selected»');
    assert.deepEqual(seen, [['Enter a name for the deployment.'], ['{0} selected', 2]]);
  });

  it('builds a translated table once per translator', () => {
    let builds = 0;
    const table = translated(() => {
      builds++;
      return { ready: t('Ready') };
    });
    assert.equal(table().ready, 'Ready');
    assert.equal(table().ready, 'Ready');
    assert.equal(builds, 1);
    setTranslator((message) => message.toUpperCase());
    assert.equal(table().ready, 'READY');
    assert.equal(builds, 2);
    assert.equal(statusWords('AWAITING_DELETE'), 'AWAITING DELETION');
    setTranslator(undefined);
    assert.equal(statusWords('AWAITING_DELETE'), 'Awaiting deletion');
  });
});
