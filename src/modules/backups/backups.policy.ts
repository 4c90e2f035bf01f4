import { definePolicy, doubling } from '../../platform/durable/index.js';

const MINUTE = 60_000;

/**
 * A backup attempt holds its backup this long (copying and uploading a disk); a worker that died
 * lets go when it runs out, and the sweep takes the backup up again.
 */
export const BACKUP_LEASE_MS = 60 * MINUTE;

/**
 * The durable-work policy of backups: retried with doubling waits from one minute (a storage or
 * hypervisor outage), given up after the sixth failed attempt in a row: the backup ends failed
 * with the last reason, the customer is told (webhook backup.failed), and the next slot tries anew.
 */
export const BACKUP_WORK = definePolicy({
  name: 'backups',
  leaseMs: BACKUP_LEASE_MS,
  backoff: doubling({ firstMs: MINUTE, maxMs: 60 * MINUTE }),
  maxAttempts: 6,
  lostAfterMs: 10 * MINUTE,
  sweepSchedule: '* * * * *',
  onGiveUp: 'the backup ends failed with its reason; webhook backup.failed',
});

/** Restores: the same rules; giving up leaves the VM stopped (its disk as the failure left it) and the restore failed with its reason. */
export const RESTORE_WORK = definePolicy({
  name: 'backup-restores',
  leaseMs: BACKUP_LEASE_MS,
  backoff: doubling({ firstMs: MINUTE, maxMs: 30 * MINUTE }),
  maxAttempts: 5,
  lostAfterMs: 10 * MINUTE,
  sweepSchedule: '* * * * *',
  onGiveUp: 'the restore ends failed with its reason; the VM is let go, stopped',
});

/** Chunks nobody refers to are deleted only once older than this (an upload in progress has such chunks). */
export const CHUNK_SAFETY_MS = 6 * 60 * MINUTE;
/** Temporary disk copies at the hypervisors older than this belong to a dead worker. */
export const TEMP_COPY_AGE_MS = 2 * BACKUP_LEASE_MS;
/** How long the chunk sweep holds the store against new backups. */
export const SWEEP_LEASE_MS = 30 * MINUTE;
