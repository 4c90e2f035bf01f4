import { defineJob, type JobDefinition } from '../../platform/queue/queue.js';
import type { VmTask } from './compute.tables.js';
import type { ComputeService } from './compute.service.js';

export type VmTaskJob = JobDefinition<{ vmId: number; task: VmTask }>;

/** The datacenter work of one VM (create, start, stop, delete, suspend, resume); idempotent. */
export function vmTaskJob(compute: ComputeService): VmTaskJob {
  const job = defineJob<{ vmId: number; task: VmTask }>({
    name: 'compute.vm-task',
    description: 'Carries out a VM task at the datacenter (create, start, stop, delete, suspend, resume); a failed call leaves the VM in Error with a retry',
    concurrency: 4,
    retryLimit: 5,
    record: 'failures',
    handler: ({ vmId, task }) => compute.runTask(vmId, task),
  });
  compute.useTaskJob(job);
  return job;
}
