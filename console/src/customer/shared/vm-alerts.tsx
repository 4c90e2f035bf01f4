import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { keys } from '../../api/keys';
import { Card, Loaded, Table, when } from '../../ui/kit';

export const METRICS = [
  ['cpu_percent', 'CPU (% of its vCPUs)'],
  ['memory_bytes', 'Memory in use (bytes)'],
  ['net_out_bytes', 'Outbound traffic (bytes)'],
  ['net_in_bytes', 'Inbound traffic (bytes)'],
  ['net_out_packets', 'Outbound packets'],
  ['net_in_packets', 'Inbound packets'],
  ['disk_read_bytes', 'Disk read (bytes)'],
  ['disk_write_bytes', 'Disk written (bytes)'],
  ['disk_read_ops', 'Disk reads (operations)'],
  ['disk_write_ops', 'Disk writes (operations)'],
] as const;
const METRIC_LABEL = Object.fromEntries(METRICS) as Record<string, string>;
export const AGGREGATIONS = [
  ['avg', 'on average'],
  ['min', 'every minute (lowest minute)'],
  ['max', 'in any minute (highest minute)'],
  ['sum', 'in total (amounts only)'],
] as const;
const AGG_LABEL = Object.fromEntries(AGGREGATIONS) as Record<string, string>;

export type Metric = (typeof METRICS)[number][0];
export type Aggregation = (typeof AGGREGATIONS)[number][0];

/** "CPU (% of its vCPUs) > 80 every minute (lowest minute) over 5 min". */
export function conditionText(a: { metric: string; comparison: string; threshold: number; aggregation: string; window_minutes: number }): string {
  return `${METRIC_LABEL[a.metric] ?? a.metric} ${a.comparison} ${a.threshold} ${AGG_LABEL[a.aggregation] ?? a.aggregation} over ${a.window_minutes} min`;
}

/** The VM page's open alerts (firing now). */
export function VmAlerts({ vm }: { vm: { id: number } }) {
  const open = useQuery({
    queryKey: keys.alerts.openOfVm(vm.id),
    queryFn: () => call(() => api.GET('/api/compute/alerts', { params: { query: { vm_id: vm.id, status: 'firing', page: 1, limit: 20 } } })),
    refetchInterval: 30_000,
  });
  return (
    <Card title="Alerts">
      <Loaded query={open}>
        {(r) =>
          r.data.length === 0 ? (
            <p className="muted">
              No alert is firing for this VM. <Link to="/alerts">Alert policies</Link>
            </p>
          ) : (
            <Table caption="Alerts firing" head={['Policy', 'Condition', 'Value', 'Since']}>
              {r.data.map((a) => (
                <tr key={a.id}>
                  <td>{a.policy_name}</td>
                  <td>{conditionText(a)}</td>
                  <td className="num">{a.fired_value}</td>
                  <td>{when(a.started_at)}</td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
    </Card>
  );
}
