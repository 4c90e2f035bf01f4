import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpointUrl, newEndpointSecret } from './endpoint-rules.js';

const guarded = { production: true, allowPrivateTargets: false };
const dev = { production: false, allowPrivateTargets: true };

test('production takes https only; http is for development', () => {
  assert.equal(checkEndpointUrl('https://hooks.example.com/in', guarded), 'https://hooks.example.com/in');
  assert.throws(() => checkEndpointUrl('http://hooks.example.com/in', guarded), /Invalid endpoint URL/);
  assert.equal(checkEndpointUrl('http://127.0.0.1:9000/in', dev), 'http://127.0.0.1:9000/in');
  for (const bad of ['ftp://x.example.com/', 'hooks.example.com', 'https://user:pw@x.example.com/', 'https://x.example.com/#frag', 'javascript:alert(1)']) {
    assert.throws(() => checkEndpointUrl(bad, dev), /Invalid endpoint URL/, bad);
  }
});

test('with the guard on, IP literals outside the public space are refused in every spelling', () => {
  for (const bad of ['https://127.0.0.1/', 'https://[::1]/', 'https://169.254.169.254/latest/meta-data', 'https://10.0.0.1/', 'https://[::ffff:a9fe:a9fe]/', 'https://2130706433/', 'https://0x7f000001/']) {
    assert.throws(() => checkEndpointUrl(bad, guarded), (err: any) => err.errors?.[0]?.message.includes('not a public address'), bad);
  }
  assert.equal(checkEndpointUrl('https://8.8.8.8/hook', guarded), 'https://8.8.8.8/hook');
});

test('secrets are Standard Webhooks secrets of 32 random bytes', () => {
  const s = newEndpointSecret();
  assert.match(s, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(s.slice(6), 'base64').length, 32);
  assert.notEqual(s, newEndpointSecret());
});
