/**
 * A real Debian 12 cloud image (scripts/build-real-image.sh: systemd, openssh-server, cloud-init)
 * on DATACENTER=libvirt, through the API: a customer creates a VM with an SSH key and a volume, and
 * once the API says Running they log in as `debian` with the OpenSSH client and find the host name,
 * the public address, the root disk grown to the tier's size and the volume at its size; after a
 * stop and a start they log in again; delete leaves nothing behind.
 * Runs where libvirt answers as root and the image is built (.ci/run builds it); elsewhere it is
 * skipped with the reason, except under CI=true, where either missing fails. Everything is made
 * under a random prefix and removed in `after`, also when a test fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LibvirtDatacenter } from '../../src/integrations/datacenter/index.js';
import {
  libvirtAvailable,
  listEverything,
  realImage,
  removeEverything,
  sshKey,
  sshRun,
  testSetup,
  withLibvirtLock,
  type TestSetup,
} from '../../src/integrations/datacenter/libvirt/test-support.js';
import { buildTestApp, eventually, type TestApp } from '../helpers/app.js';
import { customerSession } from '../helpers/customers.js';
import { fund, getVm, seededTier } from '../helpers/compute.js';

const available = libvirtAvailable();
const image = realImage();
const missing = !available.ok ? `libvirt is not available here: ${available.why}` : !image.ok ? image.why : null;
const skip = missing ?? false;

if (missing && process.env.CI === 'true') {
  test('libvirt and the real Debian image are available in CI', () => {
    assert.fail(`the real-image test needs libvirt and the image in CI (.ci/run installs, starts and builds them): ${missing}`);
  });
}

/** A real image boots in 2 to 3 minutes under TCG on a loaded 2-core machine. */
const BOOT_MS = 420_000;
const GiB = 1024 ** 3;

