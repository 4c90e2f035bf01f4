import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardedLookup, isPublicAddress, ipLiteralOf } from './outbound-guard.js';

test('only globally routable unicast addresses are public', () => {
  for (const a of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888']) assert.equal(isPublicAddress(a), true, a);
  const refused = [
    '127.0.0.1', '127.1.2.3', '0.0.0.0', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '198.18.0.5',
    '192.0.2.1', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', '::ffff:127.0.0.1',
    '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:7f00:1::', '2001:db8::1', 'not-an-address',
    // IPv4-compatible (deprecated ::/96) and other IPv6 outside 2000::/3
    '::7f00:1', '::a9fe:a9fe', '::a00:7', '5f00::1', 'fec0::1',
  ];
  for (const a of refused) assert.equal(isPublicAddress(a), false, a);
});

test('IP literals are recognised in every URL form', () => {
  assert.equal(ipLiteralOf(new URL('http://127.0.0.1:8080/x')), '127.0.0.1');
  assert.equal(ipLiteralOf(new URL('http://[::ffff:7f00:1]/x')), '::ffff:7f00:1');
  // the URL parser normalises shorthand and decimal forms, so they are caught as literals too
  assert.equal(ipLiteralOf(new URL('http://2130706433/')), '127.0.0.1');
  assert.equal(ipLiteralOf(new URL('http://0x7f.1/')), '127.0.0.1');
  assert.equal(ipLiteralOf(new URL('https://hooks.example.com/')), undefined);
});

const lookup = (answer: { address: string; family: number }[], options: { all?: boolean; family?: number }) =>
  new Promise<{ err: any; address: any; family?: number }>((resolve) =>
    guardedLookup(async () => answer)('hooks.example.com', options, (err, address, family) => resolve({ err, address, family })),
  );

test('a name is refused when any of its addresses is not public, and the checked address is what the socket gets', async () => {
  const mixed = await lookup([{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }], { all: true });
  assert.equal(mixed.err?.code, 'ADDRESS_NOT_ALLOWED');
  const rebound = await lookup([{ address: '169.254.169.254', family: 4 }], {});
  assert.equal(rebound.err?.code, 'ADDRESS_NOT_ALLOWED');
  const ok = await lookup([{ address: '93.184.215.14', family: 4 }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }], {});
  assert.deepEqual([ok.err, ok.address, ok.family], [null, '93.184.215.14', 4]);
  const v6 = await lookup([{ address: '93.184.215.14', family: 4 }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }], { family: 6, all: true });
  assert.deepEqual(v6.address, [{ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }]);
});

test('a name that does not resolve is refused like a private one, so the log does not tell them apart', async () => {
  const missing = await new Promise<any>((resolve) =>
    guardedLookup(async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND db.internal'), { code: 'ENOTFOUND' });
    })('db.internal', {}, (err) => resolve(err)),
  );
  const internal = await new Promise<any>((resolve) => guardedLookup(async () => [{ address: '10.0.0.7', family: 4 }])('db.internal', {}, (err) => resolve(err)));
  assert.deepEqual([missing.code, missing.message], [internal.code, internal.message]);
  assert.equal(missing.message, 'db.internal has no public address');
});
