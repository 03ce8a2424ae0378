import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  branchDeploymentName,
  CommitGraph,
  CommitState,
  commitStateWords,
  compareDeployedCommit,
  groupByRef,
  parseRef,
  refLabel,
} from '../../src/model/workspaceDeployments';
import { validateDeploymentName } from '../../src/model/createPayload';

const sha = (n: number) => n.toString(16).padStart(40, '0');

/**
 * A clone as a list of commits on one line (each the parent of the next) plus side commits, with
 * named refs: what the git extension answers, without git.
 */
function graph(options: { line: string[]; side?: Record<string, string>; refs: Record<string, string> }): CommitGraph & { asked: string[] } {
  const parent = new Map<string, string | undefined>();
  options.line.forEach((commit, i) => parent.set(commit, options.line[i - 1]));
  for (const [commit, base] of Object.entries(options.side ?? {})) parent.set(commit, base);
  const ancestors = (commit: string) => {
    const all: string[] = [];
    for (let at: string | undefined = commit; at; at = parent.get(at)) all.push(at);
    return all;
  };
  const asked: string[] = [];
  return {
    asked,
    async resolve(revision) {
      asked.push(revision);
      const target = options.refs[revision] ?? revision;
      return parent.has(target) ? target : undefined;
    },
    async mergeBase(a, b) {
      const ofB = new Set(ancestors(b));
      return ancestors(a).find((commit) => ofB.has(commit));
    },
    async commitsBetween(from, to, max) {
      const excluded = new Set(ancestors(from));
      return ancestors(to)
        .filter((commit) => !excluded.has(commit))
        .slice(0, max)
        .map((hash) => ({ hash, message: `subject of ${hash.slice(-2)}`, authorName: 'Dev' }));
    },
  };
}

describe('parseRef: what a deployment ref names', () => {
  it('reads a branch with and without refs/heads/ as the same branch', () => {
    assert.deepEqual(parseRef('main'), { kind: 'branch', name: 'main' });
    assert.deepEqual(parseRef('refs/heads/main'), { kind: 'branch', name: 'main' });
    assert.deepEqual(parseRef('refs/heads/feature/login'), { kind: 'branch', name: 'feature/login' });
    assert.deepEqual(parseRef(' feature/login '), { kind: 'branch', name: 'feature/login' });
  });

  it('reads tags, full SHAs and other refs', () => {
    assert.deepEqual(parseRef('refs/tags/v1.2.0'), { kind: 'tag', name: 'v1.2.0' });
    assert.deepEqual(parseRef('A'.repeat(40)), { kind: 'commit', name: 'a'.repeat(40) });
    assert.deepEqual(parseRef('refs/pull/7/head'), { kind: 'other', name: 'refs/pull/7/head' });
    // A short hex word is a branch name: only a full SHA is read as a commit.
    assert.deepEqual(parseRef('cafe1234'), { kind: 'branch', name: 'cafe1234' });
    assert.deepEqual(parseRef(undefined), { kind: 'none' });
    assert.deepEqual(parseRef('  '), { kind: 'none' });
  });

  it('groups deployments by ref, whichever way the ref is written: the checked-out branch first, then by kind and name', () => {
    const groups = groupByRef(
      [
        { id: '1', name: 'web-b', ref: 'main' },
        { id: '2', ref: 'refs/tags/v1' },
        { id: '3', name: 'web-a', ref: 'refs/heads/main' },
        { id: '4' },
        { id: '5', ref: 'develop' },
        { id: '6', ref: 'release' },
      ],
      'release',
    );
    assert.deepEqual(
      groups.map((group) => [refLabel(group.ref), group.deployments.map((d) => d.id)]),
      [
        ['release', ['6']],
        ['develop', ['5']],
        ['main', ['3', '1']],
        ['v1', ['2']],
        ['(no ref recorded)', ['4']],
      ],
    );
  });
});

