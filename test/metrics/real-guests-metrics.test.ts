/**
 * Metrics of a real QEMU guest (the test image): `virsh domstats` counters between two reads give
 * its network and disk amounts, and its CPU share as the host's scheduler counted it, idle and
 * with a busy loop started over its HTTP (/cgi-bin/load); then the platform (DATACENTER=libvirt)
 * collects the same guest as a customer's VM and the customer, logged in to the console in
 * Chromium, sees its graphs drawn.
 * One guest, booted once (src/integrations/datacenter/libvirt/guest-actions-support.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { amountsBetween, type StoredCounters } from '../../src/modules/metrics/index.js';
import type { MachineCounters } from '../../src/integrations/datacenter/index.js';
import { locked, skip, startGuest, type ActionGuest } from '../../src/integrations/datacenter/libvirt/guest-actions-support.js';
import { guestLoad, httpGet } from '../../src/integrations/datacenter/libvirt/test-support.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { vms } from '../../src/modules/compute/compute.tables.js';
import { ManualClock } from '../../src/platform/clock.js';
import { findings, report } from '../helpers/axe.js';
import { startConsoleApp, type ConsoleApp } from '../helpers/browser.js';
import { seededTier } from '../helpers/compute.js';
import { createCustomer, loginCustomer } from '../helpers/customers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The CPU time the host's scheduler has given a domain's QEMU process, all its threads (its /proc stat). */
function hostCpuNs(domain: string): number {
  const pid = readFileSync(`/run/libvirt/qemu/${domain}.pid`, 'utf8').trim();
  // utime and stime are the 12th and 13th fields after the command's closing parenthesis
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e9) / TICKS_PER_SECOND;
}

