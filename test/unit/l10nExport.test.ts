// scripts/l10n-export.mjs (npm run l10n): the committed l10n/bundle.l10n.json is what it collects from
// src/, API and feature messages alike, and a translation call without a literal message is refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'l10n-export.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });

describe('l10n export', () => {
  it('collects exactly the committed bundle, with the API client and the features in it', () => {
    const result = run('--stdout');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, fs.readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.json'), 'utf8'));
    const bundle = JSON.parse(result.stdout) as Record<string, unknown>;
    // src/api/errors.ts, src/api/http.ts (a lazily built table), src/model, src/features/watch/statusBar.ts
    assert.equal(bundle['{0} was not found (HTTP 404): {1}'], '{0} was not found (HTTP 404): {1}');
    assert.equal(bundle['the connection was refused; is the server running and the base URL right?'], 'the connection was refused; is the server running and the base URL right?');
    assert.equal(bundle['Enter a name for the deployment.'], 'Enter a name for the deployment.');
    assert.equal(bundle['Click to reveal, stop watching or unpin.'], 'Click to reveal, stop watching or unpin.');
  });

  it('holds every message of zod issues in our words (src/api/issueText.ts) and of the kinds of values (text.ts)', () => {
    // The committed bundle, which the test above finds equal to what `npm run l10n` writes.
    const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
    const messages = ['issueText.ts', 'text.ts'].flatMap((file) =>
      [...fs.readFileSync(path.join(ROOT, 'src', 'api', file), 'utf8').matchAll(/\bt\('((?:[^'\\]|\\.)*)'/g)].map((match) => match[1]),
    );
    assert.ok(messages.length > 50, `only ${messages.length} messages found`);
    for (const message of messages) assert.equal(bundle[message], message);
    for (const message of ['expected {0}, got {1}', 'a number with a fraction', 'expected at least {0}', 'expected at most {0} characters', 'one of {0}', 'unexpected field {0}', 'not valid ({0})']) {
      assert.ok(messages.includes(message), message);
    }
  });

  it('refuses a message that is not a literal, naming file and line, and reads comments', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-export-'));
    try {
      fs.mkdirSync(path.join(dir, 'feature'));
      const source = path.join(dir, 'feature', 'view.ts');
      fs.writeFileSync(
        source,
        [
          "import * as vscode from 'vscode';",
          "import { t } from '../api/l10n';",
          'export const fine = (n: number) => [vscode.l10n.t({ message: "{0} rows", args: [n], comment: ["n is a count"] }), t(`plain`)];',
          'export const notLiteral = (label: string) => vscode.l10n.t(label);',
          "export const glued = (name: string) => t('Hello ' + name);",
          '',
        ].join('\n'),
      );
      const refused = run(dir);
      assert.equal(refused.status, 1);
      assert.equal(refused.stdout, '');
      assert.match(refused.stderr, /2 calls cannot be translated/);
      assert.match(refused.stderr, new RegExp(`${source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+: the first argument of vscode\\.l10n\\.t\\(\\) must be a string literal`));
      assert.match(refused.stderr, /view\.ts:5:\d+: the first argument of t\(\) must be a string literal .* not 'Hello ' \+ name/);

      fs.writeFileSync(source, fs.readFileSync(source, 'utf8').split('\n').slice(0, 3).join('\n'));
      const accepted = run(dir);
      assert.equal(accepted.status, 0, accepted.stderr);
      assert.deepEqual(JSON.parse(accepted.stdout), {
        '{0} rows/n is a count': { message: '{0} rows', comment: ['n is a count'] },
        plain: 'plain',
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
