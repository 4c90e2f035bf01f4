import { SnapshotError, type RestoreSpec, type SnapshotDisk, type SnapshotSpec, type Snapshots, type TakenSnapshot } from '../snapshots.js';
import type { GuestBoot } from './guest-boot.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import { abortLeftoverCopy, pointInTimeCopy } from './disk-copy.js';

/** The device of each disk a snapshot can hold (as domain-xml.ts attaches them). */
const DEVICE: Record<SnapshotDisk, string> = { boot: 'vda', volume: 'vdb' };
/** How long a copy may take before the attempt is given up (the next one starts it again). */
const COPY_TIMEOUT_MS = 30 * 60_000;

interface Manifest extends TakenSnapshot {
  reference: string;
  machine: string;
}

/**
 * Snapshots of libvirt domains (docs/architecture.md, "Snapshots"). A running domain's disks are
 * copied point-in-time by the shared disk copy (disk-copy.ts: a push-mode `virsh backup-begin`
 * job, the guest's file systems frozen through its agent for the instant it begins): the domain's
 * own disk chain never changes, so a crash half-way leaves only a partial file (`*.part.qcow2`)
 * that the next attempt or the delete removes. A stopped domain's disks are copied with
 * `qemu-img convert`. A snapshot
 * is done once its manifest (`<name>.json`, written last) exists. Restore shuts the domain down,
 * writes each disk back from its copy into a new file that replaces the disk in one rename, and
 * boots it again when asked.
 */
export class LibvirtSnapshots implements Snapshots {
  constructor(
    private readonly access: HostAccess,
    private readonly guests: GuestBoot,
  ) {}

  private file(hv: Hypervisor, reference: string, disk: SnapshotDisk): string {
    return this.access.names.snapshotDisk(hv.config.imageDir, reference, disk);
  }

  private manifestFile(hv: Hypervisor, reference: string): string {
    return `${hv.config.imageDir}/${this.access.names.domain(reference)}.json`;
  }

  /** The machine's own disk (a file, or a logical volume for a volume on a volume group). */
  private diskOf(hv: Hypervisor, ref: string, disk: SnapshotDisk): { path: string; block: boolean } {
    const { names } = this.access;
    if (disk === 'boot') return { path: names.rootDisk(hv.config.imageDir, ref), block: false };
    if (hv.config.volumeGroup) return { path: names.dataVolume(hv.config.volumeGroup, ref), block: true };
    return { path: names.dataDisk(hv.config.imageDir, ref), block: false };
  }

  private async machine(machine: string, operation: 'snapshot' | 'restore_snapshot') {
    const ref = this.access.referenceOf(machine);
    this.access.checkReference(ref, operation);
    const found = await this.access.findDomain(ref);
    if (!found) throw new SnapshotError(operation, 'the machine does not exist at the datacenter');
    return { ref, ...found };
  }

  takeSnapshot(spec: SnapshotSpec): Promise<TakenSnapshot> {
    const { access } = this;
    access.checkReference(spec.reference, 'snapshot');
    const ref = access.referenceOf(spec.machine);
    return access.serial(`vm:${ref}`, () =>
      access.wrap('snapshot', async () => {
        const { hv, state } = await this.machine(spec.machine, 'snapshot');
        const done = await hv.host.readFile(this.manifestFile(hv, spec.reference));
        if (done) return pick(JSON.parse(done) as Manifest);
        const name = access.names.domain(ref);
        const targets = spec.disks.map((disk) => ({ disk, device: DEVICE[disk], file: this.file(hv, spec.reference, disk), part: this.file(hv, spec.reference, disk).replace(/\.qcow2$/, '.part.qcow2') }));
        // an attempt that crashed half-way may have left its job running and a partial copy
        if (state === 'running') await abortLeftoverCopy(hv, name);
        await hv.host.run(['rm', '-f', ...targets.map((t) => t.part)]);
        let consistency: TakenSnapshot['consistency'] = 'crash';
        if (state === 'running') {
          const { frozen } = await pointInTimeCopy(
            hv,
            name,
            targets.map((t) => ({ device: t.device, file: t.part })),
            { timeoutMs: COPY_TIMEOUT_MS, pollMs: this.guests.pollMs, quiesce: true, fail: (message, detail) => new SnapshotError('snapshot', message, false, detail) },
          );
          if (frozen) consistency = 'application';
        } else {
          for (const t of targets) {
            const src = this.diskOf(hv, ref, t.disk);
            await hv.host.run(['qemu-img', 'convert', '-q', ...(src.block ? ['-f', 'raw'] : []), '-O', 'qcow2', src.path, t.part], { timeoutMs: COPY_TIMEOUT_MS });
          }
        }
        const disks: TakenSnapshot['disks'] = [];
        for (const t of targets) {
          const info = JSON.parse((await hv.host.run(['qemu-img', 'info', '-U', '--output=json', t.part])).stdout) as { 'virtual-size': number; 'actual-size': number };
          await hv.host.run(['mv', '-f', t.part, t.file]);
          disks.push({ disk: t.disk, storedBytes: info['actual-size'], diskGb: Math.ceil(info['virtual-size'] / 1024 ** 3) });
        }
        const taken: TakenSnapshot = { consistency, disks };
        await hv.host.writeFile(this.manifestFile(hv, spec.reference), JSON.stringify({ ...taken, reference: spec.reference, machine: ref } satisfies Manifest));
        return taken;
      }),
    );
  }

