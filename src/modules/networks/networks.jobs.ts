import { defineJob, type JobDefinition } from '../../platform/queue/queue.js';
import type { NetworkTasksService } from './network-tasks.service.js';
import type { NetworksService } from './networks.service.js';
import type { IpTask, NetworkTask } from './networks.tables.js';

export type NetworkTaskJob = JobDefinition<{ networkId: number; task: NetworkTask }>;
export type IpTaskJob = JobDefinition<{ ipId: number; task: IpTask }>;

/** The datacenter jobs of private networks; idempotent. Hands the definitions to both services. */
export function networkJobs(tasks: NetworkTasksService, networks: NetworksService): { networkJob: NetworkTaskJob; ipJob: IpTaskJob; syncJob: JobDefinition<object> } {
  const networkJob = defineJob<{ networkId: number; task: NetworkTask }>({
    name: 'networks.network-task',
    description: 'Creates a private network at the datacenter (Creating → Active) or removes a deleted one',
    concurrency: 4,
    retryLimit: 5,
    record: 'failures',
    handler: ({ networkId, task }) => tasks.runNetworkTask(networkId, task),
  });
  const ipJob = defineJob<{ ipId: number; task: IpTask }>({
    name: 'networks.ip-task',
    description: 'Attaches a private IP to its VM at the datacenter, or detaches an unassigned one',
    concurrency: 4,
    retryLimit: 5,
    record: 'failures',
    handler: ({ ipId, task }) => tasks.runIpTask(ipId, task),
  });
  const syncJob = defineJob<object>({
    name: 'networks.sync',
    schedule: '* * * * *',
    description: 'Network sync: queues again the datacenter work of networks and private IPs that waited more than 2 minutes (a failed call, a lost job)',
    handler: async (_p, ctx) => {
      const n = await tasks.sync();
      if (n > 0) ctx.log.warn({ requeued: n }, 'private network tasks were waiting: their jobs were queued again');
    },
  });
  networks.useJobs(networkJob, ipJob);
  tasks.useJobs(networkJob, ipJob);
  return { networkJob, ipJob, syncJob };
}
