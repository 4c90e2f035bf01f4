import { defineJob, type JobDefinition } from '../../platform/queue/queue.js';
import type { VmTask } from './compute.tables.js';
import type { ComputeService } from './compute.service.js';
import type { VmTasksService } from './vm-tasks.service.js';

export type VmTaskJob = JobDefinition<{ vmId: number; task: VmTask }>;

/** The datacenter work of one VM (create, start, stop, delete, suspend, resume); idempotent. */
export function vmTaskJob(tasks: VmTasksService, compute: ComputeService): VmTaskJob {
  const job = defineJob<{ vmId: number; task: VmTask }>({
    name: 'compute.vm-task',
    description: 'Carries out a VM task at the datacenter (create, start, stop, delete, suspend, resume); a failed call leaves the VM in Error with a retry',
    concurrency: 4,
    retryLimit: 5,
    record: 'failures',
    handler: ({ vmId, task }) => tasks.runTask(vmId, task),
  });
  compute.useTaskJob(job);
  tasks.useTaskJob(job);
  return job;
}

/** Queues again the task of VMs that waited too long (a lost job): nothing stays Creating or Deleting for ever. */
export function requeueStuckJob(tasks: VmTasksService): JobDefinition<object> {
  return defineJob<object>({
    name: 'compute.requeue-stuck',
    schedule: '*/5 * * * *',
    description: 'Queues the datacenter task again for VMs whose task has waited more than 10 minutes',
    handler: async (_p, ctx) => {
      const n = await tasks.requeueStuck();
      if (n > 0) ctx.log.warn({ requeued: n }, 'VM tasks were waiting too long: their jobs were queued again');
    },
  });
}
