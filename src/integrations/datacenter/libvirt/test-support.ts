/**
 * What the real-guest tests share: the test image, a throw-away configuration with its own prefix
 * and public network, a listing of everything under that prefix, and small network probes.
 * Not used by the service.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseLibvirtConfig, type LibvirtConfig, type LibvirtConfigInput } from './config.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const IMAGE_DIR = process.env.GUEST_IMAGE_DIR ?? '/var/tmp/cloud-platform-guest-image';

const LOCK_FILE = '/run/lock/cloud-platform-libvirt-tests.lock';
const LOCK_GATE = '/run/lock/cloud-platform-libvirt-tests.gate';
/** One file per prefix and per public network in use by a test process: its pid. */
const CLAIMS = '/run/lock/cloud-platform-libvirt-tests.claims';

/** libvirt answers on qemu:///system (the daemons run, the tools are installed, we are root). */
export function libvirtAvailable(): { ok: true } | { ok: false; why: string } {
  if (process.getuid?.() !== 0) return { ok: false, why: 'not root' };
  for (const tool of ['virsh', 'qemu-img', 'nft', 'dnsmasq', 'haproxy', 'ip', 'ssh-keygen', 'genisoimage', 'flock']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return { ok: false, why: `${tool} is not installed` };
  }
  // asked under the tests' shared lock: guest-faults.test.ts stops libvirtd while it holds it exclusively
  const r = spawnSync('flock', ['-x', LOCK_GATE, 'flock', '-s', LOCK_FILE, 'virsh', '-c', 'qemu:///system', 'version'], { encoding: 'utf8', timeout: 900_000 });
  if (r.status !== 0) return { ok: false, why: `libvirtd does not answer: ${(r.stderr || r.stdout).trim()}` };
  return { ok: true };
}

/** Builds (or reuses) the test image with the script operators use. */
export function buildImage(): { disk: string; kernel: string; initrd: string; readyPattern: string } {
  execFileSync('bash', [path.join(repo, 'scripts/build-guest-image.sh'), IMAGE_DIR], { stdio: 'inherit' });
  return JSON.parse(readFileSync(path.join(IMAGE_DIR, 'image.json'), 'utf8'));
}

/**
 * Where the real Debian 12 image of scripts/build-real-image.sh is: REAL_IMAGE_DIR, else the cache
 * .ci/run builds it in (named by the script's checksum, so a changed script gets a new build).
 */
export function realImageDir(): string {
  if (process.env.REAL_IMAGE_DIR) return process.env.REAL_IMAGE_DIR;
  const sum = createHash('sha256').update(readFileSync(path.join(repo, 'scripts/build-real-image.sh'))).digest('hex').slice(0, 16);
  return path.join('/var/cache/cloud-hosting-platform', `real-image-${sum}`);
}

/** The real image's `images` entry, or why there is none. */
export function realImage(): { ok: true; image: { disk: string } } | { ok: false; why: string } {
  const file = path.join(realImageDir(), 'image.json');
  if (!existsSync(file)) return { ok: false, why: `the real Debian image is not built: bash scripts/build-real-image.sh ${path.dirname(file)}` };
  return { ok: true, image: JSON.parse(readFileSync(file, 'utf8')) };
}

/** Runs `command` as the user on the guest with the OpenSSH client (key only, no host key check: the guest is new). */
export function sshRun(user: string, address: string, keyFile: string, command: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(
    'ssh',
    ['-i', keyFile, '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes', '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR', '-o', 'ConnectTimeout=30', `${user}@${address}`, command],
    { encoding: 'utf8', timeout: 120_000 },
  );
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export interface TestSetup {
  prefix: string;
  dirs: string[];
  publicNetwork: string;
  /** the first three octets of the public network */
  net3: string;
  input: LibvirtConfigInput;
  config: LibvirtConfig;
}

/**
 * The real-guest test files run side by side; the one that stops libvirtd holds this lock
 * exclusively while it does, the others hold it shared around each step that talks to libvirt.
 * A gate taken before the lock keeps a waiting exclusive holder from being starved by shared ones.
 */
export async function withLibvirtLock<T>(mode: 'shared' | 'exclusive', fn: () => Promise<T>): Promise<T> {
  const gate = await holdFlock('-x', LOCK_GATE);
  let lock: (() => void) | undefined;
  try {
    lock = await holdFlock(mode === 'shared' ? '-s' : '-x', LOCK_FILE);
  } finally {
    if (mode === 'shared' || !lock) gate();
  }
  try {
    return await fn();
  } finally {
    lock!();
    if (mode === 'exclusive') gate();
  }
}

/** Holds a flock until the returned function is called. */
async function holdFlock(flag: '-s' | '-x', file: string): Promise<() => void> {
  const child = spawn('flock', [flag, file, 'sh', '-c', 'echo locked; exec cat >/dev/null'], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => d.includes('locked') && resolve());
    child.on('exit', (code) => reject(new Error(`flock exited with ${code}`)));
  });
  return () => child.stdin.end();
}


