import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  decryptSecret,
  encryptSecret,
  hashPassword,
  hashRecoveryCode,
  matchTotp,
  newSalt,
  randomRecoveryCode,
  RECOVERY_CODE_PATTERN,
  signJwt,
  totpCode,
  verifyJwt,
  verifyPassword,
} from './index.js';

describe('TOTP (RFC 6238, SHA-1, 6 digits, 30 s)', () => {
  const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
  test('RFC vectors (last 6 digits)', () => {
    for (const [t, code] of [[59, '287082'], [1111111109, '081804'], [1234567890, '005924'], [2000000000, '279037']] as const) {
      assert.equal(totpCode(secret, new Date(t * 1000)), code);
      assert.equal(matchTotp(secret, code, new Date(t * 1000)), Math.floor(t / 30));
    }
  });
  test('window ±1 step, nothing further; malformed codes never match', () => {
    const now = new Date(1234567890 * 1000);
    const step = Math.floor(1234567890 / 30);
    assert.equal(matchTotp(secret, totpCode(secret, new Date(now.getTime() - 30_000)), now), step - 1);
    assert.equal(matchTotp(secret, totpCode(secret, new Date(now.getTime() + 30_000)), now), step + 1);
    assert.equal(matchTotp(secret, totpCode(secret, new Date(now.getTime() - 60_000)), now), null);
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 005924']) assert.equal(matchTotp(secret, bad, now), null);
  });
});

describe('AES-256-GCM secrets', () => {
  test('round trip, random IV, tampering and a wrong key are detected', () => {
    const key = randomBytes(32);
    const a = encryptSecret(key, 'JBSWY3DPEHPK3PXP');
    assert.notEqual(a, encryptSecret(key, 'JBSWY3DPEHPK3PXP'));
    assert.equal(decryptSecret(key, a), 'JBSWY3DPEHPK3PXP');
    const raw = Buffer.from(a.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    assert.throws(() => decryptSecret(key, `v1.${raw.toString('base64')}`));
    assert.throws(() => decryptSecret(randomBytes(32), a));
  });
});

describe('JWT', () => {
  const key = 'k'.repeat(40);
  const now = new Date('2030-01-01T00:00:00Z');
  test('verifies its own tokens of the expected kind only', () => {
    const tok = signJwt(key, { typ: 'access', sub: '1', sid: 's' }, now, 60);
    assert.equal(verifyJwt(key, tok, 'access', now)?.sid, 's');
    assert.equal(verifyJwt(key, tok, 'sudo', now), null);
    assert.equal(verifyJwt('x'.repeat(40), tok, 'access', now), null);
    assert.equal(verifyJwt(key, tok, 'access', new Date(now.getTime() + 60_000)), null);
    const [, p] = tok.split('.');
    assert.equal(verifyJwt(key, `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`, 'access', now), null);
  });
});

describe('passwords and recovery codes', () => {
  test('argon2id with the OWASP parameters', async () => {
    const h = await hashPassword('S3cret!pass');
    assert.match(h, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(await verifyPassword(h, 'S3cret!pass'), true);
    assert.equal(await verifyPassword(h, 'S3cret!pasS'), false);
    assert.equal(await verifyPassword('not a hash', 'x'), false);
  });
  test('recovery codes look like a1b2c-3d4e5 and are hashed with their own salt', () => {
    const codes = new Set(Array.from({ length: 200 }, randomRecoveryCode));
    assert.equal(codes.size, 200);
    for (const c of codes) assert.match(c, RECOVERY_CODE_PATTERN);
    const [s1, s2] = [newSalt(), newSalt()];
    assert.notEqual(hashRecoveryCode('a1b2c-3d4e5', s1), hashRecoveryCode('a1b2c-3d4e5', s2));
    assert.equal(hashRecoveryCode('A1B2C-3D4E5', s1), hashRecoveryCode('a1b2c-3d4e5', s1));
  });
});
