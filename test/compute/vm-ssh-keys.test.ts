import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import sshpk from 'sshpk';
import type { VmSpec } from '../../src/integrations/datacenter/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, getVm, seededTier, vmJobsDone } from '../helpers/compute.js';

let t: TestApp;
let tierId: number;
/** the specs createVm received, by reference */
const specs = new Map<string, VmSpec>();
before(async () => {
  t = await buildTestApp();
  tierId = await seededTier(t);
  const dc = t.container.datacenter;
  const original = dc.vmHosts.createVm.bind(dc.vmHosts);
  dc.vmHosts.createVm = (spec) => {
    specs.set(spec.reference, spec);
    return original(spec);
  };
});
after(() => t.close());

function publicKeyLine(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  return sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem').toString('ssh');
}

async function addKey(cookie: string, name: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/ssh-keys', headers: { cookie }, payload: { name, public_key: publicKeyLine() } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data as { id: number; fingerprint: string; public_key: string };
}

describe('SSH keys on VMs', () => {
  test('the keys chosen at create are kept with the VM, shown in its answer and given to the datacenter, also after the key is deleted', async () => {
    const c = await customerSession(t);
    await fund(t, c.id);
    const k1 = await addKey(c.cookie, 'laptop');
    const k2 = await addKey(c.cookie, 'ci');
    const res = await createVm(t, c.cookie, { name: 'keyed', location_id: 1, tier_id: tierId, ssh_key_ids: [k2.id, k1.id] });
    assert.equal(res.statusCode, 201, res.body);
    const vm = res.json().data;
    assert.deepEqual(vm.ssh_key_ids, [k2.id, k1.id]);
    assert.deepEqual(vm.ssh_keys, [
      { id: k2.id, name: 'ci', fingerprint: k2.fingerprint },
      { id: k1.id, name: 'laptop', fingerprint: k1.fingerprint },
    ]);
    await vmJobsDone(t);
    assert.deepEqual(specs.get(`vm-${vm.id}`)?.sshKeys, [k2.public_key, k1.public_key]);
    assert.equal((await getVm(t, c.cookie, vm.id)).status, 'Running');

    // the VM was given a copy: deleting the key changes nothing on it
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/ssh-keys/${k1.id}`, headers: { cookie: c.cookie } })).statusCode, 200);
    assert.deepEqual((await getVm(t, c.cookie, vm.id)).ssh_key_ids, [k2.id, k1.id]);

    // without keys: empty lists, and the datacenter gets none
    const plain = (await createVm(t, c.cookie, { name: 'plain', location_id: 1, tier_id: tierId })).json().data;
    assert.deepEqual(plain.ssh_key_ids, []);
    assert.deepEqual(plain.ssh_keys, []);
    await vmJobsDone(t);
    assert.deepEqual(specs.get(`vm-${plain.id}`)?.sshKeys, []);

    const listed = await t.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie: c.cookie } });
    assert.deepEqual(listed.json().data.map((v: { ssh_key_ids: number[] }) => v.ssh_key_ids), [[], [k2.id, k1.id]]);
  });

  test("an unknown key, another customer's key or a deleted one is 400 naming ssh_key_ids, and no VM is made", async () => {
    const c = await customerSession(t);
    await fund(t, c.id);
    const other = await customerSession(t);
    const theirs = await addKey(other.cookie, 'theirs');
    const mine = await addKey(c.cookie, 'mine');
    await t.app.inject({ method: 'DELETE', url: `/api/ssh-keys/${mine.id}`, headers: { cookie: c.cookie } });
    for (const ids of [[999_999], [theirs.id], [mine.id]]) {
      const res = await createVm(t, c.cookie, { name: 'nope', location_id: 1, tier_id: tierId, ssh_key_ids: ids });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().code, 'VALIDATION_FAILED');
      assert.equal(res.json().errors[0].field, 'ssh_key_ids');
    }
    const tooMany = await createVm(t, c.cookie, { name: 'nope', location_id: 1, tier_id: tierId, ssh_key_ids: Array.from({ length: 11 }, (_, i) => i + 1) });
    assert.equal(tooMany.statusCode, 400);
    const list = await t.app.inject({ method: 'GET', url: '/api/compute/vm', headers: { cookie: c.cookie } });
    assert.equal(list.json().meta.total, 0);
  });
});
