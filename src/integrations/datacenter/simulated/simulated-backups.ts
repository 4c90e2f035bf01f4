import { BackupError, type Backups, type DiskCopy, type DiskPiece } from '../backups.js';
import type { SimulatedHosts } from './simulated-hosts.js';

const BLOCK = 64 * 1024;
const GIB = 1024 ** 3;
/** a machine whose create gave no disk size */
const DEFAULT_DISK_GB = 10;

/**
 * Backups of the simulated datacenter: each machine's boot disk is a sparse map of 64 KiB blocks
 * in memory (all zeros until written: `writeBytes` is how a test or the demo puts data on it), a
 * copy is a snapshot of that map (later writes do not change it), and a restore replaces the map.
 */
export class SimulatedBackups implements Backups {
  private readonly disks = new Map<string, Map<number, Buffer>>();
  /** copies not closed yet, by tag (what sweepTemporary removes) */
  private readonly copies = new Map<string, number>();

  constructor(private readonly hosts: SimulatedHosts) {}

  private machine(externalId: string, operation: 'backup' | 'restore') {
    const m = this.hosts.machines.get(externalId);
    if (!m) throw new BackupError(operation, 'the machine does not exist');
    return m;
  }

  private sizeOf(externalId: string, operation: 'backup' | 'restore'): number {
    return (this.machine(externalId, operation).diskGb ?? DEFAULT_DISK_GB) * GIB;
  }

  private disk(externalId: string): Map<number, Buffer> {
    let d = this.disks.get(externalId);
    if (!d) this.disks.set(externalId, (d = new Map()));
    return d;
  }

  async diskSize(externalId: string): Promise<number> {
    await this.hosts.call('backup');
    return this.sizeOf(externalId, 'backup');
  }

  async copyDisk(externalId: string, tag: string): Promise<DiskCopy> {
    await this.hosts.call('backup');
    const sizeBytes = this.sizeOf(externalId, 'backup');
    const snapshot = new Map([...this.disk(externalId)].map(([i, b]) => [i, Buffer.from(b)]));
    this.copies.set(tag, Date.now());
    const copies = this.copies;
    return {
      sizeBytes,
      async *pieces(pieceBytes: number) {
        if (pieceBytes % BLOCK !== 0) throw new Error(`piece size must be a multiple of ${BLOCK}`);
        for (let offset = 0; offset < sizeBytes; offset += pieceBytes) {
          const length = Math.min(pieceBytes, sizeBytes - offset);
          let piece: Buffer | null = null;
          for (let at = 0; at < length; at += BLOCK) {
            const block = snapshot.get((offset + at) / BLOCK);
            if (!block) continue;
            piece ??= Buffer.alloc(length);
            block.copy(piece, at);
          }
          yield piece;
        }
      },
      async close() {
        copies.delete(tag);
      },
    };
  }

  async writeDisk(externalId: string, sizeBytes: number, pieces: AsyncIterable<DiskPiece>): Promise<void> {
    await this.hosts.call('restore');
    const m = this.machine(externalId, 'restore');
    if (m.running) throw new BackupError('restore', 'the machine must be stopped to write its disk');
    const own = this.sizeOf(externalId, 'restore');
    if (sizeBytes > own) throw new BackupError('restore', `the backup (${sizeBytes} bytes) does not fit on the disk (${own} bytes)`);
    const next = new Map<number, Buffer>();
    for await (const p of pieces) {
      if (p.offset % BLOCK !== 0 || p.offset + p.data.length > sizeBytes) throw new BackupError('restore', 'a piece lies outside the disk');
      for (let at = 0; at < p.data.length; at += BLOCK) {
        const block = Buffer.alloc(BLOCK);
        p.data.copy(block, 0, at, Math.min(at + BLOCK, p.data.length));
        if (block.some((b) => b !== 0)) next.set((p.offset + at) / BLOCK, block);
      }
    }
    this.disks.set(externalId, next); // all at once: a failure above leaves the disk as it was
  }

  async sweepTemporary(olderThanMs: number): Promise<number> {
    let n = 0;
    for (const [tag, at] of this.copies) {
      if (Date.now() - at >= olderThanMs) {
        this.copies.delete(tag);
        n++;
      }
    }
    return n;
  }

  /** Writes bytes on the machine's disk, as its guest would (tests, the demo). */
  writeBytes(externalId: string, offset: number, data: Buffer): void {
    const d = this.disk(externalId);
    for (let i = 0; i < data.length; ) {
      const index = Math.floor((offset + i) / BLOCK);
      const at = (offset + i) % BLOCK;
      const block = d.get(index) ?? Buffer.alloc(BLOCK);
      const n = Math.min(BLOCK - at, data.length - i);
      data.copy(block, at, i, i + n);
      d.set(index, block);
      i += n;
    }
  }

  /** Reads bytes of the machine's disk (tests). */
  readBytes(externalId: string, offset: number, length: number): Buffer {
    const out = Buffer.alloc(length);
    const d = this.disks.get(externalId);
    for (let i = 0; i < length; ) {
      const index = Math.floor((offset + i) / BLOCK);
      const at = (offset + i) % BLOCK;
      const n = Math.min(BLOCK - at, length - i);
      d?.get(index)?.copy(out, i, at, at + n);
      i += n;
    }
    return out;
  }

  /** Temporary copies still held (tests of the sweep). */
  get openCopies(): number {
    return this.copies.size;
  }
}
