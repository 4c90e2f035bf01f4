import type { Consoles, VmHosts } from '../../integrations/datacenter/index.js';
import type { Metering } from '../../platform/metering.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { BlockStorageService } from '../block-storage/index.js';
import type { BillableStartRule } from '../charging/index.js';
import type { PricingService } from '../pricing/index.js';
import type { SshKeysService } from '../ssh-keys/index.js';
import type { TiersService } from '../tiers/index.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { computeAdminRoutes } from './compute.admin-routes.js';
import { ComputeRepository } from './compute.repository.js';
import { computeRoutes } from './compute.routes.js';
import { ComputeService, type PrivateAddressReader } from './compute.service.js';
import { computeConstraintMeanings } from './compute.tables.js';
import { VmTasksService, type VmDeletedListener, type VmSnapshotTasks } from './vm-tasks.service.js';
import type { VmResizedListener } from './vm-resize.apply.js';
import { vmResizeRoutes } from './vm-resize.routes.js';
import { VmResizeService } from './vm-resize.service.js';
import { vmActionAdminRoutes } from './vm-actions.admin-routes.js';
import { vmActionRoutes } from './vm-actions.routes.js';
import { VmActionsService, type VmActionNotifier, type VmAuditRecorder } from './vm-actions.service.js';
import { vmConsoleAdminRoutes } from './vm-console.admin-routes.js';
import { VmConsoleRepository } from './vm-console.repository.js';
import { vmConsoleRoutes } from './vm-console.routes.js';
import { VmConsoleService, type ConsoleAccess, type ConsoleAuditRecorder } from './vm-console.service.js';
import { VmRestoreHolds } from './vm-restore-holds.js';

export interface ComputeDeps {
  vmHosts: VmHosts;
  /** the VMs' serial consoles */
  consoles: Consoles;
  /** whether whoever holds a console open still has access (src/flows/console-access.ts) */
  consoleAccess: ConsoleAccess;
  tiers: TiersService;
  blockStorage: BlockStorageService;
  pricing: PricingService;
  sshKeys: SshKeysService;
  metering: Metering;
  billableStart: BillableStartRule;
  webhookEvents: WebhookEmitter;
  /** a VM's private addresses (the networks module, which depends on compute) */
  privateAddresses: PrivateAddressReader;
  /** who lets go of a VM when it is Deleted (src/flows/vm-deleted.ts) */
  vmDeleted: VmDeletedListener;
  /** consoles and staff actions on a customer's VM are audited (staff actions also told to the customer) */
  audit: VmAuditRecorder & ConsoleAuditRecorder;
  notifications: VmActionNotifier;
  /** the VM's snapshot and restore tasks (the snapshots module, which depends on compute) */
  snapshotTasks: VmSnapshotTasks;
  /** what else is priced by a VM's tier follows a resize (the backups module, which depends on compute) */
  vmResized: VmResizedListener;
}

/** Customers' VMs: requests record the intent, the resource lifecycle carries it out at the datacenter. */
export function createComputeModule(p: Platform, deps: ComputeDeps) {
  const { db, clock } = p;
  const computeRepo = new ComputeRepository();
  const compute = new ComputeService(db, computeRepo, deps.tiers, deps.blockStorage, deps.pricing, deps.billableStart, deps.vmHosts, p.lifecycle, clock, deps.webhookEvents, deps.sshKeys, deps.privateAddresses);
  const vmTasks = new VmTasksService(db, computeRepo, deps.tiers, deps.blockStorage, deps.pricing, deps.vmHosts, deps.metering, clock, deps.webhookEvents, deps.vmDeleted, deps.snapshotTasks, deps.vmResized);
  const vmResize = new VmResizeService(db, computeRepo, deps.tiers, deps.pricing, deps.billableStart, p.lifecycle, clock);
  const vmActions = new VmActionsService(db, computeRepo, p.lifecycle, clock, deps.webhookEvents, deps.billableStart, deps.audit, deps.notifications, p.mailer);
  const vmConsole = new VmConsoleService(db, computeRepo, new VmConsoleRepository(), deps.consoles, deps.audit, p.mailer, clock, deps.consoleAccess, p.config.serialConsole);
  const consoleRoutes = { consoles: vmConsole, publicUrl: p.config.publicUrl };
  return {
    services: { compute, vmTasks, vmResize, vmActions, vmConsole, vmRestoreHolds: new VmRestoreHolds(computeRepo, clock, deps.webhookEvents, deps.billableStart, p.lifecycle) },
    resources: [vmTasks],
    routes: [
      mount('backoffice', computeAdminRoutes, { prefix: '/compute', compute }),
      mount('backoffice', vmActionAdminRoutes, { prefix: '/compute', actions: vmActions, compute }),
      mount('backoffice', vmConsoleAdminRoutes, { prefix: '/compute', ...consoleRoutes }),
      mount('customer', computeRoutes, { prefix: '/api/compute', compute }),
      mount('customer', vmResizeRoutes, { prefix: '/api/compute', resize: vmResize }),
      mount('customer', vmActionRoutes, { prefix: '/api/compute', actions: vmActions }),
      mount('customer', vmConsoleRoutes, { prefix: '/api/compute', ...consoleRoutes }),
    ],
    constraints: computeConstraintMeanings,
  } satisfies BuiltModule;
}
