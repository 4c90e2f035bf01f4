/**
 * The platform on DATACENTER=libvirt with a real QEMU guest, through the API: a customer creates a
 * VM with an SSH key, the resource lifecycle makes it, the guest boots and shows the key, stop and
 * start reach the domain, delete leaves nothing behind; and a create while libvirtd is down ends
 * in Error with a safe message and succeeds on retry once libvirtd is back; a worker killed in the
 * middle of a create leaves work the sweep finishes, with one domain and no leaked disk.
 * Runs where libvirt answers on qemu:///system as root; elsewhere it is skipped with the reason,
 * except under CI=true, where a missing libvirt fails. Everything is made under a random prefix and
 * removed in `after`, also when a test fails.
 */
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LibvirtDatacenter } from '../../src/integrations/datacenter/index.js';
import { ManualClock } from '../../src/platform/clock.js';
import {
  libvirtAvailable,
  libvirtdAnswers,
  listEverything,
  removeEverything,
  sshKey,
  startLibvirtd,
  stopLibvirtd,
  testSetup,
  withLibvirtLock,
  type TestSetup,
} from '../../src/integrations/datacenter/libvirt/test-support.js';
import { adminSession } from '../helpers/admins.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { startWorkerProcess } from '../helpers/worker-process.js';
import { customerSession, loginCustomer } from '../helpers/customers.js';
import { fund, getVm, seededTier } from '../helpers/compute.js';

const available = libvirtAvailable();
const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

/** A create or start returns once the guest is up: allow a slow boot on a loaded machine. */
const BOOT_MS = 240_000;

/** The platform's LIBVIRT_CONFIG for the setup: the API's debian-12 boots the test image. */
function writeConfig(setup: TestSetup): string {
  setup.input.images = { 'debian-12': setup.input.images.test ?? setup.input.images['debian-12']! };
  const file = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
  writeFileSync(file, JSON.stringify(setup.input));
  return file;
}

