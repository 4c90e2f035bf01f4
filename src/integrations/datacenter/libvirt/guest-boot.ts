import { VmHostError, type VmOperation } from '../vm-hosts.js';
import type { ImageConfig, RescueConfig } from './config.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import type { DomainState } from './virsh.js';

/**
 * When a guest counts as up. An image with a `readyPattern` is up when its console prints a match.
 * A cloud image without one is up when cloud-init has finished (its last line on the console) or
 * its SSH port answers (sshd starts after cloud-init applied the network and the keys); its login
 * prompt comes earlier, before either, so it does not count.
 */
export function readiness(image: ImageConfig | RescueConfig | undefined): { pattern: RegExp; sshProbe: boolean } {
  if (image?.readyPattern) return { pattern: new RegExp(image.readyPattern), sshProbe: false };
  return { pattern: /Cloud-init v\. \S+ finished at/, sshProbe: true };
}

/** Asks, from the hypervisor, whether the guest's SSH server answers (its banner; a starved guest's sshd can take seconds to send it); bash's /dev/tcp needs no other tool. */
const SSH_PROBE = `timeout 10 bash -c 'exec 3<>"/dev/tcp/$0/22" && head -c 4 <&3' "$1" 2>/dev/null || true`;
/** polls between two SSH probes */
const PROBE_EVERY = 4;

/** What a boot needs ready on the VM's host first (after a host restart neither is there). */
export interface BootPrerequisites {
  applyFirewall(hv: Hypervisor): Promise<void>;
  ensureNetworksOf(hv: Hypervisor, vmRef: string): Promise<void>;
}

/**
 * Running means up: a guest counts as started once its serial console (a file) printed the image's
 * ready line after this start (the console's size at start is kept in `<domain>.boot`, so a retry
 * waits for the same boot). A guest that stops while booting or is not up in time is a VmHostError.
 */
export class GuestBoot {
  constructor(
    private readonly access: HostAccess,
    private readonly prerequisites: BootPrerequisites,
    readonly pollMs: number,
  ) {}

  /** A running guest that is up, whatever state the domain was found in. */
  async ensureUp(hv: Hypervisor, reference: string, state: DomainState, operation: VmOperation): Promise<void> {
    const names = this.access.names;
    if (state === 'running') {
      const mark = await hv.host.readFile(names.bootMark(hv.config.stateDir, reference));
      await this.waitUp(hv, reference, Number(mark ?? 0) || 0, operation);
      return;
    }
    if (state === 'paused') {
      await hv.virsh.run(['resume', names.domain(reference)]);
      return;
    }
    await this.boot(hv, reference, operation);
  }

  /** Starts the domain and waits for its ready line after this start. */
  async boot(hv: Hypervisor, reference: string, operation: VmOperation): Promise<void> {
    const offset = await this.markBoot(hv, reference);
    await this.prerequisites.applyFirewall(hv); // after a host restart the tables are gone
    await this.prerequisites.ensureNetworksOf(hv, reference);
    await hv.virsh.start(this.access.names.domain(reference));
    await this.waitUp(hv, reference, offset, operation);
  }

  /** Shuts the domain off: ACPI first, pulled off once the shutdown timeout has passed (or at once with none). */
  async shutOff(hv: Hypervisor, reference: string, state: DomainState): Promise<void> {
    if (state === 'shut off') return;
    const { config, names } = this.access;
    const name = names.domain(reference);
    if (state === 'running' && config.shutdownTimeoutSeconds > 0) {
      await hv.virsh.shutdown(name).catch(() => undefined);
      const deadline = Date.now() + config.shutdownTimeoutSeconds * 1000;
      while (Date.now() < deadline && (await hv.virsh.state(name)) === 'running') await new Promise((r) => setTimeout(r, this.pollMs));
    }
    if ((await hv.virsh.state(name)) !== 'shut off') await hv.virsh.destroy(name);
  }

  /** Keeps where the console ends now: the boot that follows (a start, a reboot) is up once its ready line shows past it. */
  async markBoot(hv: Hypervisor, reference: string): Promise<number> {
    const names = this.access.names;
    const size = await hv.host.sh('[ -f "$1" ] && stat -c %s "$1" || echo 0', [names.console(hv.config.stateDir, reference)]);
    const offset = Number(size.stdout.trim()) || 0;
    await hv.host.writeFile(names.bootMark(hv.config.stateDir, reference), String(offset));
    return offset;
  }

  /** How this boot is known to be up: the rescue system's or the image's ready line, else cloud-init's end or the SSH port. */
  private async readinessOf(hv: Hypervisor, reference: string): Promise<{ pattern: RegExp; probeAddress: string | null }> {
    const meta = await this.access.metadataOf(hv, reference);
    const { images, rescue } = this.access.config;
    const { pattern, sshProbe } = readiness(meta?.rescue ? rescue : meta ? images[meta.os] : undefined);
    return { pattern, probeAddress: sshProbe ? (meta?.publicIp ?? null) : null };
  }

  /** Polls the console after `offset` (and the SSH port) until the guest is up, the domain stops, or time runs out. */
  async waitUp(hv: Hypervisor, reference: string, offset: number, operation: VmOperation): Promise<void> {
    const seconds = this.access.config.bootTimeoutSeconds;
    const text = await this.upWithin(hv, reference, offset, operation, seconds);
    if (text !== true) throw new VmHostError(operation, `the guest of ${reference} was not up within ${seconds} s`, false, `last console line: ${lastLine(text)}`);
  }

  /** true once the guest is up after `offset`; the console so far when `seconds` ran out. A domain that stops meanwhile is a VmHostError. */
  async upWithin(hv: Hypervisor, reference: string, offset: number, operation: VmOperation, seconds: number): Promise<true | string> {
    const names = this.access.names;
    const { pattern, probeAddress } = await this.readinessOf(hv, reference);
    const file = names.console(hv.config.stateDir, reference);
    const deadline = Date.now() + seconds * 1000;
    let polls = 0;
    let text = '';
    for (;;) {
      const r = await hv.host.sh('[ -f "$1" ] && tail -c +"$2" "$1" || true', [file, String(offset + 1)]);
      text = r.stdout;
      if (pattern.test(text)) return true;
      if (probeAddress && polls % PROBE_EVERY === PROBE_EVERY - 1 && (await hv.host.sh(SSH_PROBE, [probeAddress])).stdout.startsWith('SSH-')) return true;
      if (++polls % 8 === 0 && (await hv.virsh.state(names.domain(reference))) !== 'running') {
        throw new VmHostError(operation, `the guest of ${reference} stopped while booting`, false, `last console line: ${lastLine(text)}`);
      }
      if (Date.now() > deadline) return text;
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines.at(-1) ?? '').slice(0, 200) || '(nothing on the console)';
}
