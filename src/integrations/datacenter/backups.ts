import { DatacenterError } from './shared.js';

/** The operations of Backups, as a failure names them. */
export type BackupOperation = 'backup' | 'restore';

/** A failure of Backups. */
export class BackupError extends DatacenterError {
  declare readonly operation: BackupOperation;
  constructor(operation: BackupOperation, message: string, capacity = false, detail?: string) {
    super(operation, message, capacity, detail);
  }
}

/**
 * A point-in-time copy of a machine's boot disk, read as raw bytes in fixed pieces. The machine
 * keeps running on its own disk meanwhile; the copy is a temporary file at the hypervisor that
 * `close` removes (a copy whose reader died is removed by `sweepTemporary`).
 */
export interface DiskCopy {
  /** the disk's size in bytes (its virtual size) */
  readonly sizeBytes: number;
  /**
   * The disk in pieces of `pieceBytes` (the last may be shorter), in order: a piece the copy knows
   * to be a hole is null (never read, all zeros).
   */
  pieces(pieceBytes: number): AsyncIterable<Buffer | null>;
  /** Removes the temporary copy (idempotent). */
  close(): Promise<void>;
}

/** One piece of a disk to write back: its offset and bytes (pieces not given read as zeros). */
export interface DiskPiece {
  offset: number;
  data: Buffer;
}

/**
 * Backups of machines' boot disks: a point-in-time copy to read (running or stopped machine), and
 * the boot disk rewritten from pieces (the machine stopped; it stays stopped). Where the pieces go
 * is the caller's business (the backups module stores them in the platform's object storage), so a
 * backup can be restored at any hypervisor of the location, onto another machine too.
 */
export interface Backups {
  /** A point-in-time copy of the boot disk; `tag` names its temporary file (a retry of the same backup reuses the name). */
  copyDisk(externalId: string, tag: string): Promise<DiskCopy>;
  /** The boot disk's size in bytes. */
  diskSize(externalId: string): Promise<number>;
  /**
   * Replaces the stopped machine's boot disk with `sizeBytes` of which `pieces` are written and the
   * rest is zeros (`sizeBytes` at most the disk's size: the disk keeps its size). The old disk
   * stays until the new one is complete, so a failure leaves the machine's disk as it was.
   */
  writeDisk(externalId: string, sizeBytes: number, pieces: AsyncIterable<DiskPiece>): Promise<void>;
  /** Removes temporary copies older than `olderThanMs` (their reader died); answers how many. */
  sweepTemporary(olderThanMs: number): Promise<number>;
}
