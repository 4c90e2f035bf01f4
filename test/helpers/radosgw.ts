import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './money.js';

/**
 * A throw-away single-node Ceph cluster with a RADOS Gateway on loopback: one monitor and one OSD
 * on the in-memory memstore, then radosgw (docs/architecture.md, "Object storage"). Every
 * daemon runs in the foreground as a child of this process, so `stop()` (and, as a last resort,
 * this process's exit) ends them all; nothing is left idling after the tests.
 */
export interface Radosgw {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  stop(): Promise<void>;
  /** Stops only the gateway (the cluster and its data stay): S3 calls fail until startGateway. */
  stopGateway(): Promise<void>;
  /** Starts the gateway again on the same port and waits until it answers. */
  startGateway(): Promise<void>;
}

export function radosgwInstalled(): boolean {
  return ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool', 'ceph-authtool', 'ceph'].every(
    (bin) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0,
  );
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * The ceph CLI first asks the monitor for its command descriptions. On a loaded machine it can ask
 * before its own client has received the monitor map, so the request carries an all-zero fsid
 * and the monitor refuses it ('wrong fsid', EPERM). The command itself was never sent then, so
 * asking again is safe for every command, idempotent or not.
 */
const NOT_SENT = /problem getting command descriptions from mon/;

function run(cmd: string, args: string[], conf: string): string {
  for (let attempt = 1; ; attempt++) {
    const res = spawnSync(cmd, ['-c', conf, ...args], { encoding: 'utf8', timeout: 60_000 });
    if (res.status === 0) return res.stdout;
    if (cmd === 'ceph' && attempt < 5 && NOT_SENT.test(res.stderr)) continue;
    throw new Error(`${cmd} ${args.join(' ')} failed (${res.status}): ${res.stderr || res.stdout}`);
  }
}

