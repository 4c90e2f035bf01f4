import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { VmHostError } from '../../src/integrations/datacenter/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, getVm, seededTier, vmJobsDone } from '../helpers/compute.js';

const lines: string[] = [];
let t: TestApp;
before(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await buildTestApp({ log: pino({ level: 'warn' }, sink) });
});
after(() => t.close());

describe('a datacenter failure as customers and staff see it', () => {
  test("the VM's error and sync.last_error hold the safe message; the host's detail is only in the log", async () => {
    const detail = 'qemu-img create -f qcow2 -b /var/lib/cloud-images/debian.qcow2 /var/lib/cloud-state/chp-vm-1-root.qcow2: Permission denied';
    const dc = t.container.datacenter;
    const original = dc.vmHosts.createVm.bind(dc.vmHosts);
    dc.vmHosts.createVm = () => Promise.reject(new VmHostError('create', 'the hypervisor failed to create the machine', false, detail));
    try {
      const c = await customerSession(t);
      await fund(t, c.id);
      const vm = (await createVm(t, c.cookie, { name: 'refused', location_id: 1, tier_id: await seededTier(t) })).json().data;
      await vmJobsDone(t);
      const now = await getVm(t, c.cookie, vm.id);
      assert.equal(now.status, 'Error');
      assert.deepEqual(now.error, { action: 'create', message: 'the hypervisor failed to create the machine' });
      assert.equal(now.sync.last_error, 'the hypervisor failed to create the machine');
      assert.doesNotMatch(JSON.stringify(now), /qemu-img|\/var\/lib/);
      const logged = lines.map((l) => JSON.parse(l) as { msg: string; err?: string; detail?: string }).find((l) => l.msg === 'resource apply failed at the backend');
      assert.ok(logged, lines.join('\n'));
      assert.equal(logged.err, 'the hypervisor failed to create the machine');
      assert.equal(logged.detail, detail);
    } finally {
      dc.vmHosts.createVm = original;
    }
  });
});