describe('a real Debian 12 image through the API: SSH in as debian (DATACENTER=libvirt)', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let t: TestApp | undefined;
  let cookie: string;
  let key: { publicKey: string; fingerprint: string; file: string };
  let vm: { id: number; public_ip: string; disk_gb: number };

  before(async () => {
    setup = testSetup({ bootTimeoutSeconds: Math.round(BOOT_MS / 1000) - 30, shutdownTimeoutSeconds: 90 });
    setup.input.images = { 'debian-12': (image as { image: { disk: string } }).image };
    const configFile = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
    writeFileSync(configFile, JSON.stringify(setup.input));
    t = await buildTestApp({ db: 'postgres', env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: configFile } });
    assert.ok(t.container.datacenter instanceof LibvirtDatacenter);
    const c = await customerSession(t);
    await fund(t, c.id);
    cookie = c.cookie;
    key = sshKey('ed25519', mkdtempSync(path.join(tmpdir(), 'real-image-keys-')));
  });

  after(async () => {
    await t?.close();
    if (setup) removeEverything(setup);
  });

  const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => t!.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  /** the VM once no action is under way; when that does not come, the failure shows the guest's last console lines */
  const settled = (id: number) =>
    eventually(
      async () => {
        const now = await getVm(t!, cookie, id);
        return now.pending_action === null ? now : undefined;
      },
      BOOT_MS,
      500,
    ).catch(async (err: Error) => {
      const described = await (t!.container.datacenter as LibvirtDatacenter).vmHosts.describeVm(`vm-${id}`);
      const text = described && existsSync(described.console) ? readFileSync(described.console, 'utf8') : '(no console)';
      throw new Error(`${err.message}; the VM: ${JSON.stringify(await getVm(t!, cookie, id))}; its console ends with:\n${text.split('\n').slice(-15).join('\n')}`);
    });
  const ssh = (command: string) => sshRun('debian', vm.public_ip, key.file, command);

  test('create with an SSH key and a 10 GB volume → Running → ssh debian@<ip>: its name, address, grown root disk and volume', { timeout: BOOT_MS + 120_000 }, () =>
    withLibvirtLock('shared', async () => {
      const made = await api('POST', '/api/ssh-keys', { name: 'laptop', public_key: key.publicKey });
      assert.equal(made.statusCode, 201, made.body);
      const storage = await api('GET', '/api/compute/block-storage-tiers?location_id=1');
      assert.equal(storage.statusCode, 200, storage.body);
      const res = await api('POST', '/api/compute/vm', {
        name: 'real-debian',
        location_id: 1,
        tier_id: await seededTier(t!),
        os: 'debian-12',
        ssh_key_ids: [made.json().data.id],
        block_storage_tier_id: storage.json().data[0].id,
        block_storage_gb: 10,
      });
      assert.equal(res.statusCode, 201, res.body);
      const created = await settled(res.json().data.id);
      assert.equal(created.status, 'Running', JSON.stringify(created));
      vm = created;
      assert.match(vm.public_ip, /^198\.19\.\d+\.\d+$/);

      // Running means reachable: the first login works
      const r = ssh('hostname; ip -4 -o addr show; lsblk -bdno NAME,SIZE /dev/vda /dev/vdb; findmnt -bno SIZE /; sudo -n true && echo sudo-ok');
      assert.equal(r.code, 0, `ssh: ${r.stderr}`);
      const lines = r.stdout.split('\n');
      assert.equal(lines[0], `vm-${vm.id}`, 'the host name the platform gave it');
      assert.match(r.stdout, new RegExp(`inet ${vm.public_ip.replaceAll('.', '\\.')}/24 `), 'its public address');
      assert.match(r.stdout, new RegExp(`^vda +${vm.disk_gb * GiB}$`, 'm'), 'the tier-sized boot disk');
      assert.match(r.stdout, new RegExp(`^vdb +${10 * GiB}$`, 'm'), 'the volume at its size');
      const rootFs = Number(lines.find((l) => /^\d+$/.test(l)));
      assert.ok(rootFs > (vm.disk_gb - 1) * GiB, `the root file system grew to the disk: ${rootFs} bytes`);
      assert.match(r.stdout, /^sudo-ok$/m, 'the default user has sudo');
    }));

  test('stop → Stopped; start → Running, and ssh works again', { timeout: BOOT_MS + 240_000 }, () =>
    withLibvirtLock('shared', async () => {
      assert.ok(vm, 'the VM of the first test');
      assert.equal((await api('POST', `/api/compute/vm/${vm.id}/stop`)).statusCode, 200);
      assert.equal((await settled(vm.id)).status, 'Stopped');
      assert.notEqual(ssh('true').code, 0, 'nobody answers while it is stopped');
      assert.equal((await api('POST', `/api/compute/vm/${vm.id}/start`)).statusCode, 200);
      const now = await settled(vm.id);
      assert.equal(now.status, 'Running', JSON.stringify(now));
      const r = ssh('hostname');
      assert.equal(r.code, 0, `ssh: ${r.stderr}`);
      assert.equal(r.stdout.trim(), `vm-${vm.id}`);
    }));

  test('delete → Deleted, and nothing of the VM is left on the host', () =>
    withLibvirtLock('shared', async () => {
      assert.ok(vm, 'the VM of the first test');
      assert.equal((await api('DELETE', `/api/compute/vm/${vm.id}`)).statusCode, 200);
      assert.equal((await settled(vm.id)).status, 'Deleted');
      assert.notEqual(spawnSync('virsh', ['-c', 'qemu:///system', 'domstate', `${setup.prefix}-vm-${vm.id}`]).status, 0, 'no domain');
      // what stays is the host's public bridge, the adapter's (empty) tables, its lock files, the empty group state and the config
      const unexpected = listEverything(setup).filter(
        (l) => !(l.kind === 'link' && l.name === `${setup.prefix}-pub`) && l.kind !== 'nft' && !(l.kind === 'file' && /(\.lock|-firewall\.json|-config\.json)$/.test(l.name)),
      );
      assert.deepEqual(unexpected, []);
    }));
});
