import type { Snapshots } from '../../integrations/datacenter/index.js';
import type { Metering } from '../../platform/metering.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { BillableStartRule } from '../charging/index.js';
import { ComputeRepository, type ComputeService, type VmActionsService } from '../compute/index.js';
import type { PricingService } from '../pricing/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { SnapshotTasksService } from './snapshot-tasks.service.js';
import { snapshotAdminRoutes } from './snapshots.admin-routes.js';
import { SnapshotsRepository } from './snapshots.repository.js';
import { snapshotRoutes } from './snapshots.routes.js';
import { SnapshotsService, type SnapshotStaffPorts } from './snapshots.service.js';

export interface SnapshotsDeps {
  snapshots: Snapshots;
  vmActions: VmActionsService;
  compute: ComputeService;
  pricing: PricingService;
  metering: Metering;
  billableStart: BillableStartRule;
  webhookEvents: WebhookEmitter;
  audit: SnapshotStaffPorts['audit'];
  notifications: SnapshotStaffPorts['notifications'];
}

/** VM snapshots: taken and restored as tasks of their VM, deleted through the resource lifecycle, billed per GB-month. */
export function createSnapshotsModule(p: Platform, deps: SnapshotsDeps) {
  const repo = new SnapshotsRepository();
  const vms = new ComputeRepository();
  const snapshotTasks = new SnapshotTasksService(p.db, repo, vms, deps.snapshots, deps.pricing, deps.metering, deps.webhookEvents, p.clock);
  const snapshots = new SnapshotsService(p.db, repo, vms, deps.vmActions, p.lifecycle, deps.billableStart, p.clock, { audit: deps.audit, notifications: deps.notifications, mailer: p.mailer }, deps.compute);
  return {
    services: { snapshots, snapshotTasks },
    resources: [snapshotTasks],
    routes: [mount('backoffice', snapshotAdminRoutes, { prefix: '/compute', snapshots }), mount('customer', snapshotRoutes, { prefix: '/api/compute', snapshots })],
  } satisfies BuiltModule;
}