/** Test runs killed before their `after` leave their prefix behind: remove those older than an hour. */
function removeStaleRuns(): void {
  for (const dir of readdirSync('/var/tmp')) {
    const m = /^(t[a-z0-9]{3})-libvirt-test$/.exec(dir);
    if (!m || Date.now() - statSync(`/var/tmp/${dir}`).mtimeMs < 3_600_000) continue;
    spawnSync('bash', [path.join(repo, 'scripts/libvirt-cleanup.sh'), '--delete', m[1]!, `/var/tmp/${dir}/images`, `/var/tmp/${dir}/state`]);
    spawnSync('rm', ['-rf', `/var/tmp/${dir}`]);
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Claims the first free name that `candidate` draws, for this process: test files run side by side,
 * and two of them on one public /24 would each route the other's guests (two host bridges with one
 * subnet), on one prefix would remove each other's domains. A claim of a process that is gone is
 * taken over; `release` gives one back.
 */
function claim(kind: 'prefix' | 'net', candidate: () => string): string {
  mkdirSync(CLAIMS, { recursive: true });
  for (let i = 0; i < 1000; i++) {
    const name = candidate();
    const file = path.join(CLAIMS, `${kind}-${name}`);
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return name;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(file, 'utf8'));
      // a claim being written reads empty: leave it to its writer
      if (holder > 0 && !alive(holder)) unlinkSync(file);
    }
  }
  throw new Error(`no free ${kind} for a libvirt test (claims in ${CLAIMS})`);
}

function release(kind: 'prefix' | 'net', name: string): void {
  const file = path.join(CLAIMS, `${kind}-${name}`);
  if (existsSync(file) && readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
}

/** A configuration of its own: a prefix and a public /24 no other test process uses, directories under /var/tmp. */
export function testSetup(overrides: { bootTimeoutSeconds?: number; shutdownTimeoutSeconds?: number } = {}): TestSetup {
  removeStaleRuns();
  const image = buildImage();
  const prefix = claim('prefix', () => `t${randomBytes(2).toString('hex').slice(0, 3).replace(/^[0-9]/, 'z')}`);
  const net3 = claim('net', () => `198.19.${100 + (randomBytes(1)[0]! % 150)}`);
  const base = `/var/tmp/${prefix}-libvirt-test`;
  const imageDir = `${base}/images`;
  const stateDir = `${base}/state`;
  mkdirSync(imageDir, { recursive: true });
  mkdirSync(stateDir, { recursive: true });
  const input: LibvirtConfigInput = {
    prefix,
    bootTimeoutSeconds: overrides.bootTimeoutSeconds ?? 150,
    shutdownTimeoutSeconds: overrides.shutdownTimeoutSeconds ?? 20,
    images: { test: image },
    // the test guest serves as the rescue system too (it runs from its initrd, the VM's disks attached)
    rescue: { kernel: image.kernel, initrd: image.initrd, cmdline: 'guest.rescue=1', readyPattern: 'GUEST-UP ' },
    locations: {
      '1': {
        publicNetwork: `${net3}.0/24`,
        loadBalancerAddresses: `${net3}.240/28`,
        publicEgress: 'none',
        hypervisors: [{ name: 'hv-local', uri: 'qemu:///system', domainType: 'qemu', imageDir, stateDir, publicBridge: `${prefix}-pub`, vcpus: 32, memoryMb: 16_384 }],
      },
    },
  };
  return { prefix, dirs: [imageDir, stateDir], publicNetwork: `${net3}.0/24`, net3, input, config: parseLibvirtConfig(input) };
}

export interface Listing {
  kind: 'domain' | 'file' | 'link' | 'netns' | 'nft' | 'process';
  name: string;
}

/** Everything on this host under the prefix, as scripts/libvirt-cleanup.sh lists it. */
export function listEverything(setup: TestSetup): Listing[] {
  const out = execFileSync('bash', [path.join(repo, 'scripts/libvirt-cleanup.sh'), setup.prefix, ...setup.dirs], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const i = line.indexOf(' ');
      return { kind: line.slice(0, i) as Listing['kind'], name: line.slice(i + 1) };
    });
}

/** Removes everything under the prefix (also after a failed test), then the test's directories. */
export function removeEverything(setup: TestSetup): void {
  spawnSync('bash', [path.join(repo, 'scripts/libvirt-cleanup.sh'), '--delete', setup.prefix, ...setup.dirs], { stdio: 'inherit' });
  spawnSync('rm', ['-rf', path.dirname(setup.dirs[0]!)]);
  release('net', setup.net3);
  release('prefix', setup.prefix);
}

