// A real Debian 12 cloud image (scripts/build-real-image.sh) on DATACENTER=libvirt: three VMs, one
// after another, each timed from POST /api/compute/vm to the first `ssh debian@<ip> true` that
// works, next to when the API first answered Running and when cloud-init said it finished (the
// guest's own uptime, from its console). Needs root, libvirt and the built image (REAL_IMAGE_DIR, or
// the cache .ci/run builds it in), as test/compute/real-guests-debian.test.ts does.
//
//   npm run bench -- real-boot [--write]
//   BENCH_REAL_VMS (3): how many VMs.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import type { LibvirtDatacenter } from '../src/integrations/datacenter/index.js';
import { realImage, removeEverything, sshKey, sshRun, testSetup, withLibvirtLock } from '../src/integrations/datacenter/libvirt/test-support.js';
import { buildTestApp } from '../test/helpers/app.js';
import { fund, seededTier } from '../test/helpers/compute.js';
import { customerSession } from '../test/helpers/customers.js';

const VMS = Number(process.env.BENCH_REAL_VMS ?? 3);
const TIMEOUT_MS = 600_000;

async function run(): Promise<string[]> {
  const image = realImage();
  if (!image.ok) throw new Error(image.why);
  return withLibvirtLock('shared', async () => {
    const setup = testSetup({ bootTimeoutSeconds: TIMEOUT_MS / 1000, shutdownTimeoutSeconds: 60 });
    setup.input.images = { 'debian-12': image.image };
    const configFile = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
    writeFileSync(configFile, JSON.stringify(setup.input));
    const t = await buildTestApp({ db: 'postgres', env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: configFile } });
    const rows: string[] = [];
    try {
      const c = await customerSession(t);
      await fund(t, c.id);
      const tierId = await seededTier(t);
      const key = sshKey('ed25519', mkdtempSync(path.join(tmpdir(), 'bench-real-keys-')));
      const made = await t.app.inject({ method: 'POST', url: '/api/ssh-keys', headers: { cookie: c.cookie }, payload: { name: 'bench', public_key: key.publicKey } });
      const keyId: number = made.json().data.id;
      const get = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie } })).json().data;
      const dc = t.container.datacenter as LibvirtDatacenter;
      const toSsh: number[] = [];
      for (let i = 0; i < VMS; i++) {
        const load = os.loadavg()[0]!.toFixed(1);
        const t0 = performance.now();
        const res = await t.app.inject({ method: 'POST', url: '/api/compute/vm', headers: { cookie: c.cookie }, payload: { name: `real-${i}`, location_id: 1, tier_id: tierId, os: 'debian-12', ssh_key_ids: [keyId] } });
        if (res.statusCode !== 201) throw new Error(res.body);
        const id: number = res.json().data.id;
        let running: number | null = null;
        let ssh: number | null = null;
        let ip: string | null = res.json().data.public_ip;
        while (ssh === null) {
          if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`vm ${id} not reachable by SSH within ${TIMEOUT_MS / 1000} s`);
          const vm = await get(id);
          ip ??= vm.public_ip;
          if (vm.status === 'Error') throw new Error(`vm ${id}: ${vm.error?.message}`);
          if (running === null && vm.status === 'Running') running = performance.now() - t0;
          if (ip && sshRun('debian', ip, key.file, 'true').code === 0) ssh = performance.now() - t0;
          else await new Promise((r) => setTimeout(r, 500));
        }
        if (running === null) {
          while ((await get(id)).status !== 'Running') await new Promise((r) => setTimeout(r, 250));
          running = performance.now() - t0;
        }
        const consoleText = readFileSync((await dc.vmHosts.describeVm(`vm-${id}`))!.console, 'utf8');
        const up = /Cloud-init v\. \S+ finished at .* Up ([\d.]+) seconds/.exec(consoleText)?.[1];
        toSsh.push(ssh);
        rows.push(`| ${i + 1} | **${(ssh / 1000).toFixed(0)} s** | ${(running / 1000).toFixed(0)} s | ${up ? `${Number(up).toFixed(0)} s` : 'not seen'} | ${load} |`);
        await t.app.inject({ method: 'DELETE', url: `/api/compute/vm/${id}`, headers: { cookie: c.cookie } });
        while ((await get(id)).status !== 'Deleted') await new Promise((r) => setTimeout(r, 250));
      }
      const p50 = [...toSsh].sort((a, b) => a - b)[Math.floor(toSsh.length / 2)]!;
      rows.push(`| p50 | **${(p50 / 1000).toFixed(0)} s** | | | |`);
      return rows;
    } finally {
      await t.close();
      removeEverything(setup);
    }
  });
}

export const section = {
  title: `A real Debian 12 image (real-boot): POST /api/compute/vm to the first SSH login, ${VMS} VMs one after another`,
  marker: 'REAL-BOOT',
  header: ['| VM | POST → first `ssh debian@<ip>` | POST → API says Running | cloud-init finished (guest uptime) | load average (1 min) at the POST |', '|---|---|---|---|---|'],
  run,
};
