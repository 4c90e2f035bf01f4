/**
 * The serial console of a real guest through libvirt (`virsh console` under `script`): a command
 * typed reaches the guest's shell on ttyS0 and its output comes back; the console ends when the
 * guest stops. Runs where libvirt answers (as guests.test.ts); under CI=true a missing libvirt fails.
 */
import assert from 'node:assert/strict';
import type { Duplex } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { ConsoleError } from '../index.js';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import { consoleEnded, libvirtAvailable, readUntil, removeEverything, testSetup, waitForPrompt, withLibvirtLock, type TestSetup } from './test-support.js';

const available = libvirtAvailable();
const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

const PROMPT = /root@vm-con:\/# /;

describe('the serial console of a real guest', { skip, concurrency: false }, () => {
  let setup: TestSetup;
  let dc: LibvirtDatacenter;
  let externalId: string;

  before(() =>
    withLibvirtLock('shared', async () => {
      setup = testSetup();
      dc = new LibvirtDatacenter(setup.config);
      const vm = await dc.vmHosts.createVm({ reference: 'vm-con', locationId: 1, cpu: 1, memoryMb: 160, diskGb: 2, cpuLimit: 100, os: 'test', publicIp: null, blockStorage: null });
      externalId = vm.externalId;
    }),
  );

  after(() => {
    if (setup) removeEverything(setup);
  });

  test('a command typed on the console runs in the guest and its output comes back; a second console takes the port over', () =>
    withLibvirtLock('shared', async () => {
      const first = await dc.consoles.open(externalId);
      let second: Duplex | undefined;
      try {
        await readUntil(first, /Connected to domain/);
        await waitForPrompt(first, PROMPT);
        first.write('echo console-$((6*7)); hostname\r');
        const out = await readUntil(first, /console-42[\s\S]*vm-con/);
        assert.match(out, /console-42\r?\n/);
        // the guest may still be printing the prompt to the first: the takeover comes in the middle of it
        const firstEnded = consoleEnded(first);
        second = await dc.consoles.open(externalId);
        await firstEnded;
        await waitForPrompt(second, PROMPT);
      } finally {
        first.destroy();
        second?.destroy();
      }
    }));

  test('the console ends when the guest stops, and a stopped guest has none', () =>
    withLibvirtLock('shared', async () => {
      const stream = await dc.consoles.open(externalId);
      await readUntil(stream, /Connected to domain/);
      const ended = consoleEnded(stream, 120_000);
      await dc.vmHosts.stopVm(externalId);
      await ended;
      await assert.rejects(dc.consoles.open(externalId), (err) => err instanceof ConsoleError && /not running/.test(err.message));
    }));
});