function domstate(name: string): string | null {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', 'domstate', name], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

describe('a real guest through the API (DATACENTER=libvirt)', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let t: TestApp | undefined;
  let cookie: string;
  let tierId: number;
  let key: { publicKey: string; fingerprint: string };
  let keyId: number;

  before(async () => {
    setup = testSetup();
    t = await buildTestApp({ db: 'postgres', env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: writeConfig(setup) } });
    assert.ok(t.container.datacenter instanceof LibvirtDatacenter);
    tierId = await seededTier(t);
    const c = await customerSession(t);
    await fund(t, c.id);
    cookie = c.cookie;
    key = sshKey('ed25519', mkdtempSync(path.join(tmpdir(), 'api-guest-keys-')));
    const made = await t.app.inject({ method: 'POST', url: '/api/ssh-keys', headers: { cookie }, payload: { name: 'laptop', public_key: key.publicKey } });
    assert.equal(made.statusCode, 201, made.body);
    keyId = made.json().data.id;
  });

  after(async () => {
    if (!libvirtdAnswers()) startLibvirtd();
    await t?.close();
    if (setup) removeEverything(setup);
  });

  const api = (method: 'POST' | 'DELETE', url: string, payload?: object) => t!.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  /** the VM once it has no action under way */
  const settled = (id: number, timeoutMs = BOOT_MS) =>
    eventually(
      async () => {
        const vm = await getVm(t!, cookie, id);
        return vm.pending_action === null ? vm : undefined;
      },
      timeoutMs,
      250,
    );
  const domainName = (vmId: number) => `${setup.prefix}-vm-${vmId}`;
  /** the domain and files of one VM (`vm-1` and not `vm-12`) */
  const leftOf = (vmId: number) => listEverything(setup).filter((l) => new RegExp(`${setup.prefix}-vm-${vmId}(?![0-9])`).test(l.name));

  test('create with an SSH key → the guest boots → Running, and shows the key; stop → shut off; start → Running; delete → nothing left', () =>
    withLibvirtLock('shared', async () => {
      const res = await api('POST', '/api/compute/vm', { name: 'real-1', location_id: 1, tier_id: tierId, os: 'debian-12', ssh_key_ids: [keyId] });
      assert.equal(res.statusCode, 201, res.body);
      const vm = res.json().data;
      assert.deepEqual(vm.ssh_keys, [{ id: keyId, name: 'laptop', fingerprint: key.fingerprint }]);

      let now = await settled(vm.id);
      assert.equal(now.status, 'Running', JSON.stringify(now));
      assert.equal(domstate(domainName(vm.id)), 'running');
      const dc = t!.container.datacenter as LibvirtDatacenter;
      const consoleFile = (await dc.vmHosts.describeVm(`vm-${vm.id}`))!.console;
      const consoleText = readFileSync(consoleFile, 'utf8');
      assert.match(consoleText, new RegExp(`GUEST-UP vm-${vm.id}`));
      assert.ok(consoleText.includes(`guest-key: ${key.fingerprint} `), 'the guest received the key chosen at create');

      // staff see the machine on its hypervisor
      const support = await adminSession(t!, { role: 'Admin Support' });
      const hv = await t!.app.inject({ method: 'GET', url: '/api/backoffice/compute/locations/1/hypervisors', headers: { cookie: support.cookie } });
      assert.equal(hv.statusCode, 200, hv.body);
      assert.equal(hv.json().data[0].name, 'hv-local');
      assert.ok(hv.json().data[0].machines >= 1 && hv.json().data[0].memory_mb_used >= vm.memory_mb, hv.body);

      assert.equal((await api('POST', `/api/compute/vm/${vm.id}/stop`)).statusCode, 200);
      now = await settled(vm.id);
      assert.equal(now.status, 'Stopped', JSON.stringify(now));
      assert.equal(domstate(domainName(vm.id)), 'shut off');

      assert.equal((await api('POST', `/api/compute/vm/${vm.id}/start`)).statusCode, 200);
      now = await settled(vm.id);
      assert.equal(now.status, 'Running', JSON.stringify(now));
      assert.equal(domstate(domainName(vm.id)), 'running');

      assert.equal((await api('DELETE', `/api/compute/vm/${vm.id}`)).statusCode, 200);
      now = await settled(vm.id);
      assert.equal(now.status, 'Deleted', JSON.stringify(now));
      assert.equal(domstate(domainName(vm.id)), null);
      assert.deepEqual(leftOf(vm.id), [], 'no domain, disk, console or drive of the VM is left');
      // what stays is the host's public bridge, the adapter's (empty) tables, its lock files and the empty group state
      const unexpected = listEverything(setup).filter(
        (l) => !(l.kind === 'link' && l.name === `${setup.prefix}-pub`) && l.kind !== 'nft' && !(l.kind === 'file' && /(\.lock|-firewall\.json|-config\.json)$/.test(l.name)),
      );
      assert.deepEqual(unexpected, []);
      for (const family of ['bridge', 'inet']) {
        const table = spawnSync('nft', ['list', 'table', family, setup.prefix], { encoding: 'utf8' });
        if (table.status === 0) assert.doesNotMatch(table.stdout, /vm_|meta mark/, `no rule of the VM in the ${family} table`);
      }
    }));

  test('libvirtd down during a create: the VM shows Error with a retry and a message naming no host path or command; after libvirtd is back the retry brings it up', async () => {
    let vmId = 0;
    await withLibvirtLock('exclusive', async () => {
      stopLibvirtd();
      try {
        const res = await api('POST', '/api/compute/vm', { name: 'real-2', location_id: 1, tier_id: tierId, os: 'debian-12', ssh_key_ids: [keyId] });
        assert.equal(res.statusCode, 201, res.body);
        vmId = res.json().data.id;
        const failed = await settled(vmId, 120_000);
        assert.equal(failed.status, 'Error', JSON.stringify(failed));
        assert.equal(failed.error.action, 'create');
        assert.equal(failed.error.message, 'the hypervisor could not be reached; could not create the machine');
        assert.equal(failed.sync.state, 'failed');
        assert.equal(failed.sync.last_error, failed.error.message);
        assert.doesNotMatch(JSON.stringify(failed), /libvirt-sock|virsh|\/var\/|\/run\//);
      } finally {
        if (!libvirtdAnswers()) startLibvirtd();
      }
    });
    await withLibvirtLock('shared', async () => {
      const retry = await api('POST', `/api/compute/vm/${vmId}/retry`);
      assert.equal(retry.statusCode, 200, retry.body);
      assert.equal(retry.json().data.status, 'Creating');
      let now = await settled(vmId);
      assert.equal(now.status, 'Running', JSON.stringify(now));
      assert.equal(now.error, null);
      assert.equal(now.sync.last_error, null);
      assert.equal(domstate(domainName(vmId)), 'running');
      assert.deepEqual(
        listEverything(setup).filter((l) => l.kind === 'domain').map((l) => l.name),
        [domainName(vmId)],
        'one domain: the failed attempt left none',
      );
      assert.equal((await api('DELETE', `/api/compute/vm/${vmId}`)).statusCode, 200);
      now = await settled(vmId);
      assert.equal(now.status, 'Deleted');
      assert.deepEqual(leftOf(vmId), []);
    });
  });
});

