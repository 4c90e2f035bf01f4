import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses } from '../../platform/http/schemas.js';
import { backupView, planView, restoreView } from './backups.present.js';
import { BackupIdParams, BackupItem, BackupParams, NewVmAnswer, NewVmBody, Plan, PlanBody, RestoreIdParams, RestoreItem, VmBackupParams, VmBackups } from './backups.schemas.js';
import type { BackupsService } from './backups.service.js';

const tags = ['Backups'];
const BUSY = 'A VM with another change in flight answers 409 VM_BUSY; a Suspended VM 409 VM_SUSPENDED; a Stopped VM of an account that may not start anything billable 402 (a restore starts it).';

/** /api/compute/vm/{id}/backups and /api/compute/backups: a VM's backup plan, its backups and restores (docs/api.md, "Backups of a VM"). */
export const backupRoutes: FastifyPluginAsyncTypebox<{ backups: BackupsService }> = async (app, { backups }) => {
  app.get(
    '/vm/:id/backups',
    { schema: { tags, summary: "A VM's backup plan (with its price), its backups and its restores", params: VmBackupParams, response: { 200: Envelope(VmBackups), ...errorResponses(401, 404) } } },
    async (req) => {
      const { customerId } = customerOf(req);
      const plan = await backups.plan(customerId, req.params.id);
      const list = await backups.list(customerId, req.params.id);
      return { message: 'OK', data: { plan: planView(plan), backups: list.backups.map(backupView), restores: list.restores.map(restoreView) } };
    },
  );

  app.put(
    '/vm/:id/backups/plan',
    {
      config: { activity: 'backup.plan_changed' },
      schema: {
        tags,
        summary: 'Switches backups on or off and sets their window (daily at an hour, or weekly on a weekday at an hour, UTC)',
        description: "On, the VM pays the backup share of its tier's price every hour it has backups on (shown as monthly_price); off, it stops. The last keep_last backups are kept.",
        params: VmBackupParams,
        body: PlanBody,
        response: { 200: Envelope(Plan), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => ({ message: 'Backup plan saved', data: planView(await backups.setPlan(customerOf(req).customerId, req.params.id, req.body as never)) }),
  );

  app.post(
    '/vm/:id/backups',
    {
      config: { activity: 'backup.requested' },
      schema: { tags, summary: 'Takes a backup now (backups must be on)', description: 'Answers 202 with the backup pending; it runs in the background and is retried when it fails.', params: VmBackupParams, response: { 202: Envelope(BackupItem), ...errorResponses(401, 404, 409) } },
    },
    async (req, reply) => {
      reply.code(202);
      return { message: 'Backup started', data: backupView(await backups.backupNow(customerOf(req).customerId, req.params.id)) };
    },
  );

  app.post(
    '/vm/:id/backups/:backup_id/restore',
    {
      config: { activity: 'backup.restored' },
      schema: {
        tags,
        summary: "Restores the VM from one of its backups: it is stopped, its disk rewritten from the backup, and started",
        description: `What was written since the backup is lost. ${BUSY}`,
        params: BackupParams,
        response: { 202: Envelope(RestoreItem), ...errorResponses(401, 402, 404, 409) },
      },
    },
    async (req, reply) => {
      reply.code(202);
      return { message: 'Restore started', data: restoreView(await backups.restore(customerOf(req).customerId, req.params.id, req.params.backup_id)) };
    },
  );

  app.get(
    '/backups',
    { schema: { tags, summary: "Every backup of the account, those of deleted VMs too (the newest 100)", response: { 200: Envelope(Type.Array(BackupItem)), ...errorResponses(401) } } },
    async (req) => ({ message: 'OK', data: (await backups.listAll(customerOf(req).customerId)).map(backupView) }),
  );

  app.post(
    '/backups/:backup_id/vm',
    {
      config: { activity: 'backup.restored_to_new_vm' },
      schema: {
        tags,
        summary: "Creates a new VM from a backup: any tier whose disk holds the backup, in the backup's location",
        description: 'The VM is created as POST /api/compute/vm creates one (quota, price, 402 rules); once it runs, its disk is written from the backup and it is started again. 400 DISK_TOO_SMALL when the tier\'s disk is smaller than the backup.',
        params: BackupIdParams,
        body: NewVmBody,
        response: { 202: Envelope(NewVmAnswer), ...errorResponses(400, 401, 402, 404, 409) },
      },
    },
    async (req, reply) => {
      const made = await backups.restoreToNew(customerOf(req).customerId, req.params.backup_id, req.body);
      reply.code(202);
      return { message: 'VM is being created from the backup', data: { restore: restoreView(made.restore), vm_id: made.vmId } };
    },
  );

  app.delete(
    '/backups/:backup_id',
    {
      config: { activity: 'backup.deleted' },
      schema: {
        tags,
        summary: 'Deletes one backup (of a VM that exists or is gone)',
        description: 'It is gone from the lists at once and cannot be restored any more; the storage only it used is freed by the next chunk sweep. 409 BACKUP_IN_PROGRESS while it is being made, 409 BACKUP_IN_USE while a VM is being restored from it.',
        params: BackupIdParams,
        response: { 200: Envelope(BackupItem), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => ({ message: 'Backup deleted', data: backupView(await backups.deleteBackup(customerOf(req).customerId, req.params.backup_id)) }),
  );

  app.get(
    '/backups/restores/:restore_id',
    { schema: { tags, summary: 'One restore and how it went', params: RestoreIdParams, response: { 200: Envelope(RestoreItem), ...errorResponses(401, 404) } } },
    async (req) => ({ message: 'OK', data: restoreView(await backups.restoreOf(customerOf(req).customerId, req.params.restore_id)) }),
  );
};
