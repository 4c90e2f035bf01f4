import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, get } from '../../api/client';
import { Button, Card, Checkbox, ConfirmButton, ErrorMessage, formValues, Input, Loaded, money, Select, Status, Table, useAction, when } from '../../ui/kit';
import { keys } from '../../api/keys';
import { useCatalog } from './resources';

type Vm = { id: number; name: string; location_id: number; status: string; pending_action: string | null };
type Backup = { id: string; status: string; trigger: string; reason: string | null; stored_bytes: number | null; sent_bytes: number | null; disk_bytes: number | null; created_at: string; completed_at: string | null; next_attempt_at: string | null };

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, '0')}:00 UTC` }));

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** The VM page's Backups card: switch on and off (price shown), the window, the list, restore, a new VM from a backup. */
export function VmBackups({ vm }: { vm: Vm }) {
  const path = { params: { path: { id: vm.id } } };
  const data = useQuery({
    queryKey: keys.vms.backups(vm.id),
    queryFn: () => get(() => api.GET('/api/compute/vm/{id}/backups', path)),
    refetchInterval: (q) => (q.state.data?.backups.some((b) => b.status === 'pending' || b.status === 'running') || q.state.data?.restores.some((r) => r.status !== 'completed' && r.status !== 'failed') ? 2000 : 15_000),
  });
  const invalidate = [keys.vms.backups(vm.id), keys.vms.all];
  const [saved, setSaved] = useState<string | undefined>();
  const save = useAction((body: { enabled: boolean; frequency: 'daily' | 'weekly'; hour: number; weekday?: number | null }) => get(() => api.PUT('/api/compute/vm/{id}/backups/plan', { ...path, body })), {
    invalidate,
    onSuccess: (p) => setSaved(p.enabled ? 'Backups are on.' : 'Backups are off.'),
  });
  const now = useAction(() => get(() => api.POST('/api/compute/vm/{id}/backups', path)), { invalidate });
  const restore = useAction((backupId: string) => get(() => api.POST('/api/compute/vm/{id}/backups/{backup_id}/restore', { params: { path: { id: vm.id, backup_id: backupId } } })), { invalidate });
  const remove = useAction((backupId: string) => get(() => api.DELETE('/api/compute/backups/{backup_id}', { params: { path: { backup_id: backupId } } })), { invalidate });
  // the customer's choice, else the saved plan's
  const [chosen, setFrequency] = useState<'daily' | 'weekly' | undefined>();
  const frequency = chosen ?? ((data.data?.plan.frequency ?? 'daily') as 'daily' | 'weekly');
  const [newFrom, setNewFrom] = useState<Backup | undefined>();
  const restorable = (vm.status === 'Running' || vm.status === 'Stopped') && !vm.pending_action;

  return (
    <Card title="Backups">
      <Loaded query={data}>
        {(d) => (
          <>
            <p>
              Backups copy this VM’s disk every day or week to our object storage, off the server it runs on; the last {d.plan.keep_last} are kept. They cost{' '}
              <b>{money(d.plan.monthly_price)} a month</b> ({money(d.plan.hourly_price)} an hour), {d.plan.price_share_percent}% of this VM’s price, while they are on.
            </p>
            <form
              className="stack"
              aria-label="Backup plan"
              onSubmit={(e) => {
                e.preventDefault();
                const f = formValues(e.currentTarget);
                setSaved(undefined);
                save.mutate({ enabled: f.enabled === 'on', frequency, hour: Number(f.hour), weekday: frequency === 'weekly' ? Number(f.weekday) : null });
              }}
            >
              <Checkbox label="Back up this VM" name="enabled" defaultChecked={d.plan.enabled} key={`on-${d.plan.enabled}`} />
              <Select label="How often" name="frequency" value={frequency} onChange={(e) => setFrequency(e.currentTarget.value as 'daily' | 'weekly')} options={[{ value: 'daily', label: 'Every day' }, { value: 'weekly', label: 'Every week' }]} />
              {frequency === 'weekly' ? <Select label="Day" name="weekday" defaultValue={String(d.plan.weekday ?? 0)} options={WEEKDAYS.map((w, i) => ({ value: String(i), label: w }))} /> : null}
              <Select label="Starting at" name="hour" defaultValue={String(d.plan.hour)} key={`h-${d.plan.hour}`} options={HOURS} />
              <div className="row">
                <Button type="submit" busy={save.isPending}>
                  Save backup plan
                </Button>
                <Button type="button" kind="secondary" busy={now.isPending} disabled={!d.plan.enabled} onClick={() => now.mutate(undefined)}>
                  Back up now
                </Button>
              </div>
              {d.plan.next_run_at ? <p className="muted">Next backup: {when(d.plan.next_run_at)}</p> : null}
            </form>
            {saved ? <p role="status">{saved}</p> : null}
            {now.isSuccess ? <p role="status">Backup started.</p> : null}
            <ErrorMessage error={save.error ?? now.error ?? restore.error ?? remove.error} />
            <Table caption="Backups of this VM" head={['Taken', 'Kind', 'Status', 'Size', 'Sent', 'Reason', '']} empty={d.backups.length === 0}>
              {d.backups.map((b) => (
                <tr key={b.id}>
                  <td>{when(b.completed_at ?? b.created_at)}</td>
                  <td>{b.trigger}</td>
                  <td>
                    <Status value={b.status} />
                  </td>
                  <td>{bytes(b.stored_bytes)}</td>
                  <td>{bytes(b.sent_bytes)}</td>
                  <td>{b.reason ? `${b.reason}${b.next_attempt_at ? ` (retried ${when(b.next_attempt_at)})` : ''}` : '—'}</td>
                  <td>
                    <div className="row">
                      {b.status === 'completed' ? (
                        <>
                          <ConfirmButton
                            label="Restore"
                            confirm={`Restore ${vm.name} from the backup of ${when(b.completed_at)}? The VM is stopped, its disk rewritten from the backup and started again: what was written since is lost.`}
                            busy={restore.isPending}
                            disabled={!restorable}
                            onConfirm={() => restore.mutate(b.id)}
                          />
                          <Button kind="secondary" onClick={() => setNewFrom(b)}>
                            New VM
                          </Button>
                        </>
                      ) : null}
                      {b.status === 'completed' || b.status === 'failed' ? (
                        <ConfirmButton
                          label="Delete"
                          confirm={`Delete the backup of ${when(b.completed_at ?? b.created_at)}? It cannot be restored afterwards.`}
                          busy={remove.isPending}
                          onConfirm={() => remove.mutate(b.id)}
                        />
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </Table>
            {restore.isSuccess ? <p role="status">Restore started.</p> : null}
            {remove.isSuccess ? <p role="status">Backup deleted.</p> : null}
            {d.restores.length > 0 ? (
              <Table caption="Restores of this VM" head={['Asked', 'Status', 'Reason']}>
                {d.restores.map((r) => (
                  <tr key={r.id}>
                    <td>{when(r.created_at)}</td>
                    <td>
                      <Status value={r.status} />
                      {r.by_staff ? <span className="badge tag">by our team</span> : null}
                    </td>
                    <td>{r.reason ?? '—'}</td>
                  </tr>
                ))}
              </Table>
            ) : null}
            {newFrom ? <NewVmFromBackup vm={vm} backup={newFrom} onClose={() => setNewFrom(undefined)} /> : null}
          </>
        )}
      </Loaded>
    </Card>
  );
}

/** A new VM from a backup: a name and any size whose disk holds the backup. */
function NewVmFromBackup({ vm, backup, onClose }: { vm: Vm; backup: Backup; onClose: () => void }) {
  const catalog = useCatalog(vm.location_id);
  const navigate = useNavigate();
  const make = useAction((body: { name: string; tier_id: number }) => get(() => api.POST('/api/compute/backups/{backup_id}/vm', { params: { path: { backup_id: backup.id } }, body })), {
    invalidate: [keys.vms.all],
    onSuccess: (r) => navigate(`/vms/${r.vm_id}`),
  });
  const need = backup.disk_bytes ?? 0;
  return (
    <form
      className="stack"
      aria-label="New VM from a backup"
      onSubmit={(e) => {
        e.preventDefault();
        const f = formValues(e.currentTarget);
        make.mutate({ name: f.name ?? '', tier_id: Number(f.tier_id) });
      }}
    >
      <h3>New VM from the backup of {when(backup.completed_at)}</h3>
      <Input label="Name" name="name" required defaultValue={`${vm.name}-restored`} />
      <Loaded query={catalog}>
        {(tiers) => (
          <Select
            label="Size"
            name="tier_id"
            required
            placeholder="Choose"
            options={tiers.filter((t) => t.disk_gb * 1024 ** 3 >= need).map((t) => ({ value: String(t.id), label: `${t.name}: ${t.cpu} vCPU, ${t.memory_mb / 1024} GB RAM, ${t.disk_gb} GB disk — ${money(t.monthly_price)} / month` }))}
          />
        )}
      </Loaded>
      <p className="muted">Only sizes whose disk holds the backup ({bytes(need)}) are offered.</p>
      <div className="row">
        <Button type="submit" busy={make.isPending}>
          Create VM from backup
        </Button>
        <Button type="button" kind="secondary" onClick={onClose}>
          Cancel
        </Button>
      </div>
      <ErrorMessage error={make.error} />
    </form>
  );
}
