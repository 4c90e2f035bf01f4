/**
 * What the real-guest tests of VM actions share (guest-reboot, guest-rescue, guest-rebuild): one
 * test guest with a public address, a 1 GB volume and an SSH key, and what it says of itself over
 * HTTP. Each file has a guest of its own, so each fits in the test runner's time per file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { MachineSpec } from '../index.js';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import { eventually, httpGet, libvirtAvailable, removeEverything, sshKey, testSetup, withLibvirtLock, type TestSetup } from './test-support.js';

const available = libvirtAvailable();
/** false, or why the real-guest tests are skipped here (under CI=true a missing libvirt fails instead) */
export const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

export const locked = (fn: () => Promise<void>) => () => withLibvirtLock('shared', fn);

export interface ActionGuest {
  setup: TestSetup;
  dc: LibvirtDatacenter;
  ip: string;
  key: { publicKey: string; fingerprint: string };
  spec: MachineSpec;
  /** its boot id and whether it runs the rescue system */
  boot(): Promise<{ id: string | null; rescue: boolean }>;
  /** the word at the start of its disk vda (`set`: written first) */
  marker(set?: string): Promise<string | null>;
  info(): Promise<string>;
  /** it answers over HTTP (its ready line can come a moment before httpd listens) */
  answering(): Promise<boolean>;
  remove(): void;
}

export function startGuest(): Promise<ActionGuest> {
  return withLibvirtLock('shared', async () => {
    const setup = testSetup();
    const dc = new LibvirtDatacenter(setup.config);
    const key = sshKey('ed25519', mkdtempSync(path.join(tmpdir(), 'guest-keys-')));
    const ip = dc.vmHosts.publicIpPool(1).addresses[0]!;
    const base = { reference: 'vm-r', locationId: 1, cpu: 1, memoryMb: 160, diskGb: 2, cpuLimit: 100, os: 'test', publicIp: ip, blockStorage: { machineId: 1, sizeGb: 1 }, sshKeys: [key.publicKey] };
    const g: ActionGuest = {
      setup,
      dc,
      ip,
      key,
      spec: { ...base, externalId: `${setup.prefix}-vm-r`, rebuild: 0 },
      async boot() {
        const text = (await httpGet(`http://${ip}/cgi-bin/boot`, 6000)) ?? '';
        return { id: /^boot (\S+)$/m.exec(text)?.[1] ?? null, rescue: /^rescue yes$/m.test(text) };
      },
      // writing the disk and syncing it is slow on an emulated guest of a busy host
      marker: (set?: string) => httpGet(`http://${ip}/cgi-bin/marker${set ? `?set=${set}` : ''}`, 30_000),
      info: async () => (await httpGet(`http://${ip}/cgi-bin/info`, 6000)) ?? '',
      answering: () => eventually(async () => (await g.boot()).id !== null, 30_000),
      remove: () => removeEverything(setup),
    };
    // the suite's `after` only knows a guest that started: one that did not is removed here
    try {
      await dc.vmHosts.createVm(base);
      assert.ok(await g.answering());
    } catch (err) {
      g.remove();
      throw err;
    }
    return g;
  });
}
