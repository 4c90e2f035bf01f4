import type { Hypervisor } from './host-access.js';
import { HostCommandError } from './host.js';

/** One disk of a running domain to copy: its device (vda, vdb) and the new qcow2 file it is copied into. */
export interface DiskCopyTarget {
  device: string;
  file: string;
}

export interface PointInTimeCopyOptions {
  /** how long QEMU's job may take; past it the job is aborted and `fail` thrown */
  timeoutMs: number;
  /** how often the job is looked at */
  pollMs: number;
  /**
   * Freeze the guest's file systems through its agent for the instant the job begins (a guest
   * without an agent, or one that does not answer, is copied without: `frozen` is false).
   */
  quiesce: boolean;
  /** The caller's error for a copy that failed or took too long (a SnapshotError, a BackupError). */
  fail: (message: string, detail?: string) => Error;
}

/**
 * A point-in-time copy of a running libvirt domain's disks, shared by snapshots and backups: a
 * push-mode backup job (`virsh backup-begin`) in which QEMU copies each disk as it was when the
 * job began into a new qcow2 file while the guest keeps writing to its own disks. The domain's
 * disk chain never changes (no overlay to merge back), so a crash half-way leaves only partial
 * target files, which the caller removes. When asked, the guest's file systems are frozen through
 * its agent (`domfsfreeze`) for the instant the job begins and thawed right after, so the copy is
 * application-consistent. Waits for the job's end; a job that ran out of time or failed while
 * waited for is aborted (`domjobabort`) and reported through `fail`.
 */
export async function pointInTimeCopy(hv: Hypervisor, domain: string, targets: readonly DiskCopyTarget[], o: PointInTimeCopyOptions): Promise<{ frozen: boolean }> {
  if (targets.length === 0) throw o.fail('no disk to copy');
  const xml = `<domainbackup mode='push'><disks>${targets.map((t) => `<disk name='${t.device}' type='file'><target file='${t.file}'/><driver type='qcow2'/></disk>`).join('')}</disks></domainbackup>`;
  const xmlFile = `${targets[0]!.file}.xml`;
  const frozen = o.quiesce ? await freezeGuest(hv, domain) : false;
  try {
    await hv.host.writeFile(xmlFile, xml, '0600');
    await hv.virsh.run(['backup-begin', domain, '--backupxml', xmlFile]);
  } finally {
    if (frozen) await hv.virsh.run(['domfsthaw', domain], [0, 1]);
    await hv.host.run(['rm', '-f', xmlFile]);
  }
  const deadline = Date.now() + o.timeoutMs;
  try {
    for (;;) {
      const info = (await hv.virsh.run(['domjobinfo', domain])).stdout;
      if (/Job type:\s+None/.test(info)) break;
      if (Date.now() > deadline) throw o.fail('copying the disks took too long');
      await new Promise((r) => setTimeout(r, o.pollMs));
    }
  } catch (err) {
    await hv.virsh.run(['domjobabort', domain], [0, 1]).catch(() => undefined);
    throw err;
  }
  const done = (await hv.virsh.run(['domjobinfo', domain, '--completed'], [0, 1])).stdout;
  if (!/Job type:\s+Completed/.test(done)) throw o.fail('copying the disks failed at the hypervisor', done.trim());
  return { frozen };
}

/** Aborts a backup job an earlier attempt left running on the domain (its worker died half-way). */
export async function abortLeftoverCopy(hv: Hypervisor, domain: string): Promise<void> {
  const out = (await hv.virsh.run(['domjobinfo', domain], [0, 1])).stdout;
  if (/Operation:\s+Backup/.test(out) && !/Job type:\s+None/.test(out)) await hv.virsh.run(['domjobabort', domain], [0, 1]);
}

/** Freezes the guest's file systems through its agent; false when it has none or it does not answer. */
export async function freezeGuest(hv: Hypervisor, domain: string): Promise<boolean> {
  try {
    await hv.virsh.run(['domfsfreeze', domain]);
    return true;
  } catch (err) {
    if (err instanceof HostCommandError && /agent|unsupported|not configured|not connected|not responding/i.test(err.stderr)) return false;
    throw err;
  }
}
