import type { Backups, VmHosts } from '../../integrations/datacenter/index.js';
import type { BlobStore } from '../../integrations/object-storage/index.js';
import { systemClock } from '../../platform/clock.js';
import { defineSweepJob } from '../../platform/durable/index.js';
import type { Metering } from '../../platform/metering.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { defineJob, type JobDefinition } from '../../platform/queue/queue.js';
import type { ComputeService, VmRestoreHolds } from '../compute/index.js';
import type { PricingService } from '../pricing/index.js';
import type { TiersService } from '../tiers/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { BackupWorkService } from './backup-work.service.js';
import { backupAdminRoutes } from './backups.admin-routes.js';
import { BACKUP_WORK } from './backups.policy.js';
import { BackupsRepository } from './backups.repository.js';
import { backupRoutes } from './backups.routes.js';
import { BackupsService, type BackupAuditRecorder, type BackupNotifier, type WorkPayload } from './backups.service.js';

export interface BackupsDeps {
  /** the datacenter's disk copies and restores */
  backups: Backups;
  vmHosts: VmHosts;
  /** the platform's own bucket of backups */
  backupStore: BlobStore;
  vmRestoreHolds: VmRestoreHolds;
  compute: ComputeService;
  tiers: TiersService;
  pricing: PricingService;
  metering: Metering;
  webhookEvents: WebhookEmitter;
  audit: BackupAuditRecorder;
  notifications: BackupNotifier;
}

/** Scheduled VM backups in the platform's object storage, and restores (docs/backups.md). */
export function createBackupsModule(p: Platform, deps: BackupsDeps) {
  const { db, clock, queue } = p;
  const repo = new BackupsRepository();
  const workJob: JobDefinition<WorkPayload> = defineJob<WorkPayload>({
    name: 'backups.work',
    description: 'One attempt of a VM backup or restore',
    retryLimit: 0, // the durable rules retry (the sweep queues due work again)
    concurrency: 2,
    handler: (payload): Promise<void> => work.run(payload),
  });
  const backups = new BackupsService(db, repo, clock, queue, () => workJob, deps.vmRestoreHolds, deps.compute, deps.tiers, deps.pricing, deps.metering, deps.audit, deps.notifications, deps.backupStore);
  const work: BackupWorkService = new BackupWorkService(db, repo, clock, systemClock, queue, () => workJob, deps.backupStore, deps.backups, deps.vmHosts, deps.vmRestoreHolds, deps.webhookEvents, p.log);
  const scheduleJob = defineJob<object>({
    name: 'backups.schedule',
    schedule: '*/5 * * * *',
    description: "Takes the backups whose window came (each VM's plan: daily or weekly at an hour, UTC)",
    handler: async (_p, ctx) => {
      const n = await work.schedule();
      if (n > 0) ctx.log.info({ backups: n }, 'backups: scheduled');
    },
  });
  const sweepJob = defineSweepJob(BACKUP_WORK, {
    name: 'backups.sweep',
    description: 'Queues backups and restores whose retry came or whose worker died',
    run: () => work.requeueDue(),
  });
  const storeSweepJob = defineJob<object>({
    name: 'backups.sweep-store',
    schedule: '17 * * * *',
    description: 'Deletes backup chunks no backup refers to (older than the safety age) and temporary disk copies a dead worker left',
    handler: async (_p, ctx) => {
      const r = await work.sweepStore();
      if (r.chunks + r.manifests + r.temporary > 0) ctx.log.info(r, 'backups: store swept');
    },
  });
  return {
    services: { backups, backupWork: work },
    jobs: [workJob, scheduleJob, sweepJob, storeSweepJob],
    routes: [mount('customer', backupRoutes, { prefix: '/api/compute', backups }), mount('backoffice', backupAdminRoutes, { prefix: '/backups', backups })],
  } satisfies BuiltModule;
}
