/**
 * The VM console (`node --import tsx --expose-gc bench/console.ts`):
 * 1. a keystroke's round trip: one character sent over the console's WebSocket until its echo comes
 *    back, 200 times one after another (p50, p95), on the simulated datacenter's line shell (the
 *    platform's own share) and, where libvirt answers (root), on a real guest through `virsh
 *    console` (the test guest's shell on ttyS0 echoes it);
 * 2. how many sessions one API process holds and what each costs: N sessions opened on the
 *    simulated datacenter by a client in another process, the API process's heap and RSS before
 *    and after (after a GC); on libvirt, each session also runs `script` and `virsh`, whose RSS is
 *    read from /proc.
 * The API process is this one (the whole service on a fresh PostgreSQL database, its worker in the
 * same process, as the tests build it).
 *   CONSOLE_BENCH_SESSIONS (500) tunes part 2.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { libvirtAvailable, removeEverything, testSetup, withLibvirtLock } from '../src/integrations/datacenter/libvirt/test-support.js';
import { buildTestApp, eventually, type TestApp } from '../test/helpers/app.js';
import { createVm, fund, getVm, seededTier, vmJobsDone } from '../test/helpers/compute.js';
import { customerSession } from '../test/helpers/customers.js';
import { machine } from './lib.js';

const SESSIONS = Number(process.env.CONSOLE_BENCH_SESSIONS ?? 500);
const KEYSTROKES = 200;
const LIMITS = { CONSOLE_SESSIONS_PER_VM: '100', CONSOLE_SESSIONS_PER_CUSTOMER: '1000' };

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

/** A client side of this very script: opens every WebSocket path of the file, prints "open N", holds them. */
if (process.argv[2] === '--clients') {
  const { base, cookie, vms, sessions } = JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as { base: string; cookie: string; vms: number[]; sessions: number };
  let open = 0;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < sessions; i++) {
    const res = await fetch(`http://${base}/api/compute/vm/${vms[i % vms.length]}/console`, { method: 'POST', headers: { cookie } });
    const p = ((await res.json()) as { data: { websocket_path: string } }).data.websocket_path;
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://${base}${p}`, { headers: { cookie } });
      ws.on('open', () => resolve());
      ws.on('error', reject);
      ws.on('message', () => undefined);
      sockets.push(ws);
    });
    open++;
  }
  console.log(`open ${open}`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
  await new Promise(() => undefined);
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function ticketPath(t: TestApp, cookie: string, vmId: number): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `/api/compute/vm/${vmId}/console`, headers: { cookie } });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().data.websocket_path;
}

/** Opens a console and waits for `ready` in its output (pressing Enter every second). */
async function openConsole(base: string, cookie: string, path: string, ready: RegExp): Promise<{ ws: WebSocket; next: (pattern: string) => Promise<void> }> {
  const ws = new WebSocket(`ws://${base}${path}`, { headers: { cookie } });
  let text = '';
  let waiter: (() => void) | null = null;
  ws.on('message', (d: Buffer) => {
    text += d.toString('utf8');
    waiter?.();
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await eventually(async () => {
    if (ready.test(text)) return true;
    ws.send('\r');
    await new Promise((r) => setTimeout(r, 1000));
    return ready.test(text);
  }, 120_000, 0);
  return {
    ws,
    next: (pattern) =>
      new Promise<void>((resolve) => {
        text = '';
        waiter = () => {
          if (text.includes(pattern)) {
            waiter = null;
            resolve();
          }
        };
      }),
  };
}

/** `KEYSTROKES` characters one after another, each timed from send to its echo. */
async function roundTrips(con: { ws: WebSocket; next: (p: string) => Promise<void> }): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    const ch = String.fromCharCode(97 + (i % 26));
    const echoed = con.next(ch);
    const t0 = performance.now();
    con.ws.send(ch);
    await echoed;
    times.push(performance.now() - t0);
  }
  // the typed line is thrown away (Ctrl+U clears it on a real shell, Ctrl+C on the simulated one)
  con.ws.send('\x15\x03');
  return times;
}

const line = (label: string, times: number[]) => `| ${label} | ${pct(times, 50).toFixed(2)} ms | ${pct(times, 95).toFixed(2)} ms |`;

