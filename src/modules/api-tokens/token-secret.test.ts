import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { hashTokenSecret, isWellFormedToken, newTokenSecret, TOKEN_PATTERN } from './token-secret.js';

test('a token is chp_pat_, 30 random base62 characters and their CRC32 in 6 base62 characters', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const t = newTokenSecret();
    assert.match(t.secret, TOKEN_PATTERN);
    assert.equal(t.secret.length, 44);
    assert.equal(isWellFormedToken(t.secret), true);
    assert.equal(t.displayPrefix, t.secret.slice(0, 12));
    assert.equal(t.hash, createHash('sha256').update(t.secret).digest('hex'));
    seen.add(t.secret);
  }
  assert.equal(seen.size, 200);
});

test('the checksum catches a changed, dropped or swapped character without the database', () => {
  const { secret } = newTokenSecret();
  const body = secret.slice(8);
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'a' ? 'b' : 'a') + s.slice(i + 1);
  for (let i = 0; i < body.length; i++) assert.equal(isWellFormedToken(`chp_pat_${flip(body, i)}`), false, `position ${i}`);
  assert.equal(isWellFormedToken(secret.slice(0, -1)), false);
  assert.equal(isWellFormedToken(`chp_pat_${body[1]}${body[0]}${body.slice(2)}`), body[0] === body[1]);
  assert.equal(isWellFormedToken(secret.replace('chp_pat_', 'ghp_pat_')), false);
  assert.equal(isWellFormedToken(''), false);
  assert.notEqual(hashTokenSecret(secret), hashTokenSecret(flip(secret, 20)));
});
