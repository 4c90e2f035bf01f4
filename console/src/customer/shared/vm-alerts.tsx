import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { keys } from '../../api/keys';
import { Card, Loaded, Table, when } from '../../ui/kit';

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
            <Table caption="Alerts firing" head={['Policy', 'Metric', 'Value', 'Since']}>
              {r.data.map((a) => (
                <tr key={a.id}>
                  <td>{a.policy_name}</td>
                  <td>
                    {a.metric} {a.comparison} {a.threshold}
                  </td>
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