describe('metrics of a real guest', { skip, concurrency: false }, () => {
  let g: ActionGuest;
  before(async () => {
    g = await startGuest();
  });
  after(() => g?.remove());

  const read = async (): Promise<{ at: number; c: MachineCounters }> => {
    const r = await g.dc.metrics.readCounters([{ externalId: g.spec.externalId, locationId: 1, hypervisor: null }], new Date());
    assert.deepEqual(r.failed, []);
    const c = r.machines.find((m) => m.externalId === g.spec.externalId);
    assert.ok(c, 'the running guest is among the counters read');
    return { at: Date.now(), c };
  };
  const stored = (s: { at: number; c: MachineCounters }): StoredCounters => ({ sampledAt: new Date(s.at), ...s.c });

  test('traffic and disk writes of the guest show in the amounts between two reads; its CPU share, idle and with a busy loop, is the one the host gave it', locked(async () => {
    const first = await read();
    assert.equal(first.c.vcpus, 1);
    assert.ok(first.c.cpuTimeNs > 0);
    assert.ok(first.c.memoryUsedBytes === null || first.c.memoryUsedBytes < 160 * 1_048_576, 'no balloon statistics in the test guest, or a plausible figure');
    for (let i = 0; i < 5; i++) assert.ok(await httpGet(`http://${g.ip}/cgi-bin/info`, 6000));
    assert.equal(await g.marker('metrics'), 'metrics');
    await sleep(5_000);
    const second = await read();
    const quiet = amountsBetween(stored(first), second.c, second.at - first.at)!;
    assert.ok(quiet.netInBytes > 0 && quiet.netInPackets >= 5, `requests reached the guest: ${JSON.stringify(quiet)}`);
    assert.ok(quiet.netOutBytes > 0 && quiet.netOutPackets >= 5, 'answers left it');
    assert.ok(quiet.diskWriteBytes >= 512 && quiet.diskWriteOps >= 1, 'the marker was written to its disk');

    // the CPU share read between two reads, beside what the host's scheduler gave the guest's
    // QEMU process meanwhile (under TCG the guest gets what the host's load leaves it: a busy loop
    // measured 30-100 % on a quiet host and 8 % beside a loaded test run)
    const cpuShare = async (ms: number) => {
      const from = await read();
      const hostFrom = hostCpuNs(g.spec.externalId);
      await sleep(ms);
      const to = await read();
      const host = ((hostCpuNs(g.spec.externalId) - hostFrom) / 1e6 / (to.at - from.at)) * 100;
      return { percent: amountsBetween(stored(from), to.c, to.at - from.at)!.cpuPercent, host };
    };
    const idle = await cpuShare(8_000);
    assert.equal(await guestLoad(g.ip, 'start'), 'load on');
    let busy: { percent: number; host: number };
    try {
      await sleep(2_000);
      busy = await cpuShare(8_000);
    } finally {
      // an emulated vCPU kept busy takes a host core from the next test
      assert.equal(await guestLoad(g.ip, 'stop'), 'load off');
    }
    const why = `busy ${busy.percent} % (host: ${busy.host.toFixed(2)} %) against idle ${idle.percent} % (host: ${idle.host.toFixed(2)} %)`;
    for (const s of [idle, busy]) assert.ok(Math.abs(s.percent - s.host) <= Math.max(1.5, s.host * 0.1), `the share read is the host's: ${why}`);
    assert.ok(busy.percent >= idle.percent * 3 && busy.percent >= idle.percent + 3, `the busy loop shows: ${why}`);
  }));

  test("the guest as a customer's VM: collected every minute, its owner logs in to the console and sees its graphs drawn with those samples", locked(async () => {
    const config = path.join(g.setup.dirs[1]!, `${g.setup.prefix}-config.json`);
    writeFileSync(config, JSON.stringify(g.setup.input));
    // each collection is of the minute that just ended: the platform's clock moves a minute per run
    const clock = new ManualClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 5_000));
    let app: ConsoleApp | undefined;
    try {
      app = await startConsoleApp({ clock, env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: config } });
      const owner = await createCustomer(app);
      // the VM row of the guest already running (created here, no second guest boots)
      const [vm] = await app.container.db
        .insert(vms)
        .values({ customerId: owner.id, name: 'real-graphs', locationId: 1, tierId: await seededTier(app), os: 'test', cpu: 1, memoryMb: 160, diskGb: 2, status: 'Running', publicIp: g.ip, externalId: g.spec.externalId, hypervisor: 'hv-local', startedAt: clock.now() })
        .returning({ id: vms.id });
      const id = vm!.id;
      const collector = app.container.services.metricsCollector;
      const baseline = await collector.collect();
      assert.deepEqual([baseline.vms, baseline.baselines, baseline.failedHypervisors], [1, 1, []]);
      for (let i = 0; i < 5; i++) {
        // requests to the guest between two reads: its network graph has something to show
        for (let r = 0; r < 3; r++) assert.ok(await httpGet(`http://${g.ip}/cgi-bin/info`, 6000));
        clock.advance(60_000);
        const run = await collector.collect();
        assert.deepEqual([run.stored, run.failedHypervisors], [1, []], JSON.stringify(run));
      }
      // what the console draws: the API's points of the last hour
      const series = await app.app.inject({ method: 'GET', url: `/api/compute/vm/${id}/metrics?range=1h`, headers: { cookie: await loginCustomer(app, owner.email, owner.password) } });
      assert.equal(series.statusCode, 200, series.body);
      const points = series.json().data.points as { cpu_percent: number; net_in_bytes_per_second: number; net_out_bytes_per_second: number }[];
      assert.equal(points.length, 5);
      assert.ok(points.every((p) => p.net_in_bytes_per_second > 0 && p.net_out_bytes_per_second > 0), `each minute saw the requests: ${series.body}`);

      const ctx = await app.context();
      const page = await ctx.newPage();
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      await page.getByRole('link', { name: 'Virtual machines' }).click();
      await page.getByRole('link', { name: 'real-graphs' }).click();
      await page.getByRole('heading', { name: 'real-graphs', level: 1 }).waitFor();
      const card = page.getByRole('region', { name: 'Graphs', exact: true });
      const cpu = card.getByTestId('graph-CPU');
      await cpu.locator('canvas').waitFor();
      assert.equal(await cpu.getAttribute('data-points'), '5', 'five minutes after the baseline');
      const last = points.at(-1)!;
      const cpuShown = last.cpu_percent.toFixed(last.cpu_percent < 10 ? 1 : 0);
      assert.match((await cpu.locator('figcaption').textContent()) ?? '', new RegExp(`latest: CPU used ${cpuShown.replace('.', '\\.')} %`));
      const net = card.getByTestId('graph-Network');
      assert.equal(await net.getAttribute('data-points'), '5');
      const netText = (await net.locator('figcaption').textContent()) ?? '';
      const rates = /In ([\d.]+) (B|KiB|MiB)\/s, Out ([\d.]+) (B|KiB|MiB)\/s/.exec(netText);
      assert.ok(rates && Number(rates[1]) > 0 && Number(rates[3]) > 0, `the requests show as traffic: ${netText}`);
      assert.match((await net.locator('.u-legend').textContent()) ?? '', /In[\s\S]*Out/);
      // the lines themselves: pixels of each series' colour on the canvas (none without points)
      assert.ok((await linePixels(page, 'graph-CPU', [29, 78, 216])) > 10, 'the CPU line is drawn');
      assert.ok((await linePixels(page, 'graph-Network', [14, 116, 144])) > 10, 'the network In line is drawn');
      // the test guest has no balloon driver: the console says it does not report its memory
      await card.getByTestId('graph-Memory in use').getByText('the guest does not report its memory').waitFor();
      assert.deepEqual(report(await findings(page, `/vms/${id}`, 1440)), []);
      await ctx.close();
    } finally {
      await app?.close();
    }
  }));
});

/** Pixels of about `rgb` on the chart canvas of the figure `testId`: the series line drawn in that colour. */
function linePixels(page: Page, testId: string, rgb: [number, number, number]): Promise<number> {
  return page.getByTestId(testId).locator('canvas').evaluate((canvas: HTMLCanvasElement, [r, g, b]) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 128 && Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 60) n++;
    return n;
  }, rgb);
}
