import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchRemotes, mostCommonHost, normaliseRemoteUrl, parseGitConfig, parseGitDirFile, redactUserInfo, remoteKey } from '../../src/model/remoteUrls';

describe('normaliseRemoteUrl', () => {
  const same = 'github.com/acme/storefront';
  for (const url of [
    'https://github.com/acme/storefront',
    'https://github.com/acme/storefront.git',
    'https://github.com/acme/storefront/',
    'https://github.com/acme/storefront.git/',
    'HTTPS://GitHub.COM/acme/storefront',
    'http://github.com/acme/storefront',
    'https://user:token@github.com/acme/storefront.git',
    'https://github.com:443/acme/storefront',
    'git@github.com:acme/storefront.git',
    'git@GITHUB.com:acme/storefront',
    'github.com:acme/storefront.git',
    'ssh://git@github.com/acme/storefront.git',
    'ssh://git@github.com:22/acme/storefront',
    'git+ssh://git@github.com/acme/storefront.git',
    'git://github.com/acme/storefront.git',
    '  https://github.com/acme/storefront  ',
  ]) {
    it(`reads ${url.trim()} as ${same}`, () => assert.equal(remoteKey(url), same));
  }

  it('keeps the case of the path and nested groups; compares them in any case, as code hosts do', () => {
    assert.deepEqual(normaliseRemoteUrl('git@gitlab.com:platform/infra/Billing_API.git'), { host: 'gitlab.com', path: 'platform/infra/Billing_API' });
    assert.equal(remoteKey('https://gitlab.com/platform/infra/Billing_API'), 'gitlab.com/platform/infra/billing_api');
  });

  it('keeps dots inside names and removes only a final .git', () => {
    assert.equal(remoteKey('git@github.com:acme-labs/docs.acme.dev.git'), 'github.com/acme-labs/docs.acme.dev');
    assert.equal(remoteKey('https://github.com/acme/x.github.io'), 'github.com/acme/x.github.io');
  });

  it('decodes percent-encoded paths', () => {
    assert.equal(remoteKey('https://dev.example.com/my%20org/repo'), 'dev.example.com/my org/repo');
  });

  it('answers undefined for local paths and garbage', () => {
    for (const text of ['', '   ', '/srv/git/repo.git', './repo', '../repo', 'file:///srv/git/repo.git', 'C:\\repos\\app', 'C:/repos/app', 'https://', 'https://github.com/']) {
      assert.equal(normaliseRemoteUrl(text), undefined, text);
    }
  });
});

describe('redactUserInfo', () => {
  it('drops credentials from URLs', () => {
    assert.equal(redactUserInfo('https://user:s3cret@github.com/acme/a.git'), 'https://github.com/acme/a.git');
    assert.equal(redactUserInfo('git@github.com:acme/a.git'), 'git@github.com:acme/a.git');
    assert.equal(redactUserInfo('https://github.com/acme/a'), 'https://github.com/acme/a');
  });
});