describe('a worker killed in the middle of a create (DATACENTER=libvirt)', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let t: TestApp | undefined;
  let child: ChildProcess | undefined;
  let configFile: string;
  const clock = new ManualClock(new Date());

  before(async () => {
    setup = testSetup();
    configFile = writeConfig(setup);
    t = await buildTestApp({ db: 'postgres', clock, worker: false, env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: configFile } });
  });

  after(async () => {
    child?.kill('SIGKILL');
    await t?.close();
    if (setup) removeEverything(setup);
  });

  const startLibvirtWorker = () => startWorkerProcess(t!, { DATACENTER: 'libvirt', LIBVIRT_CONFIG: configFile });

  test('SIGKILL after the disks are made: the sweep finishes the create after the lease ran out, one domain and no leaked disk', () =>
    withLibvirtLock('shared', async () => {
      const c = await customerSession(t!);
      await fund(t!, c.id);
      child = await startLibvirtWorker();
      const res = await t!.app.inject({ method: 'POST', url: '/api/compute/vm', headers: { cookie: c.cookie }, payload: { name: 'killed', location_id: 1, tier_id: await seededTier(t!), os: 'debian-12' } });
      assert.equal(res.statusCode, 201, res.body);
      const vmId: number = res.json().data.id;
      const rootDisk = path.join(setup.dirs[0]!, `${setup.prefix}-vm-${vmId}-root.qcow2`);
      // the other worker takes the job; it dies once the VM's boot disk exists
      await eventually(async () => existsSync(rootDisk), 120_000, 20);
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = undefined;
      assert.equal((await getVm(t!, c.cookie, vmId)).status, 'Creating');

      // this process takes over once the dead worker's lease has run out
      await t!.container.startWorker();
      // the dead worker leased on its own system clock, and the wait for the libvirt lock may have been long
      clock.set(new Date(Date.now() + 12 * 60_000));
      // the access token of the earlier login may have expired on the moved clock: log in again
      const cookie = await loginCustomer(t!, c.email, c.password);
      await t!.container.queue.runNow('resources.sweep');
      const vm = await eventually(
        async () => {
          const now = await getVm(t!, cookie, vmId);
          return now.pending_action === null ? now : undefined;
        },
        BOOT_MS,
        250,
      );
      assert.equal(vm.status, 'Running', JSON.stringify(vm));
      const ours = listEverything(setup).filter((l) => new RegExp(`${setup.prefix}-vm-${vmId}(?![0-9])`).test(l.name));
      assert.deepEqual(
        ours.filter((l) => l.kind === 'domain').map((l) => l.name),
        [`${setup.prefix}-vm-${vmId}`],
        'one domain',
      );
      assert.equal(domstate(`${setup.prefix}-vm-${vmId}`), 'running');
      assert.deepEqual(
        ours
          .filter((l) => l.kind === 'file')
          .map((l) => path.basename(l.name))
          .sort(),
        [`${setup.prefix}-vm-${vmId}-cidata.iso`, `${setup.prefix}-vm-${vmId}-root.qcow2`, `${setup.prefix}-vm-${vmId}.boot`, `${setup.prefix}-vm-${vmId}.console.log`],
        'the files of one machine, none left over from the killed attempt',
      );

      assert.equal((await t!.app.inject({ method: 'DELETE', url: `/api/compute/vm/${vmId}`, headers: { cookie } })).statusCode, 200);
      const gone = await eventually(
        async () => {
          const now = await getVm(t!, cookie, vmId);
          return now.pending_action === null ? now : undefined;
        },
        BOOT_MS,
        250,
      );
      assert.equal(gone.status, 'Deleted');
      assert.deepEqual(
        listEverything(setup).filter((l) => new RegExp(`${setup.prefix}-vm-${vmId}(?![0-9])`).test(l.name)),
        [],
      );
    }));
});
