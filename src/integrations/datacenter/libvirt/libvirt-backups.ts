import { promises as fs } from 'node:fs';
import { BackupError, type BackupOperation, type Backups, type DiskCopy, type DiskPiece } from '../backups.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import { pointInTimeCopy } from './disk-copy.js';
import { HostCommandError } from './host.js';

/** How long a backup job of QEMU may take before the copy counts as failed. */
const COPY_TIMEOUT_MS = 30 * 60_000;

/**
 * Backups on libvirt: a point-in-time copy of the boot disk (vda) by the shared disk copy
 * (disk-copy.ts: a push-mode `virsh backup-begin` job) into a temporary qcow2 file beside the
 * disks, which QEMU fills while the guest keeps running on its own disk chain (untouched: no
 * snapshot overlay is added, so a crash leaves only the temporary file). A stopped machine's disk is copied with qemu-img. The copy is
 * then made a sparse raw file the reader walks in pieces. A restore writes the pieces into a
 * sparse raw file of the disk's size, converts it to qcow2 and puts it in the disk's place with a
 * rename, so a failure leaves the old disk. Temporary files are named `<prefix>-backup-<tag>.*`
 * in the hypervisor's image directory; the sweep removes those older than its age.
 *
 * The pieces are read and written with the local file system: the hypervisor must be this machine
 * (qemu:///system); a remote hypervisor (qemu+ssh) is refused for now.
 */
export class LibvirtBackups implements Backups {
  constructor(private readonly access: HostAccess) {}

  private run<T>(operation: BackupOperation, externalId: string, fn: (ref: string, hv: Hypervisor, state: string) => Promise<T>): Promise<T> {
    const { access } = this;
    const ref = access.referenceOf(externalId);
    access.checkReference(ref, operation);
    return access.wrap(operation, async () => {
      const where = await access.findDomain(ref);
      if (!where) throw new BackupError(operation, `machine ${ref} does not exist`);
      if (where.hv.host.remote) throw new BackupError(operation, 'backups need the hypervisor on the machine of the worker (a remote hypervisor is not supported yet)');
      return fn(ref, where.hv, where.state);
    });
  }

  private temp(hv: Hypervisor, tag: string): { qcow2: string; raw: string } {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(tag)) throw new BackupError('backup', `bad tag ${tag}`);
    const base = `${hv.config.imageDir}/${this.access.names.prefix}-backup-${tag}`;
    return { qcow2: `${base}.qcow2`, raw: `${base}.raw` };
  }

  private async virtualSize(hv: Hypervisor, file: string): Promise<number> {
    const info = JSON.parse((await hv.host.run(['qemu-img', 'info', '-U', '--output=json', file])).stdout) as { 'virtual-size': number };
    return info['virtual-size'];
  }

  diskSize(externalId: string): Promise<number> {
    return this.run('backup', externalId, (ref, hv) => this.virtualSize(hv, this.access.names.rootDisk(hv.config.imageDir, ref)));
  }

  copyDisk(externalId: string, tag: string): Promise<DiskCopy> {
    return this.run('backup', externalId, async (ref, hv, state) => {
      const root = this.access.names.rootDisk(hv.config.imageDir, ref);
      const { qcow2, raw } = this.temp(hv, tag);
      // a retry of the same backup starts over
      await hv.host.run(['rm', '-f', qcow2, raw]);
      const name = this.access.names.domain(ref);
      if (state === 'running') {
        await pointInTimeCopy(hv, name, [{ device: 'vda', file: qcow2 }], { timeoutMs: COPY_TIMEOUT_MS, pollMs: 250, quiesce: false, fail: (message, detail) => new BackupError('backup', message, false, detail) });
      }
      else await hv.host.run(['qemu-img', 'convert', '-U', '-O', 'qcow2', root, qcow2], { timeoutMs: COPY_TIMEOUT_MS });
      await hv.host.run(['qemu-img', 'convert', '-f', 'qcow2', '-O', 'raw', qcow2, raw], { timeoutMs: COPY_TIMEOUT_MS });
      await hv.host.run(['rm', '-f', qcow2]);
      const sizeBytes = (await fs.stat(raw)).size;
      // where the raw file has data (the rest are holes, read as zeros without reading them)
      const map = JSON.parse((await hv.host.run(['qemu-img', 'map', '-f', 'raw', '--output=json', raw])).stdout) as { start: number; length: number; data: boolean }[];
      const extents = map.filter((e) => e.data).map((e) => [e.start, e.start + e.length] as const);
      const hasData = (from: number, to: number) => extents.some(([a, b]) => a < to && b > from);
      const close = async () => {
        await fs.rm(raw, { force: true });
        await fs.rm(qcow2, { force: true });
      };
      return {
        sizeBytes,
        async *pieces(pieceBytes: number) {
          const fh = await fs.open(raw, 'r');
          try {
            for (let offset = 0; offset < sizeBytes; offset += pieceBytes) {
              const length = Math.min(pieceBytes, sizeBytes - offset);
              if (!hasData(offset, offset + length)) {
                yield null;
                continue;
              }
              const buf = Buffer.alloc(length);
              let got = 0;
              while (got < length) {
                const { bytesRead } = await fh.read(buf, got, length - got, offset + got);
                if (bytesRead === 0) break;
                got += bytesRead;
              }
              yield buf;
            }
          } finally {
            await fh.close();
          }
        },
        close,
      };
    });
  }

  writeDisk(externalId: string, sizeBytes: number, pieces: AsyncIterable<DiskPiece>): Promise<void> {
    return this.run('restore', externalId, async (ref, hv, state) => {
      if (state === 'running' || state === 'paused') throw new BackupError('restore', 'the machine must be stopped to write its disk');
      const root = this.access.names.rootDisk(hv.config.imageDir, ref);
      const own = await this.virtualSize(hv, root);
      if (sizeBytes > own) throw new BackupError('restore', `the backup (${sizeBytes} bytes) does not fit on the disk (${own} bytes)`);
      const { raw } = this.temp(hv, `restore-${ref}`);
      const next = `${root}.restore`;
      try {
        const fh = await fs.open(raw, 'w');
        try {
          await fh.truncate(own);
          for await (const p of pieces) {
            if (p.offset + p.data.length > sizeBytes) throw new BackupError('restore', 'a piece lies outside the disk');
            await fh.write(p.data, 0, p.data.length, p.offset);
          }
        } finally {
          await fh.close();
        }
        await hv.host.run(['qemu-img', 'convert', '-f', 'raw', '-O', 'qcow2', raw, next], { timeoutMs: COPY_TIMEOUT_MS });
        await hv.host.run(['mv', '-f', next, root]);
      } finally {
        await fs.rm(raw, { force: true });
        await fs.rm(next, { force: true });
      }
    });
  }

  async sweepTemporary(olderThanMs: number): Promise<number> {
    let n = 0;
    const prefix = `${this.access.names.prefix}-backup-`;
    for (const hv of this.access.hypervisorList) {
      if (hv.host.remote) continue;
      let entries: string[];
      try {
        entries = await fs.readdir(hv.config.imageDir);
      } catch {
        continue;
      }
      for (const e of entries) {
        if (!e.startsWith(prefix)) continue;
        const file = `${hv.config.imageDir}/${e}`;
        try {
          if (Date.now() - (await fs.stat(file)).mtimeMs < olderThanMs) continue;
          await fs.rm(file, { force: true });
          n++;
        } catch (err) {
          if (!(err instanceof HostCommandError)) continue;
        }
      }
    }
    return n;
  }
}