describe('parseGitConfig', () => {
  it('reads remotes, quoted values, comments and pushurls', () => {
    const config = [
      '[core]',
      '\trepositoryformatversion = 0',
      '\tbare = false',
      '[remote "origin"]',
      '\turl = git@github.com:acme/storefront.git',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '; a comment',
      '[remote "upstream"]   # trailing comment',
      '  URL = "https://github.com/acme-labs/agent-runtime" ; why not',
      '  pushurl = ssh://git@github.com/acme-labs/agent-runtime.git',
      '[branch "main"]',
      '\tremote = origin',
      '\turl = https://not-a-remote.example.com/x',
    ].join('\n');
    assert.deepEqual(parseGitConfig(config), [
      { name: 'origin', url: 'git@github.com:acme/storefront.git' },
      { name: 'upstream', url: 'https://github.com/acme-labs/agent-runtime' },
      { name: 'upstream', url: 'ssh://git@github.com/acme-labs/agent-runtime.git' },
    ]);
  });

  it('applies url.<base>.insteadOf, longest prefix first', () => {
    const config = [
      '[url "git@github.com:"]',
      '\tinsteadOf = gh:',
      '[url "git@github.com:acme-labs/"]',
      '\tinsteadOf = gh:acme-labs/',
      '[remote "origin"]',
      '\turl = gh:acme/storefront',
      '[remote "labs"]',
      '\turl = gh:acme-labs/agent-runtime',
    ].join('\r\n');
    assert.deepEqual(parseGitConfig(config), [
      { name: 'origin', url: 'git@github.com:acme/storefront' },
      { name: 'labs', url: 'git@github.com:acme-labs/agent-runtime' },
    ]);
  });

  it('answers nothing for a config without remotes or for garbage', () => {
    assert.deepEqual(parseGitConfig('[core]\n\tbare = false\n'), []);
    assert.deepEqual(parseGitConfig('not a config at all\n[[['), []);
  });

  it('reads the gitdir of a .git file', () => {
    assert.equal(parseGitDirFile('gitdir: ../.git/worktrees/feature\n'), '../.git/worktrees/feature');
    assert.equal(parseGitDirFile('nothing'), undefined);
  });
});

describe('matchRemotes', () => {
  const repositories = [
    { name: 'storefront', url: 'https://github.com/acme/storefront' },
    { name: 'Payments_API', url: 'https://github.com/acme/Payments_API' },
    { name: 'storefront (gitlab)', url: 'https://gitlab.com/acme/storefront' },
    { name: 'infra', url: 'https://gitlab.com/platform/infra/tools' },
  ];

  it('matches the ssh form of a repository URL', () => {
    const matches = matchRemotes([{ name: 'origin', url: 'git@github.com:acme/storefront.git' }], repositories);
    assert.deepEqual(matches.map((match) => match.repository.name), ['storefront']);
    assert.equal(matches[0].remotes[0].name, 'origin');
  });

  it('matches several remotes to several repositories', () => {
    const matches = matchRemotes(
      [
        { name: 'origin', url: 'git@github.com:acme/storefront.git' },
        { name: 'mirror', url: 'https://GITLAB.com/acme/storefront.git/' },
        { name: 'ops', url: 'ssh://git@gitlab.com/platform/infra/tools.git' },
      ],
      repositories,
    );
    assert.deepEqual(matches.map((match) => match.repository.name), ['storefront', 'storefront (gitlab)', 'infra']);
  });

  it('matches owner and name in any case, whatever else matches (GitHub, GitLab and Bitbucket read them so)', () => {
    assert.deepEqual(
      matchRemotes([{ name: 'origin', url: 'git@github.com:acme/payments_api.git' }], repositories).map((match) => match.repository.name),
      ['Payments_API'],
    );
    const twins = [
      { name: 'upper', url: 'https://github.com/acme/App' },
      { name: 'lower', url: 'https://github.com/acme/app' },
    ];
    assert.deepEqual(matchRemotes([{ name: 'origin', url: 'git@github.com:acme/app.git' }], twins).map((match) => match.repository.name), ['upper', 'lower']);
  });

  it('answers no match for other hosts, owners or unparseable remotes', () => {
    assert.deepEqual(
      matchRemotes(
        [
          { name: 'origin', url: 'git@bitbucket.org:acme/storefront.git' },
          { name: 'fork', url: 'git@github.com:someone/storefront.git' },
          { name: 'local', url: '/srv/git/storefront.git' },
        ],
        repositories,
      ),
      [],
    );
  });
});

describe('mostCommonHost', () => {
  it('names the host most URLs share, whatever their form', () => {
    assert.equal(
      mostCommonHost(['https://github.com/a/b', 'git@GitHub.com:a/c.git', 'https://gitlab.com/x/y', 'not a url']),
      'github.com',
    );
    assert.equal(mostCommonHost([]), undefined);
    assert.equal(mostCommonHost(['not a url']), undefined);
  });
});
