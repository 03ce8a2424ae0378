import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPlainHttpToRemote } from '../../src/model/profileRules';
import { shortId } from '../../src/model/ids';

describe('plain-HTTP warning rule', () => {
  it('warns for http:// to another machine', () => {
    assert.equal(isPlainHttpToRemote('http://api.example.com'), true);
    assert.equal(isPlainHttpToRemote('http://10.1.2.3:8080/api-host'), true);
  });

  it('stays quiet for https://, loopback and what is not a URL', () => {
    for (const url of ['https://api.example.com', 'http://127.0.0.1:4010', 'http://localhost:3000', 'http://[::1]:80', 'not a url', '']) {
      assert.equal(isPlainHttpToRemote(url), false, url);
    }
  });
});

describe('shortId', () => {
  it('shortens long identifiers only', () => {
    assert.equal(shortId('a1c3e5f7-2b4d-4e6f-8a0b-1c2d3e4f5a01'), 'a1c3e5f7…');
    assert.equal(shortId('abc'), 'abc');
  });
});
