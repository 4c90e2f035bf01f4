import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HostCommandError, runLocal, type RunResult } from './host.js';

export type DomainState = 'running' | 'shut off' | 'paused' | 'other';

export interface DomainStats {
  name: string;
  state: DomainState;
  vcpus: number;
  memoryMb: number;
}

const MISSING = /failed to get domain|Domain not found|no domain with matching/i;

/**
 * libvirt through `virsh -c <uri>`: the tool operators use, the same on every libvirt version,
 * local or over qemu+ssh, with nothing to compile. Every call is a short-lived process with a
 * timeout; a daemon that is down fails the call at once (HostCommandError).
 */
export class Virsh {
  constructor(
    readonly uri: string,
    private readonly timeoutMs = 60_000,
  ) {}

  run(args: readonly string[], okCodes?: number[]): Promise<RunResult> {
    return runLocal(['virsh', '-c', this.uri, '-q', ...args], { timeoutMs: this.timeoutMs, ...(okCodes ? { okCodes } : {}) });
  }

  /** The domain's state, or null when there is no such domain. */
  async state(name: string): Promise<DomainState | null> {
    try {
      const out = (await this.run(['domstate', name])).stdout.trim();
      return out === 'running' || out === 'shut off' || out === 'paused' ? out : 'other';
    } catch (err) {
      if (err instanceof HostCommandError && MISSING.test(err.stderr)) return null;
      throw err;
    }
  }

  async list(): Promise<string[]> {
    const out = (await this.run(['list', '--all', '--name'])).stdout;
    return out
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  }

  /** vCPUs and memory of every domain defined on the host, running or not (one call). */
  async stats(): Promise<DomainStats[]> {
    const out = (await this.run(['domstats', '--raw', '--state', '--balloon', '--vcpu'])).stdout;
    const list: DomainStats[] = [];
    let cur: DomainStats | null = null;
    for (const line of out.split('\n')) {
      const d = /^Domain: '(.*)'$/.exec(line.trim());
      if (d) {
        cur = { name: d[1]!, state: 'other', vcpus: 0, memoryMb: 0 };
        list.push(cur);
        continue;
      }
      const kv = /^\s*([\w.-]+)=(.*)$/.exec(line);
      if (!cur || !kv) continue;
      const [, key, value] = kv;
      if (key === 'state.state') cur.state = value === '1' ? 'running' : value === '5' ? 'shut off' : value === '3' ? 'paused' : 'other';
      if (key === 'vcpu.maximum') cur.vcpus = Number(value);
      if (key === 'balloon.maximum') cur.memoryMb = Math.round(Number(value) / 1024);
    }
    return list;
  }

  async nodeInfo(): Promise<{ cpus: number; memoryMb: number }> {
    const out = (await this.run(['nodeinfo'])).stdout;
    const cpus = Number(/CPU\(s\):\s+(\d+)/.exec(out)?.[1] ?? 0);
    const kib = Number(/Memory size:\s+(\d+) KiB/.exec(out)?.[1] ?? 0);
    return { cpus, memoryMb: Math.floor(kib / 1024) };
  }

  async dumpXml(name: string, inactive = false): Promise<string | null> {
    try {
      return (await this.run(['dumpxml', name, ...(inactive ? ['--inactive'] : [])])).stdout;
    } catch (err) {
      if (err instanceof HostCommandError && MISSING.test(err.stderr)) return null;
      throw err;
    }
  }

  define(xml: string): Promise<void> {
    return this.withXmlFile(xml, (file) => this.run(['define', file]));
  }

  async start(name: string): Promise<void> {
    await this.run(['start', name]);
  }

  /** ACPI shutdown request; the guest decides when it is off */
  async shutdown(name: string): Promise<void> {
    await this.run(['shutdown', name]);
  }

  /** Pulls the plug; a domain that is not running is fine. */
  async destroy(name: string): Promise<void> {
    try {
      await this.run(['destroy', name]);
    } catch (err) {
      if (err instanceof HostCommandError && (MISSING.test(err.stderr) || /not running/i.test(err.stderr))) return;
      throw err;
    }
  }

  async undefine(name: string): Promise<void> {
    try {
      await this.run(['undefine', name]);
    } catch (err) {
      if (err instanceof HostCommandError && MISSING.test(err.stderr)) return;
      throw err;
    }
  }

  /** A device into the persistent definition (`config`) and/or the running guest (`live`). */
  attachDevice(name: string, xml: string, where: { live: boolean; config: boolean }): Promise<void> {
    return this.withXmlFile(xml, (file) => this.run(['attach-device', name, file, ...flags(where)]));
  }

  detachDevice(name: string, xml: string, where: { live: boolean; config: boolean }): Promise<void> {
    return this.withXmlFile(xml, (file) => this.run(['detach-device', name, file, ...flags(where)]));
  }

  /** virsh reads XML from a file on this machine (also for a remote URI): a private temp file. */
  private async withXmlFile(xml: string, fn: (file: string) => Promise<unknown>): Promise<void> {
    const dir = await mkdtemp(path.join(tmpdir(), 'virsh-'));
    try {
      const file = path.join(dir, 'device.xml');
      await writeFile(file, xml, { mode: 0o600 });
      await fn(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

const flags = (where: { live: boolean; config: boolean }): string[] => [...(where.config ? ['--config'] : []), ...(where.live ? ['--live'] : [])];
