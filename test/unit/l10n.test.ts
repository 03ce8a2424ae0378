// The API client's and the model's messages go through t(): English with placeholders filled until the
// extension installs vscode.l10n.t as the translator, then whatever that answers.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuthError, InvalidInputError, NetworkError, NotFoundError } from '../../src/api';
import { ControlPlaneClient } from '../../src/api/client';
import { L10nArg, setTranslator, t, translated } from '../../src/api/l10n';
import { validateDeploymentName } from '../../src/model/createPayload';
import { statusWords } from '../../src/model/deploymentStatus';
import { StandIn } from '../server/standIn';
import { json, startScriptedServer } from './helpers/scriptedServer';

describe('translator hook', () => {
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

/**
 * A stand-in for a translation: each message comes back in «…» with its `{0}`-style placeholders
 * filled, as vscode.l10n.t does with a bundle loaded. Records every call's arguments.
 */
function guillemets(): { calls: L10nArg[][] } {
  const calls: L10nArg[][] = [];
  setTranslator((message, ...args) => {
    calls.push(args);
    return `«${message.replace(/\{(\d+)\}/g, (whole, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : whole))}»`;
  });
  return { calls };
}

describe('API client messages with a translator installed', () => {
  afterEach(() => setTranslator(undefined));

  it('translates a 404 from the stand-in, the integration and the server detail filled in', async () => {
    const standIn = await StandIn.start();
    const client = new ControlPlaneClient({ baseUrl: standIn.url, apiKey: standIn.apiKey ?? undefined, env: {} });
    try {
      guillemets();
      const unknown = '00000000-0000-4000-8000-000000000000';
      await assert.rejects(client.listRepositories(unknown), (error: unknown) => {
        assert.ok(error instanceof NotFoundError);
        assert.equal(error.message, `««Integration ${unknown}» was not found (HTTP 404): Integration ${unknown} not found»`);
        return true;
      });
    } finally {
      await client.dispose();
      await standIn.close();
    }
  });

  it('translates a refusal that echoes the key: the key reaches neither the translator nor the message', async () => {
    const apiKey = 'sk-live-0123456789abcdefghij';
    const server = await startScriptedServer((req, res) => json(res, 401, { detail: `Unknown API key ${String(req.headers['x-api-key'])}` }));
    const client = new ControlPlaneClient({ baseUrl: server.url, apiKey, env: {}, retry: { maxAttempts: 1 } });
    try {
      const { calls } = guillemets();
      await assert.rejects(client.listDeployments({ limit: 5 }), (error: unknown) => {
        assert.ok(error instanceof AuthError);
        assert.equal(error.message, '«Not authenticated (HTTP 401): Unknown API key [redacted]»');
        return true;
      });
      assert.ok(calls.length > 0);
      const pieces = Array.from({ length: apiKey.length - 11 }, (_, i) => apiKey.slice(i, i + 12));
      for (const arg of calls.flat()) assert.ok(!pieces.some((piece) => String(arg).includes(piece)), `the translator got ${String(arg)}`);
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  it('rebuilds its lazily built tables for the translator: network reasons, setting names', async () => {
    // Built once in English first, as a module-level table would be before activation.
    assert.throws(() => new ControlPlaneClient({ baseUrl: 'not a url' }), /^InvalidInputError: Invalid base URL: /);
    const closed = await startScriptedServer((_req, res) => res.end());
    await closed.close();
    guillemets();
    assert.throws(
      () => new ControlPlaneClient({ baseUrl: 'not a url' }),
      (error: unknown) =>
        error instanceof InvalidInputError &&
        error.parameter === 'base URL' &&
        error.message === '«Invalid «base URL»: «“not a url” is not a URL (expected e.g. https://api.example.com)»»',
    );
    const client = new ControlPlaneClient({ baseUrl: closed.url, env: {}, retry: { maxAttempts: 1 } });
    try {
      await assert.rejects(client.listDeployments(), (error: unknown) => {
        assert.ok(error instanceof NetworkError);
        assert.equal(
          error.message,
          `«Cannot reach the control plane at ${closed.url}: «the connection was refused; is the server running and the base URL right?» (ECONNREFUSED).»`,
        );
        return true;
      });
    } finally {
      await client.dispose();
    }
  });

  it('is English again once the translator is removed', () => {
    guillemets();
    setTranslator(undefined);
    assert.throws(() => new ControlPlaneClient({ baseUrl: '' }), (error: unknown) => (error as Error).message === 'Invalid base URL: no base URL is set');
  });
});