function daemon(cmd: string, args: string[], outFile: string): ChildProcess {
  const out = openSync(outFile, 'a');
  const child = spawn(cmd, args, { stdio: ['ignore', out, out], env: { ...process.env, CEPH_ARGS: '' } });
  closeSync(out);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function logTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, daemons: ChildProcess[], logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    const dead = daemons.find((d) => d.exitCode !== null || d.signalCode !== null);
    if (dead) {
      const out = path.join(path.dirname(logFile), `${path.basename(dead.spawnargs[0]!)}.out`);
      throw new Error(`radosgw harness: ${dead.spawnargs[0]} exited (${dead.exitCode ?? dead.signalCode}) while waiting for ${what}:\n${logTail(logFile)}\n${logTail(out)}`);
    }
    if (Date.now() > deadline) throw new Error(`radosgw harness: ${what} not ready within ${timeoutMs} ms:\n${logTail(logFile)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Starts the cluster; a start that fails (a daemon dying on a loaded machine) is tried once more from scratch. */
export async function startRadosgw(attempts = 2, opts: { memstoreBytes?: number } = {}): Promise<Radosgw> {
  for (let i = 1; ; i++) {
    try {
      return await startOnce(opts.memstoreBytes ?? 512 * 1024 ** 2);
    } catch (err) {
      if (i >= attempts) throw err;
      console.error(`radosgw harness: attempt ${i} failed, trying again: ${(err as Error).message.split('\n')[0]}`);
    }
  }
}

/** `memstoreBytes`: what the in-memory OSD holds (the tests' default 512 MiB; a benchmark of large backups needs more). */
async function startOnce(memstoreBytes: number): Promise<Radosgw> {
  const dir = mkdtempSync(path.join(tmpdir(), 'chp-ceph-'));
  const conf = path.join(dir, 'ceph.conf');
  const fsid = randomUUID();
  const monPort = await freePort();
  const rgwPort = await freePort();
  const started: ChildProcess[] = [];
  const stop = async () => {
    for (const child of started.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    mkdirSync(path.join(dir, 'run'));
    mkdirSync(path.join(dir, 'mon'));
    mkdirSync(path.join(dir, 'osd', 'osd.0'), { recursive: true });
    writeFileSync(
      conf,
      [
        '[global]',
        `fsid = ${fsid}`,
        `mon host = v1:127.0.0.1:${monPort}`,
        'public addr = 127.0.0.1',
        'auth cluster required = none',
        'auth service required = none',
        'auth client required = none',
        'osd pool default size = 1',
        'osd pool default min size = 1',
        'mon allow pool size one = true',
        'osd objectstore = memstore',
        `memstore device bytes = ${memstoreBytes}`,
        'osd crush chooseleaf type = 0',
        // the harness puts the OSD in the CRUSH map itself; the OSD's own start-up commands for it
        // sometimes reach the monitor before the OSD has the cluster's fsid and are refused
        // ('wrong fsid'), which ends the OSD
        'osd class update on start = false',
        'osd crush update on start = false',
        'osd pool default pg autoscale mode = off',
        'osd pool default pg num = 8',
        'osd pool default pgp num = 8',
        'mon max pg per osd = 1000',
        `run dir = ${dir}/run`,
        `log file = ${dir}/$name.log`,
        `admin socket = ${dir}/run/$name.asok`,
        `mon data = ${dir}/mon/$name`,
        `osd data = ${dir}/osd/$name`,
        `keyring = ${dir}/keyring`,
        // quotas checked against fresh stats: a test sees its quota at once
        'rgw bucket quota ttl = 0',
        'rgw user quota bucket sync interval = 0',
        'rgw user quota sync interval = 0',
        '',
      ].join('\n'),
    );
    spawnSync('monmaptool', ['--create', '--addv', 'a', `[v1:127.0.0.1:${monPort}]`, '--fsid', fsid, path.join(dir, 'monmap')], { stdio: 'ignore' });
    spawnSync('ceph-authtool', ['--create-keyring', path.join(dir, 'keyring'), '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *'], { stdio: 'ignore' });
    run('ceph-mon', ['--mkfs', '-i', 'a', '--monmap', path.join(dir, 'monmap'), '--keyring', path.join(dir, 'keyring')], conf);
    started.push(daemon('ceph-mon', ['-c', conf, '-i', 'a', '-f'], path.join(dir, 'ceph-mon.out')));
    await waitFor('ceph-mon', () => spawnSync('ceph', ['-c', conf, '--connect-timeout', '2', 'mon', 'stat'], { stdio: 'ignore', timeout: 10_000 }).status === 0, 120_000, started, path.join(dir, 'mon.a.log'));
    const osdId = run('ceph', ['osd', 'create'], conf).trim();
    run('ceph-osd', ['-i', osdId, '--mkfs'], conf);
    started.push(daemon('ceph-osd', ['-c', conf, '-i', osdId, '-f'], path.join(dir, 'ceph-osd.out')));
    run('ceph', ['osd', 'crush', 'add-bucket', 'node1', 'host'], conf);
    run('ceph', ['osd', 'crush', 'move', 'node1', 'root=default'], conf);
    run('ceph', ['osd', 'crush', 'add', `osd.${osdId}`, '1.0', 'host=node1'], conf);
    await waitFor('ceph-osd', () => /1 up/.test(run('ceph', ['osd', 'stat'], conf)), 180_000, started, path.join(dir, `osd.${osdId}.log`));
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    let gateway: ChildProcess | undefined;
    const startGateway = async () => {
      gateway = daemon('radosgw', ['-c', conf, '-n', 'client.rgw.a', '-f', `--rgw-frontends=beast endpoint=127.0.0.1:${rgwPort}`, `--rgw-data=${dir}/rgw`], path.join(dir, 'radosgw.out'));
      started.push(gateway);
      await waitFor(
        'radosgw',
        async () => {
          try {
            return (await fetch(endpoint, { signal: AbortSignal.timeout(2_000) })).status === 200;
          } catch {
            return false;
          }
        },
        180_000,
        started.filter((d) => d === gateway || !d.spawnargs[0]!.includes('radosgw')),
        path.join(dir, 'client.rgw.a.log'),
      );
    };
    const stopGateway = async () => {
      const g = gateway;
      if (!g || g.exitCode !== null || g.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => g.once('exit', () => resolve()));
      g.kill('SIGTERM');
      const timer = setTimeout(() => g.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    };
    await startGateway();
    const accessKey = `PLATFORM${randomBytes(6).toString('hex').toUpperCase()}`;
    const secretKey = randomBytes(20).toString('hex');
    run(
      'radosgw-admin',
      ['user', 'create', '--uid=platform', '--display-name=platform', '--caps=users=*;buckets=*;metadata=*;usage=*', `--access-key=${accessKey}`, `--secret-key=${secretKey}`, '--max-buckets=100000'],
      conf,
    );
    return { endpoint, accessKey, secretKey, stop, stopGateway, startGateway };
  } catch (err) {
    await stop();
    throw err;
  }
}
