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
import { libvirtAvailable, removeEverything, testSetup, withLibvirtLock, type TestSetup } from './test-support.js';

const available = libvirtAvailable();
const skip = available.ok ? false : `libvirt is not available here: ${available.why}`;

if (!available.ok && process.env.CI === 'true') {
  test('libvirt is available in CI', () => {
    assert.fail(`the real-guest tests need libvirt in CI (.ci/run installs and starts it): ${available.why}`);
  });
}

/** Resolves with everything read once `pattern` shows in it; rejects when the stream ends first or after `ms`. */
function readUntil(stream: Duplex, pattern: RegExp, ms = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (err?: Error) => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (d: Buffer) => {
      text += d.toString('utf8');
      if (pattern.test(text)) done();
    };
    const onEnd = () => done(new Error(`the console ended before ${pattern}: ${JSON.stringify(text.slice(-300))}`));
    const timer = setTimeout(() => done(new Error(`no ${pattern} within ${ms} ms: ${JSON.stringify(text.slice(-300))}`)), ms);
    stream.on('data', onData);
    stream.once('end', onEnd);
  });
}

/** Presses Enter every second until the shell's prompt shows (the guest's getty may still be starting). */
async function prompt(stream: Duplex): Promise<void> {
  const seen = readUntil(stream, /root@vm-con:\/# /);
  let shown = false;
  void seen.finally(() => (shown = true)).catch(() => undefined);
  while (!shown) {
    stream.write('\r');
    await Promise.race([seen, new Promise((r) => setTimeout(r, 1000))]);
  }
  await seen;
}

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
      await readUntil(first, /Connected to domain/);
      await prompt(first);
      first.write('echo console-$((6*7)); hostname\r');
      const out = await readUntil(first, /console-42[\s\S]*vm-con/);
      assert.match(out, /console-42\r?\n/);
      const firstEnded = new Promise<void>((resolve) => first.once('end', resolve));
      const second = await dc.consoles.open(externalId);
      await prompt(second);
      await firstEnded;
      second.destroy();
    }));

  test('the console ends when the guest stops, and a stopped guest has none', () =>
    withLibvirtLock('shared', async () => {
      const stream = await dc.consoles.open(externalId);
      await readUntil(stream, /Connected to domain/);
      const ended = new Promise<void>((resolve) => stream.once('end', resolve));
      stream.resume();
      await dc.vmHosts.stopVm(externalId);
      await ended;
      await assert.rejects(dc.consoles.open(externalId), (err) => err instanceof ConsoleError && /not running/.test(err.message));
    }));
});
