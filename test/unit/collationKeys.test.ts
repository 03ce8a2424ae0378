import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collationKeys } from '../../src/model/collationKeys';
import { sortRepositories } from '../../src/model/repositoryCatalog';
import type { Repository } from '../../src/api';

const ALPHABET = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';

/** A small deterministic generator, so a failure can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('collation keys', () => {
  // Every language the keys are used for (collationKeys.ts), and the default locale.
  for (const locale of ['en', 'de', 'fr', 'it', 'pt', 'nl', 'ja', 'zh', 'ko', 'ru', 'uk', 'pl', 'el', 'he', 'ar', 'id', undefined]) {
    it(`order ASCII text exactly as a base, numeric Intl.Collator does (${locale})`, () => {
      const keys = collationKeys(locale);
      const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
      const next = random(7);
      const text = () => {
        let value = '';
        const length = Math.floor(next() * 6);
        for (let i = 0; i < length; i++) {
          value += next() < 0.3 ? String(Math.floor(next() * 1200)).padStart(Math.floor(next() * 4), '0') : ALPHABET[Math.floor(next() * ALPHABET.length)];
        }
        return value;
      };
      for (let i = 0; i < (locale === 'en' ? 20_000 : 3_000); i++) {
        const a = text();
        const b = text();
        const keyA = keys.keyOf(a);
        const keyB = keys.keyOf(b);
        assert.ok(keyA !== undefined && keyB !== undefined);
        const byKey = keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
        assert.equal(byKey, Math.sign(collator.compare(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
    });
  }

  it('leave other text and contraction locales to the collator', () => {
    assert.equal(collationKeys('en').keyOf('café'), undefined);
    assert.equal(collationKeys('en').keyOf('tab\there'), undefined);
    assert.equal(collationKeys('da').keyOf('aa'), undefined);
  });

  it('sort repositories as the collator would, mixing keyed and non-keyed names', () => {
    const names = ['repo10', 'Repo2', 'repo-2', 'Ärger', 'zeta', 'alpha', 'repo02', 'émile', 'Zeta', '_tools'];
    const repositories: Repository[] = names.map((name, id) => ({
      host_integration_id: '00000000-0000-0000-0000-000000000000',
      id,
      name,
      owner: id % 2 ? 'Org' : 'org',
      url: `https://example.com/${name}`,
      default_branch: 'main',
    }));
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    const expected = [...repositories].sort((a, b) => collator.compare(a.owner, b.owner) || collator.compare(a.name, b.name) || a.id - b.id);
    assert.deepEqual(
      sortRepositories(repositories, 'en').map((repository) => repository.id),
      expected.map((repository) => repository.id),
    );
  });
});
