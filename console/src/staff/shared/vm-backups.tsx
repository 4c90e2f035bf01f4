import { useQuery } from '@tanstack/react-query';
import { api, get } from '../../api/client';
import { keys } from '../../api/keys';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Status, Table, useAction, when } from '../../ui/kit';
import { bytes } from '../../customer/shared/vm-backups';
import { useCan } from '../access';

interface Vm {
  id: number;
  name: string;
  status: string;
  pending_action: string | null;
  customer: { name: string; email: string };
}

/** A customer's VM's backups for staff: status, size and reason, and a restore on the customer's behalf (audited, the customer told). */
export function StaffVmBackups({ vm }: { vm: Vm }) {
  const can = useCan();
  const list = useQuery({ queryKey: keys.staff.vmBackups(vm.id), queryFn: () => get(() => api.GET('/api/backoffice/backups/', { params: { query: { vm_id: vm.id } } })) });
  const restore = useAction((backupId: string) => get(() => api.POST('/api/backoffice/backups/{backup_id}/restore', { params: { path: { backup_id: backupId } }, body: {} })), {
    invalidate: [keys.staff.vmBackups(vm.id), keys.staff.vm(vm.id)],
  });
  const owner = vm.customer.name || vm.customer.email;
  const idle = !vm.pending_action && (vm.status === 'Running' || vm.status === 'Stopped');
  return (
    <Card title="Backups">
      <Loaded query={list}>
        {(rows) => (
          <Table caption="Backups of this VM" head={['Taken', 'Status', 'Size', 'Reason', '']} empty={rows.length === 0}>
            {rows.map((b) => (
              <tr key={b.id}>
                <td>{when(b.completed_at ?? b.created_at)}</td>
                <td>
                  <Status value={b.status} />
                </td>
                <td>{bytes(b.stored_bytes)}</td>
                <td>{b.reason ?? '—'}</td>
                <td>
                  {b.status === 'completed' && can('POST /api/backoffice/backups/{backup_id}/restore') ? (
                    <ConfirmButton
                      label="Restore"
                      confirm={`Restore ${owner}'s VM ${vm.name} from its backup of ${when(b.completed_at)}? It is stopped, its disk rewritten and started; what was written since is lost. ${owner} is told in the app, and the restore is in the audit log.`}
                      busy={restore.isPending}
                      disabled={!idle}
                      onConfirm={() => restore.mutate(b.id)}
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      {restore.isSuccess ? <p role="status">Restore started.</p> : null}
      <ErrorMessage error={restore.error} />
    </Card>
  );
}

/** The price share and keep-last of backups, and their usage per customer and location (pricing page). */
export function StaffBackupPolicy() {
  const can = useCan();
  const policy = useQuery({ queryKey: keys.staff.backupPolicy, queryFn: () => get(() => api.GET('/api/backoffice/backups/policy')) });
  const usage = useQuery({ queryKey: keys.staff.backupUsage, queryFn: () => get(() => api.GET('/api/backoffice/backups/usage', { params: { query: {} } })), enabled: can('GET /api/backoffice/backups/usage') });
  const save = useAction((body: { price_share_percent: number; keep_last: number }) => get(() => api.PATCH('/api/backoffice/backups/policy', { body })), { invalidate: [keys.staff.backupPolicy] });
  return (
    <Card title="VM backups">
      <Loaded query={policy}>
        {(p) => (
          <form
            className="inline"
            aria-label="Backup price and retention"
            onSubmit={(e) => {
              e.preventDefault();
              const f = formValues(e.currentTarget);
              save.mutate({ price_share_percent: Number(f.share), keep_last: Number(f.keep) });
            }}
          >
            <Input label="Price, % of the VM's price" name="share" type="number" step="0.01" min="0.01" max="100" defaultValue={String(p.price_share_percent)} disabled={!can('PATCH /api/backoffice/backups/policy')} />
            <Input label="Backups kept per VM" name="keep" type="number" min="1" max="100" defaultValue={String(p.keep_last)} disabled={!can('PATCH /api/backoffice/backups/policy')} />
            {can('PATCH /api/backoffice/backups/policy') ? (
              <Button type="submit" busy={save.isPending}>
                Save
              </Button>
            ) : null}
          </form>
        )}
      </Loaded>
      {save.isSuccess ? <p role="status">Saved: a new share applies from now to every VM with backups on.</p> : null}
      <ErrorMessage error={save.error} />
      {usage.data ? (
        <Table caption="Backup usage per customer and location" head={['Customer', 'Location', 'VMs with backups', 'Backups', 'Stored', 'Failed']} empty={usage.data.length === 0}>
          {usage.data.map((u) => (
            <tr key={`${u.customer_id}-${u.location_id}`}>
              <td>{u.customer_id}</td>
              <td>{u.location_id}</td>
              <td>{u.vms_enabled}</td>
              <td>{u.backups}</td>
              <td>{bytes(u.stored_bytes)}</td>
              <td>{u.failed}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </Card>
  );
}