async function simulated(): Promise<string[]> {
  const t = await buildTestApp({ db: 'postgres', env: LIMITS });
  try {
    const base = await listen(t);
    const c = await customerSession(t, { vmLimit: 1000 });
    await fund(t, c.id);
    const vm = (await createVm(t, c.cookie, { name: 'bench', location_id: 1, tier_id: await seededTier(t) })).json().data;
    await vmJobsDone(t);
    const con = await openConsole(base, c.cookie, await ticketPath(t, c.cookie, vm.id), /# $/);
    const rtt = roundTrips(con);
    const times = await rtt;
    con.ws.close();

    // sessions held by one API process
    const vms: number[] = [];
    for (let i = 0; i < Math.ceil(SESSIONS / 100); i++) vms.push((await createVm(t, c.cookie, { name: `bench-${i}`, location_id: 1, tier_id: await seededTier(t), public_ip: false })).json().data.id);
    await vmJobsDone(t);
    const file = path.join(os.tmpdir(), `console-bench-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ base, cookie: c.cookie, vms, sessions: SESSIONS }));
    global.gc?.();
    const before = process.memoryUsage();
    const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--clients', file], { stdio: ['pipe', 'pipe', 'inherit'] });
    const t0 = performance.now();
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('open') && resolve()));
    const openMs = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 2000));
    global.gc?.();
    const after = process.memoryUsage();
    const perSession = (k: 'rss' | 'heapUsed') => ((after[k] - before[k]) / SESSIONS / 1024).toFixed(1);
    child.stdin.end();
    await new Promise((r) => child.on('exit', r));
    rmSync(file, { force: true });
    return [
      line('simulated line shell (the platform alone)', times),
      '',
      `${SESSIONS} sessions opened one after another (ticket, then WebSocket) by a client process in ${(openMs / 1000).toFixed(1)} s; the API process after a GC: RSS ${(before.rss / 2 ** 20).toFixed(0)} → ${(after.rss / 2 ** 20).toFixed(0)} MiB, heap ${(before.heapUsed / 2 ** 20).toFixed(0)} → ${(after.heapUsed / 2 ** 20).toFixed(0)} MiB: **${perSession('rss')} KiB RSS and ${perSession('heapUsed')} KiB heap a session**.`,
    ];
  } finally {
    await t.close();
  }
}

async function realGuest(): Promise<string[]> {
  const setup = testSetup();
  setup.input.images = { 'debian-12': setup.input.images.test! };
  const configFile = path.join(setup.dirs[1]!, `${setup.prefix}-config.json`);
  writeFileSync(configFile, JSON.stringify(setup.input));
  const t = await buildTestApp({ db: 'postgres', env: { DATACENTER: 'libvirt', LIBVIRT_CONFIG: configFile, ...LIMITS } });
  try {
    const base = await listen(t);
    const c = await customerSession(t);
    await fund(t, c.id);
    const vm = (await createVm(t, c.cookie, { name: 'bench', location_id: 1, tier_id: await seededTier(t), os: 'debian-12', public_ip: false })).json().data;
    await eventually(async () => (await getVm(t, c.cookie, vm.id)).status === 'Running', 300_000, 500);
    const con = await openConsole(base, c.cookie, await ticketPath(t, c.cookie, vm.id), /root@vm-\d+:\/# /);
    const times = await roundTrips(con);
    const pids = execFileSync('pgrep', ['-f', `console --force ${setup.prefix}-vm-${vm.id}`], { encoding: 'utf8' }).trim().split('\n');
    const rssKb = pids.reduce((n, pid) => n + Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0), 0);
    con.ws.close();
    return [line('real guest through virsh console (TCG guest)', times), '', `Each libvirt session also runs \`script\` and \`virsh console\`: **${(rssKb / 1024).toFixed(1)} MiB RSS** for the two processes.`];
  } finally {
    await t.close();
    removeEverything(setup);
  }
}

const load = os.loadavg().map((l) => l.toFixed(1)).join(' / ');
const out = [`Run of ${new Date().toISOString()} on ${machine()}, load average ${load} at the start.`, '', '| keystroke round trip | p50 | p95 |', '|---|---|---|'];
const sim = await simulated();
out.push(sim[0]!);
const lib = libvirtAvailable();
const real = lib.ok ? await withLibvirtLock('shared', realGuest) : [`| real guest | not measured: ${lib.why} | |`];
out.push(real[0]!, ...sim.slice(1), ...real.slice(1));
console.log(out.join('\n'));
process.exit(0);
