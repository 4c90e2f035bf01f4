import { BackupError, type BackupOperation, type Backups, type DiskCopy, type DiskPiece } from '../backups.js';
import type { HostAccess, Hypervisor } from './host-access.js';
import { pointInTimeCopy } from './disk-copy.js';
import { HostCommandError } from './host.js';

/** How long a backup job of QEMU may take before the copy counts as failed. */
const COPY_TIMEOUT_MS = 30 * 60_000;
/** A restore's consecutive pieces are written by one dd of at most this many bytes. */
const WRITE_BATCH_BYTES = 64 * 1024 * 1024;

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
 * Every file operation is a command on the hypervisor's host (libvirt/host.ts: the local machine,
 * or ssh for a qemu+ssh:// hypervisor, the same login virsh uses): the pieces with data are read
 * by `dd` (one per run of such pieces, streamed, so holes are never sent), a restore's pieces are
 * written by `dd` into a sparse file made with `truncate`, and the sweep is a `find`. So a remote
 * hypervisor is backed up and restored like a local one, only through ssh.
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
      } else await hv.host.run(['qemu-img', 'convert', '-U', '-O', 'qcow2', root, qcow2], { timeoutMs: COPY_TIMEOUT_MS });
      await hv.host.run(['qemu-img', 'convert', '-f', 'qcow2', '-O', 'raw', qcow2, raw], { timeoutMs: COPY_TIMEOUT_MS });
      await hv.host.run(['rm', '-f', qcow2]);
      const sizeBytes = Number((await hv.host.run(['stat', '-c', '%s', raw])).stdout.trim());
      // where the raw file has data (the rest are holes, read as zeros without reading them)
      const map = JSON.parse((await hv.host.run(['qemu-img', 'map', '-f', 'raw', '--output=json', raw])).stdout) as { start: number; length: number; data: boolean }[];
      const extents = map.filter((e) => e.data).map((e) => [e.start, e.start + e.length] as const);
      const hasData = (from: number, to: number) => extents.some(([a, b]) => a < to && b > from);
      return {
        sizeBytes,
        async *pieces(pieceBytes: number) {
          const count = Math.ceil(sizeBytes / pieceBytes);
          for (let i = 0; i < count; ) {
            if (!hasData(i * pieceBytes, Math.min(sizeBytes, (i + 1) * pieceBytes))) {
              yield null;
              i++;
              continue;
            }
            // a run of pieces with data, read by one dd on the host (through ssh for a remote one)
            let end = i + 1;
            while (end < count && hasData(end * pieceBytes, Math.min(sizeBytes, (end + 1) * pieceBytes))) end++;
            const lengths = Array.from({ length: end - i }, (_, k) => Math.min(pieceBytes, sizeBytes - (i + k) * pieceBytes));
            yield* exactPieces(hv.host.stream(['dd', `if=${raw}`, `bs=${pieceBytes}`, `skip=${i}`, `count=${end - i}`, 'iflag=fullblock', 'status=none']), lengths);
            i = end;
          }
        },
        close: async () => {
          await hv.host.run(['rm', '-f', raw, qcow2]);
        },
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
        await hv.host.run(['rm', '-f', raw]);
        await hv.host.run(['truncate', '-s', String(own), raw]);
        // pieces that follow each other are written by one dd (through ssh for a remote host)
        let batch: DiskPiece[] = [];
        const flush = async () => {
          if (batch.length === 0) return;
          const data = Buffer.concat(batch.map((b) => b.data));
          await hv.host.run(['dd', `of=${raw}`, 'bs=1M', `seek=${batch[0]!.offset}`, 'oflag=seek_bytes', 'iflag=fullblock', 'conv=notrunc', 'status=none'], { input: data, timeoutMs: COPY_TIMEOUT_MS });
          batch = [];
        };
        let batched = 0;
        for await (const p of pieces) {
          if (p.offset + p.data.length > sizeBytes) throw new BackupError('restore', 'a piece lies outside the disk');
          const last = batch[batch.length - 1];
          if (last && (last.offset + last.data.length !== p.offset || batched + p.data.length > WRITE_BATCH_BYTES)) {
            await flush();
            batched = 0;
          }
          batch.push(p);
          batched += p.data.length;
        }
        await flush();
        await hv.host.run(['qemu-img', 'convert', '-f', 'raw', '-O', 'qcow2', raw, next], { timeoutMs: COPY_TIMEOUT_MS });
        await hv.host.run(['mv', '-f', next, root]);
      } finally {
        await hv.host.run(['rm', '-f', raw, next]).catch(() => undefined);
      }
    });
  }

  /** Removes this platform's temporary backup files older than `olderThanMs` at every hypervisor (over ssh for remote ones). */
  async sweepTemporary(olderThanMs: number): Promise<number> {
    let n = 0;
    const cutoff = Math.floor((Date.now() - olderThanMs) / 1000);
    for (const hv of this.access.hypervisorList) {
      try {
        const out = await hv.host.run(['find', hv.config.imageDir, '-maxdepth', '1', '-type', 'f', '-name', `${this.access.names.prefix}-backup-*`, '!', '-newermt', `@${cutoff}`, '-print', '-delete']);
        n += out.stdout.split('\n').filter((l) => l.trim() !== '').length;
      } catch (err) {
        if (!(err instanceof HostCommandError)) throw err;
      }
    }
    return n;
  }
}

/** Cuts a byte stream into pieces of the given lengths, in order (the stream must hold them all). */
async function* exactPieces(stream: AsyncIterable<Buffer>, lengths: number[]): AsyncIterable<Buffer> {
  let pending: Buffer[] = [];
  let have = 0;
  let k = 0;
  for await (const chunk of stream) {
    pending.push(chunk);
    have += chunk.length;
    while (k < lengths.length && have >= lengths[k]!) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, lengths[k]!);
      const rest = all.subarray(lengths[k]!);
      pending = rest.length > 0 ? [rest] : [];
      have = rest.length;
      k++;
    }
  }
  if (k < lengths.length) throw new BackupError('backup', 'the disk copy ended early');
}