describe('compareDeployedCommit: the deployed commit against the local one', () => {
  const line = [sha(1), sha(2), sha(3), sha(4)];
  const refs = { 'refs/heads/main': sha(4), 'refs/tags/v1': sha(2), 'refs/remotes/origin/release': sha(3) };
  const clone = () => graph({ line, side: { [sha(9)]: sha(2) }, refs });

  it('no commit recorded: the field missing or null', async () => {
    assert.deepEqual(await compareDeployedCommit({ ref: 'main' }, clone()), { kind: 'noCommit' });
    assert.deepEqual(await compareDeployedCommit({ ref: 'main', commit: undefined }, clone()), { kind: 'noCommit' });
  });

  it('deployed commit not in your clone', async () => {
    assert.deepEqual(await compareDeployedCommit({ ref: 'main', commit: sha(77) }, clone()), { kind: 'notInClone', deployed: sha(77) });
  });

  it('hands git only a commit name: a recorded commit that is not hex is never asked for (git would read `--output=…` as an option)', async () => {
    for (const commit of ['--output=/tmp/x', 'main', 'HEAD~1', 'abc']) {
      const asked = clone();
      assert.deepEqual(await compareDeployedCommit({ ref: 'main', commit }, asked), { kind: 'notInClone', deployed: commit });
      assert.deepEqual(asked.asked, [], commit);
    }
    const short = clone();
    assert.equal((await compareDeployedCommit({ ref: 'main', commit: sha(4).slice(-7).toUpperCase() }, short)).kind, 'notInClone');
    assert.deepEqual(short.asked, [sha(4).slice(-7).toUpperCase()], 'a short or upper-case SHA is still looked up');
  });

  it('up to date: the ref names the deployed commit', async () => {
    assert.deepEqual(await compareDeployedCommit({ ref: 'refs/heads/main', commit: sha(4) }, clone()), { kind: 'upToDate', against: 'main' });
    assert.deepEqual(await compareDeployedCommit({ ref: 'refs/tags/v1', commit: sha(2) }, clone()), { kind: 'upToDate', against: 'v1' });
    assert.deepEqual(await compareDeployedCommit({ ref: sha(3), commit: sha(3) }, clone()), { kind: 'upToDate', against: sha(3).slice(0, 8) });
  });

  it('N commits behind: the deployed commit is an ancestor of the local ref, with the commits not deployed', async () => {
    const state = await compareDeployedCommit({ ref: 'main', commit: sha(1) }, clone());
    assert.equal(state.kind, 'behind');
    const behind = state as Extract<CommitState, { kind: 'behind' }>;
    assert.equal(behind.count, 3);
    assert.equal(behind.more, false);
    assert.deepEqual(behind.commits.map((commit) => commit.hash), [sha(4), sha(3), sha(2)]);
    assert.equal(commitStateWords(state), '3 commits behind main');
  });

  it('lists at most 50 commits, and counts them all', async () => {
    const long = Array.from({ length: 120 }, (_, i) => sha(i + 1));
    const state = await compareDeployedCommit({ ref: 'main', commit: long[0] }, graph({ line: long, refs: { 'refs/heads/main': long[119] } }));
    assert.equal(state.kind, 'behind');
    const behind = state as Extract<CommitState, { kind: 'behind' }>;
    assert.equal(behind.count, 119);
    assert.equal(behind.commits.length, 50);
    assert.equal(commitStateWords(state, 'en'), '119 commits behind main');
  });

  it('a branch only on the remote is compared with the remote-tracking branch', async () => {
    const state = await compareDeployedCommit({ ref: 'release', commit: sha(2) }, clone(), 'origin');
    assert.equal(commitStateWords(state), '1 commit behind origin/release');
  });

  it('a bare ref that is no branch is the tag of that name, as the code host resolves it', async () => {
    assert.deepEqual(await compareDeployedCommit({ ref: 'v1', commit: sha(2) }, clone()), { kind: 'upToDate', against: 'v1' });
    assert.equal(commitStateWords(await compareDeployedCommit({ ref: 'v1', commit: sha(1) }, clone())), '1 commit behind v1');
  });

  it('ahead, diverged, and a ref the clone does not have', async () => {
    assert.equal(commitStateWords(await compareDeployedCommit({ ref: 'refs/tags/v1', commit: sha(4) }, clone())), '2 commits ahead of your v1');
    assert.equal(commitStateWords(await compareDeployedCommit({ ref: 'main', commit: sha(9) }, clone())), 'not on your main');
    assert.deepEqual(await compareDeployedCommit({ ref: 'gone', commit: sha(2) }, clone()), { kind: 'noLocalRef', against: 'gone' });
  });

  it('says each state in words', () => {
    assert.equal(commitStateWords({ kind: 'noCommit' }), 'no commit recorded');
    assert.equal(commitStateWords({ kind: 'notInClone', deployed: sha(1) }), 'deployed commit not in your clone');
    assert.equal(commitStateWords({ kind: 'upToDate', against: 'main' }), 'up to date');
    const many: CommitState = { kind: 'behind', against: 'main', count: 1000, more: true, commits: [] };
    assert.equal(commitStateWords(many, 'en'), 'more than 1,000 commits behind main');
  });
});

describe('branchDeploymentName', () => {
  it('derives a name from repository and branch that passes the name rules', () => {
    for (const [repository, branch, expected] of [
      ['shop', 'main', 'shop-main'],
      ['Shop_API', 'feature/Login', 'shop-api-feature-login'],
      ['shop', 'fix/ñandú', 'shop-fix-nandu'],
      ['日本', '本', 'branch-deployment'],
    ]) {
      const name = branchDeploymentName(repository, branch);
      assert.equal(name, expected);
      assert.equal(validateDeploymentName(name), undefined, name);
    }
    const long = branchDeploymentName('a'.repeat(40), `feature/${'b'.repeat(40)}-`);
    assert.equal(validateDeploymentName(long), undefined, long);
  });
});
