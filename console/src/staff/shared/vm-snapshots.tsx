import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { keys } from '../../api/keys';
import { Card, ConfirmButton, ErrorMessage, Loaded, Status, Table, useAction, when } from '../../ui/kit';
import { useCan } from '../access';

interface Vm {
  id: number;
  name: string;
  status: string;
  pending_action: string | null;
  customer: { name: string; email: string };
}

/** A customer's snapshots of this VM (view_compute); staff holding operate_compute restore from one on the customer's behalf. */
export function StaffVmSnapshots({ vm }: { vm: Vm }) {
  const can = useCan();
  const list = useQuery({
    queryKey: keys.staff.vmSnapshots(vm.id),
    queryFn: () => call(() => api.GET('/api/backoffice/compute/snapshots', { params: { query: { vm_id: vm.id, limit: 100 } } })),
    refetchInterval: (q) => (q.state.data?.data.some((s) => s.status === 'Creating' || s.status === 'Deleting' || s.restoring) ? 1500 : 15_000),
  });
  const restore = useAction((id: number) => call(() => api.POST('/api/backoffice/compute/snapshots/{id}/restore', { params: { path: { id } } })), { invalidate: [keys.staff.vm(vm.id)] });
  const owner = vm.customer.name || vm.customer.email;
  const mayRestore = can('POST /api/backoffice/compute/snapshots/{id}/restore');
  const idle = !vm.pending_action && (vm.status === 'Running' || vm.status === 'Stopped');
  return (
    <Card title="Snapshots">
      <ErrorMessage error={restore.error} />
      {restore.isSuccess ? <p role="status">{restore.data.message}</p> : null}
      <Loaded query={list}>
        {(r) => (
          <Table caption="Snapshots of this VM" head={['Name', 'Status', 'Size', 'Consistency', 'Taken', ...(mayRestore ? ['Restore'] : [])]} empty={r.data.length === 0}>
            {r.data.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.name}
                  {s.include_volume ? <span className="badge tag">with volume</span> : null}
                </td>
                <td>
                  <Status value={s.restoring ? 'Restoring' : s.status} />
                  {s.error ? <span className="muted"> {s.error}</span> : null}
                </td>
                <td>{s.size_gb === null ? '—' : `${s.size_gb} GB`}</td>
                <td>{s.consistency ?? '—'}</td>
                <td>{when(s.completed_at ?? s.created_at)}</td>
                {mayRestore ? (
                  <td>
                    <ConfirmButton
                      label="Restore"
                      confirm={`Restore ${vm.name} from the snapshot “${s.name}” of ${when(s.completed_at ?? s.created_at)}? Everything written on its disks since then is lost. ${owner} is told in the app and by e-mail, and the action is in the audit log.`}
                      busy={restore.isPending && restore.variables === s.id}
                      disabled={!idle || restore.isPending || s.status !== 'Available'}
                      onConfirm={() => restore.mutate(s.id)}
                    />
                  </td>
                ) : null}
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </Card>
  );
}