/**
 * The test image's busy loop (/cgi-bin/load): `start` starts it, `stop` ends it, `status` only asks;
 * the answer is `load on` or `load off`, or null when the guest did not answer.
 */
export async function guestLoad(ip: string, action: 'start' | 'stop' | 'status'): Promise<string | null> {
  const body = await httpGet(`http://${ip}/cgi-bin/load${action === 'status' ? '' : `?${action}`}`, 30_000);
  return body?.trim() ?? null;
}

/** One HTTP GET on a new connection; the body, or null when it did not answer within the time. */
export function httpGet(url: string, timeoutMs = 3000): Promise<string | null> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve(body.trim()));
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
  });
}

/** Asks the guest at `guest` (its public address) whether it can open a TCP connection to host:port. */
export async function probeFrom(guest: string, host: string, port: number): Promise<'open' | 'closed' | null> {
  const body = await httpGet(`http://${guest}/cgi-bin/probe?host=${host}&port=${port}`, 6000);
  return body === 'open' || body === 'closed' ? body : null;
}

/** Whether `guest` reaches host:port within 30 s: one probe's 1 s connect can miss on a loaded host running emulated guests. */
export function opens(guest: string, host: string, port: number): Promise<boolean> {
  return eventually(async () => (await probeFrom(guest, host, port)) === 'open', 30_000);
}

/** Polls `fn` until it returns true or the time runs out; returns whether it did. */
export async function eventually(fn: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 500): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Opens a TCP connection and resolves once connected. */
export function connect(host: string, port: number, timeoutMs = 3000): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host, port });
    const t = setTimeout(() => {
      s.destroy();
      reject(new Error(`no connection to ${host}:${port}`));
    }, timeoutMs);
    s.once('connect', () => {
      clearTimeout(t);
      resolve(s);
    });
    s.once('error', (err) => {
      clearTimeout(t);
      reject(err);
    });
  });
}

/** A fresh SSH key pair made by ssh-keygen: its public line, fingerprint as `ssh-keygen -lf` prints it, and private key file. */
export function sshKey(type: 'ed25519' | 'rsa', dir: string): { publicKey: string; fingerprint: string; file: string } {
  const file = path.join(dir, `key-${type}-${randomBytes(3).toString('hex')}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(type === 'rsa' ? ['-b', '2048'] : []), '-N', '', '-C', `test@${type}`, '-f', file]);
  const publicKey = readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint = execFileSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1]!;
  return { publicKey, fingerprint, file };
}

export function libvirtdAnswers(): boolean {
  return spawnSync('virsh', ['-c', 'qemu:///system', 'version'], { timeout: 10_000 }).status === 0;
}

/** Stops the libvirt daemon (the guests keep running: QEMU does not depend on it). */
export function stopLibvirtd(): void {
  const pidFile = ['/run/libvirtd.pid', '/var/run/libvirtd.pid'].find((f) => existsSync(f));
  const pid = pidFile ? Number(readFileSync(pidFile, 'utf8').trim()) : NaN;
  if (!Number.isInteger(pid) || pid <= 1) throw new Error('libvirtd wrote no pid file');
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    spawnSync('sleep', ['0.1']);
  }
  throw new Error('libvirtd did not stop');
}

export function startLibvirtd(): void {
  execFileSync('libvirtd', ['-d']);
  const deadline = Date.now() + 30_000;
  while (!libvirtdAnswers()) {
    if (Date.now() > deadline) throw new Error('libvirtd did not come back');
    spawnSync('sleep', ['0.2']);
  }
}

/** Resolves with what the console printed once `pattern` shows in it; rejects when the console ends first or after `ms`. */
export function readUntil(stream: Duplex, pattern: RegExp, ms = 30_000): Promise<string> {
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

/** Presses Enter every second until the shell's prompt shows on the console (the guest's getty may still be starting). */
export async function waitForPrompt(stream: Duplex, prompt: RegExp, ms = 30_000): Promise<void> {
  const seen = readUntil(stream, prompt, ms);
  let shown = false;
  void seen.finally(() => (shown = true)).catch(() => undefined);
  while (!shown) {
    stream.write('\r');
    await Promise.race([seen, new Promise((r) => setTimeout(r, 1000))]);
  }
  await seen;
}

/** Resolves when the console ends; rejects after `ms`, so a console that does not end fails instead of hanging. */
export function consoleEnded(stream: Duplex, ms = 30_000): Promise<void> {
  if (stream.readableEnded) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.off('end', onEnd);
      reject(new Error(`the console did not end within ${ms} ms`));
    }, ms);
    const onEnd = () => {
      clearTimeout(timer);
      resolve();
    };
    stream.once('end', onEnd);
    stream.resume();
  });
}
