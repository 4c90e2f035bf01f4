import { DatacenterError } from './shared.js';

/** The operations of Snapshots, as a failure names them. */
export type SnapshotOperation = 'snapshot' | 'restore_snapshot' | 'delete_snapshot';

/** A failure of Snapshots. */
export class SnapshotError extends DatacenterError {
  declare readonly operation: SnapshotOperation;
  constructor(operation: SnapshotOperation, message: string, capacity = false, detail?: string) {
    super(operation, message, capacity, detail);
  }
}

/** The disks of a machine a snapshot can hold: its boot disk and its block storage volume. */
export type SnapshotDisk = 'boot' | 'volume';

/** How consistent a snapshot's copy is. */
export type SnapshotConsistency =
  /** the guest's file systems were frozen through its guest agent while the copy began */
  | 'application'
  /** taken as a power cut would leave the disks (no guest agent, or a stopped machine: then it is simply consistent) */
  | 'crash';

export interface SnapshotSpec {
  /** Our stable name of the snapshot (e.g. `snap-7`): the idempotency key of takeSnapshot and the name of its files. */
  reference: string;
  /** the machine, by its external id */
  machine: string;
  /** which disks (the boot disk always; the volume when asked and the machine has one) */
  disks: SnapshotDisk[];
}

export interface TakenSnapshot {
  consistency: SnapshotConsistency;
  /** per disk copied: its size as stored (bytes) and the size of the disk it copies (GB) */
  disks: { disk: SnapshotDisk; storedBytes: number; diskGb: number }[];
}

export interface RestoreSpec {
  /** the snapshot's reference */
  reference: string;
  /** the machine it is written back onto (the one it was taken of) */
  machine: string;
  disks: SnapshotDisk[];
  /** the state the machine ends in: true runs it (returns once its guest is up), false leaves it off */
  start: boolean;
}

/**
 * Point-in-time copies of a machine's disks, kept at the datacenter apart from the machine (a
 * snapshot outlives the machine it was taken of). Every call is idempotent:
 * - takeSnapshot of a reference already taken answers what it took; one interrupted half-way starts again;
 * - restoreSnapshot writes the disks back again (the machine ends in the state asked);
 * - deleteSnapshot of a snapshot that is gone succeeds.
 * The machine's own disks are never part of a snapshot's files: a failure while taking one leaves at
 * most a partial copy, which the next attempt or the delete removes.
 */
export interface Snapshots {
  /** Copies the machine's disks as they are now, running or not (a running guest with an agent is frozen for the instant the copy begins). */
  takeSnapshot(spec: SnapshotSpec): Promise<TakenSnapshot>;
  /** Shuts the machine down, replaces the disks from the snapshot (a boot disk keeps the size it has when that is larger), then starts it if asked. */
  restoreSnapshot(spec: RestoreSpec): Promise<void>;
  deleteSnapshot(reference: string, locationId: number): Promise<void>;
}