  restoreSnapshot(spec: RestoreSpec): Promise<void> {
    const { access } = this;
    access.checkReference(spec.reference, 'restore_snapshot');
    const ref = access.referenceOf(spec.machine);
    return access.serial(`vm:${ref}`, () =>
      access.wrap('restore_snapshot', async () => {
        const { hv, state } = await this.machine(spec.machine, 'restore_snapshot');
        const copies = spec.disks.map((disk) => ({ disk, copy: this.file(hv, spec.reference, disk), own: this.diskOf(hv, ref, disk) }));
        for (const c of copies) {
          if ((await hv.host.run(['test', '-f', c.copy], { okCodes: [0, 1] })).code !== 0) throw new SnapshotError('restore_snapshot', 'the snapshot is not on the machine’s hypervisor');
        }
        await access.prepareHost(hv);
        await this.guests.shutOff(hv, ref, state);
        for (const c of copies) {
          if (c.own.block) {
            await hv.host.run(['qemu-img', 'convert', '-q', '-n', '-O', 'raw', c.copy, c.own.path], { timeoutMs: COPY_TIMEOUT_MS });
            continue;
          }
          const size = JSON.parse((await hv.host.run(['qemu-img', 'info', '-U', '--output=json', c.own.path], { okCodes: [0, 1] })).stdout || '{}') as { 'virtual-size'?: number };
          const next = `${c.own.path}.restore.qcow2`;
          await hv.host.run(['rm', '-f', next]);
          await hv.host.run(['qemu-img', 'convert', '-q', '-O', 'qcow2', c.copy, next], { timeoutMs: COPY_TIMEOUT_MS });
          const made = JSON.parse((await hv.host.run(['qemu-img', 'info', '--output=json', next])).stdout) as { 'virtual-size': number };
          // the disk keeps the size it has when it grew since the snapshot (a resize)
          if (size['virtual-size'] && size['virtual-size'] > made['virtual-size']) await hv.host.run(['qemu-img', 'resize', '-q', next, String(size['virtual-size'])]);
          await hv.host.run(['chown', '--reference', c.own.path, next], { okCodes: [0, 1] });
          await hv.host.run(['mv', '-f', next, c.own.path]);
        }
        if (spec.start) await this.guests.boot(hv, ref, 'start');
      }),
    );
  }

  deleteSnapshot(reference: string, locationId: number): Promise<void> {
    const { access } = this;
    access.checkReference(reference, 'delete_snapshot');
    return access.wrap('delete_snapshot', async () => {
      for (const hv of access.hypervisorsOf(locationId, 'delete_snapshot')) {
        const files = (['boot', 'volume'] as const).flatMap((d) => [this.file(hv, reference, d), this.file(hv, reference, d).replace(/\.qcow2$/, '.part.qcow2')]);
        // the manifest first: a delete cut short leaves no snapshot that looks whole
        await hv.host.run(['rm', '-f', this.manifestFile(hv, reference)]);
        await hv.host.run(['rm', '-f', ...files]);
      }
    });
  }
}

function pick(m: Manifest): TakenSnapshot {
  return { consistency: m.consistency, disks: m.disks };
}
