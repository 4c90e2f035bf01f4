import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call, get } from '../../api/client';
import { keys } from '../../api/keys';
import { Button, Card, Checkbox, ConfirmButton, ErrorMessage, formValues, Input, Loaded, money, Status, Table, useAction, when } from '../../ui/kit';
import { useCatalog } from './resources';

interface Vm {
  id: number;
  name: string;
  location_id: number;
  status: string;
  pending_action: string | null;
  block_storage: { size_gb: number } | null;
}

interface Snapshot {
  id: number;
  name: string;
  status: string;
  include_volume: boolean;
  consistency: string | null;
  size_gb: number | null;
  disk_gb: number;
  restoring: boolean;
  error: string | null;
  created_at: string;
  completed_at: string | null;
}

const BUSY = new Set(['Creating', 'Deleting']);

function sizeOf(s: Snapshot): string {
  return s.size_gb === null ? '—' : `${s.size_gb} GB`;
}

function consistencyOf(s: Snapshot): string {
  if (s.consistency === 'application') return 'File systems frozen (guest agent)';
  if (s.consistency === 'crash') return 'Crash-consistent';
  return '—';
}

/** A new VM from a snapshot: a name and a tier of the snapshot's location whose disk holds the snapshot's. */
function NewVmFromSnapshot({ snapshot, locationId, onClose }: { snapshot: Snapshot; locationId: number; onClose: () => void }) {
  const navigate = useNavigate();
  const catalog = useCatalog(locationId);
  const [tierId, setTierId] = useState<number | undefined>();
  const create = useAction((body: { name: string; tier_id: number }) => get(() => api.POST('/api/compute/snapshots/{id}/create-vm', { params: { path: { id: snapshot.id } }, body })), {
    invalidate: [keys.vms.all, keys.snapshots.all],
    onSuccess: (vm) => navigate(`/vms/${vm.id}`),
  });
  return (
    <form
      className="stack"
      aria-label={`New VM from ${snapshot.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        const name = formValues(e.currentTarget).name?.trim();
        if (name && tierId !== undefined) create.mutate({ name, tier_id: tierId });
      }}
    >
      <h3>New VM from “{snapshot.name}”</h3>
      <Input label="Name of the new VM" name="name" required maxLength={63} />
      <Loaded query={catalog}>
        {(tiers) => (
          <fieldset className="stack">
            <legend>Size</legend>
            <p className="muted">Its disk must hold the snapshot’s {snapshot.disk_gb} GB: smaller sizes cannot be chosen.</p>
            {tiers.map((t) => {
              const small = t.disk_gb < snapshot.disk_gb;
              return (
                <div className="check" key={t.id}>
                  <input type="radio" id={`from-snap-${snapshot.id}-tier-${t.id}`} name="tier" value={t.id} disabled={small} checked={tierId === t.id} onChange={() => setTierId(t.id)} />
                  <label htmlFor={`from-snap-${snapshot.id}-tier-${t.id}`}>
                    <b>{t.name}</b>: {t.cpu} vCPU, {t.memory_mb / 1024} GB RAM, {t.disk_gb} GB disk — {money(t.monthly_price)} / month
                    {small ? <span className="badge tag">disk too small</span> : null}
                  </label>
                </div>
              );
            })}
          </fieldset>
        )}
      </Loaded>
      <ErrorMessage error={create.error} />
      <div className="row">
        <Button type="submit" busy={create.isPending} disabled={tierId === undefined}>
          Create VM
        </Button>
        <Button type="button" kind="secondary" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The VM page's Snapshots card: take one (with the volume or not), and list, rename, restore and delete them. */
export function VmSnapshots({ vm }: { vm: Vm }) {
  const list = useQuery({
    queryKey: keys.snapshots.ofVm(vm.id),
    queryFn: () => call(() => api.GET('/api/compute/vm/{id}/snapshots', { params: { path: { id: vm.id }, query: { limit: 100 } } })),
    refetchInterval: (q) => (q.state.data?.data.some((s) => BUSY.has(s.status) || s.restoring) ? 1500 : 15_000),
  });
  const invalidate = [keys.snapshots.all, keys.vms.all];
  const [renaming, setRenaming] = useState<number | undefined>();
  const [copying, setCopying] = useState<Snapshot | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const create = useAction((body: { name: string; include_volume: boolean }) => call(() => api.POST('/api/compute/vm/{id}/snapshots', { params: { path: { id: vm.id } }, body })), {
    invalidate,
    onSuccess: (r) => setDone(r.message),
  });
  const rename = useAction((a: { id: number; name: string }) => get(() => api.PATCH('/api/compute/snapshots/{id}', { params: { path: { id: a.id } }, body: { name: a.name } })), {
    invalidate,
    onSuccess: () => {
      setRenaming(undefined);
      setDone('Snapshot renamed');
    },
  });
  const restore = useAction((id: number) => call(() => api.POST('/api/compute/snapshots/{id}/restore', { params: { path: { id } } })), { invalidate, onSuccess: (r) => setDone(r.message) });
  const remove = useAction((id: number) => call(() => api.DELETE('/api/compute/snapshots/{id}', { params: { path: { id } } })), { invalidate, onSuccess: (r) => setDone(r.message) });
  const idle = !vm.pending_action && (vm.status === 'Running' || vm.status === 'Stopped');
  const acting = create.isPending || restore.isPending || remove.isPending;

  return (
    <Card title="Snapshots">
      <p className="muted">
        A snapshot is a copy of this VM’s disks as they are at that moment, taken while it runs. It is billed per GB of its stored size each month, and kept until you delete it, also after the VM is deleted.
      </p>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          const name = v.name?.trim();
          if (name) create.mutate({ name, include_volume: v.include_volume === 'on' });
        }}
      >
        <Input label="Snapshot name" name="name" required maxLength={100} placeholder="before upgrade" />
        {vm.block_storage ? <Checkbox label={`Include the ${vm.block_storage.size_gb} GB volume`} name="include_volume" /> : null}
        <Button type="submit" busy={create.isPending} disabled={!idle || acting}>
          Take snapshot
        </Button>
      </form>
      {!idle ? <p className="muted">Snapshots are taken and restored when the VM is Running or Stopped and no other action is under way.</p> : null}
      <ErrorMessage error={create.error ?? restore.error ?? remove.error ?? rename.error} />
      {done ? <p role="status">{done}</p> : null}
      <Loaded query={list}>
        {(r) => (
          <Table caption="Snapshots of this VM" head={['Name', 'Status', 'Size', 'Consistency', 'Taken', 'Actions']} empty={r.data.length === 0}>
            {r.data.map((s: Snapshot) => (
              <tr key={s.id}>
                <td>
                  {renaming === s.id ? (
                    <form
                      className="inline"
                      onSubmit={(e) => {
                        e.preventDefault();
                        const name = formValues(e.currentTarget).name?.trim();
                        if (name) rename.mutate({ id: s.id, name });
                      }}
                    >
                      <Input label={`New name of ${s.name}`} name="name" defaultValue={s.name} required maxLength={100} />
                      <Button type="submit" kind="secondary" busy={rename.isPending}>
                        Save
                      </Button>
                      <Button type="button" kind="secondary" onClick={() => setRenaming(undefined)}>
                        Cancel
                      </Button>
                    </form>
                  ) : (
                    <>
                      {s.name}
                      {s.include_volume ? <span className="badge tag">with volume</span> : null}
                    </>
                  )}
                </td>
                <td>
                  <Status value={s.restoring ? 'Restoring' : s.status} />
                  {s.error ? <span className="muted"> {s.error}</span> : null}
                </td>
                <td>{sizeOf(s)}</td>
                <td>{consistencyOf(s)}</td>
                <td>{when(s.completed_at ?? s.created_at)}</td>
                <td>
                  <div className="row">
                    <Button kind="secondary" disabled={s.status === 'Deleting' || renaming === s.id} onClick={() => setRenaming(s.id)}>
                      Rename
                    </Button>
                    <Button kind="secondary" disabled={s.status !== 'Available'} onClick={() => setCopying(s)}>
                      New VM
                    </Button>
                    <ConfirmButton
                      label="Restore"
                      confirm={`Restore ${vm.name} from the snapshot “${s.name}” of ${when(s.completed_at ?? s.created_at)}? Everything written on its boot disk${s.include_volume ? ' and its volume' : ''} since then is lost: files, installed software and settings.${vm.status === 'Running' ? ' The VM is shut down, restored and started again.' : ' The VM stays stopped.'}`}
                      busy={restore.isPending && restore.variables === s.id}
                      disabled={!idle || acting || s.status !== 'Available'}
                      onConfirm={() => restore.mutate(s.id)}
                    />
                    <ConfirmButton
                      label="Delete"
                      confirm={`Delete the snapshot “${s.name}”? It cannot be restored afterwards. Billing for it stops once it is deleted.`}
                      busy={remove.isPending && remove.variables === s.id}
                      disabled={acting || s.restoring || (s.status !== 'Available' && s.status !== 'Failed')}
                      onConfirm={() => remove.mutate(s.id)}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      {copying ? <NewVmFromSnapshot key={copying.id} snapshot={copying} locationId={vm.location_id} onClose={() => setCopying(undefined)} /> : null}
    </Card>
  );
}
