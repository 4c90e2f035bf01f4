import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Page, Select, Status, Table, useAction, when } from '../ui/kit';
import { LocationSelect, useCatalog, useVmChoices } from './shared/resources';
import { keys } from '../api/keys';

type Proto = 'http' | 'https' | 'tcp' | 'udp';
const PROTOS = ['http', 'https', 'tcp', 'udp'].map((p) => ({ value: p, label: p.toUpperCase() }));

/**
 * The VMs of a location a balancer can send traffic to: those whose size (tier) has load
 * balancing on in the catalog. `sizes` names those sizes, for the hint next to the picker.
 */
function useTargetChoices(location: string | number | undefined) {
  const vms = useVmChoices();
  const catalog = useCatalog(location);
  const balanceable = new Set((catalog.data ?? []).filter((t) => t.loadbalance_enabled).map((t) => t.id));
  return {
    vms,
    eligible: (vms.data ?? []).filter((v) => v.location_id === Number(location) && balanceable.has(v.tier_id)),
    sizes: (catalog.data ?? []).filter((t) => t.loadbalance_enabled).map((t) => t.name),
    ready: !!location && catalog.isSuccess && vms.isSuccess,
  };
}

/** Which sizes can be targets; `lead` says first that no VM is left to choose. */
function SizesHint({ sizes, lead }: { sizes: string[]; lead?: string }) {
  if (sizes.length === 0) return <p className="muted">No VM size in this location can receive traffic from a load balancer.</p>;
  return (
    <p className="muted">
      {lead ? `${lead} ` : ''}Only VMs of these sizes can be targets: {sizes.join(', ')}.
    </p>
  );
}

function BalancerList() {
  const navigate = useNavigate();
  const balancers = useQuery({ queryKey: keys.balancers.all, queryFn: () => get(() => api.GET('/api/network/load-balancer/')), refetchInterval: (q) => (q.state.data?.some((b) => b.status === 'Creating' || b.status === 'Deleting') ? 1500 : false) });
  const [location, setLocation] = useState('');
  const targets = useTargetChoices(location);
  // the targets go with the create: a refused one refuses the whole balancer, nothing is left to pay for
  const create = useAction(
    ({ v, target_vm_ids }: { v: Record<string, string>; target_vm_ids: number[] }) =>
      get(() =>
        api.POST('/api/network/load-balancer/', {
          body: {
            name: v.name ?? '',
            location_id: Number(v.location_id),
            algorithm: v.algorithm === 'least_connections' ? 'least_connections' : 'round_robin',
            forwarding_rules: [{ entry_protocol: (v.entry_protocol ?? 'http') as Proto, entry_port: Number(v.entry_port), target_protocol: (v.target_protocol ?? 'http') as Proto, target_port: Number(v.target_port) }],
            ...(target_vm_ids.length > 0 ? { target_vm_ids } : {}),
          },
        }),
      ),
    { invalidate: [keys.balancers.all], onSuccess: (b) => navigate(`/load-balancers/${b.uuid}`) },
  );
  return (
    <Page title="Load balancers">
      <Loaded query={balancers}>
        {(rows) => (
          <Table caption="Load balancers" head={['Name', 'Status', 'Address', 'Targets', 'Created']} empty={rows.length === 0}>
            {rows.map((b) => (
              <tr key={b.uuid}>
                <td>
                  <Link to={`/load-balancers/${b.uuid}`}>{b.name}</Link>
                </td>
                <td>
                  <Status value={b.status} />
                </td>
                <td>{b.address ?? '—'}</td>
                <td>{b.target_vm_ids.length}</td>
                <td>{when(b.created_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <Card title="New load balancer">
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const form = e.currentTarget;
            const target_vm_ids = new FormData(form).getAll('target').map(Number);
            create.mutate({ v: formValues(form), target_vm_ids });
          }}
        >
          <Input label="Name" name="name" required />
          <LocationSelect value={location} onChange={setLocation} />
          <Select label="Algorithm" name="algorithm" options={[{ value: 'round_robin', label: 'Round robin' }, { value: 'least_connections', label: 'Least connections' }]} />
          <Select label="Entry protocol" name="entry_protocol" options={PROTOS} />
          <Input label="Entry port" name="entry_port" type="number" min={1} max={65535} defaultValue={80} required />
          <Select label="Target protocol" name="target_protocol" options={PROTOS} />
          <Input label="Target port" name="target_port" type="number" min={1} max={65535} defaultValue={80} required />
          {targets.ready ? (
            <fieldset className="stack" name="target_vm_ids">
              <legend>Targets (optional)</legend>
              <SizesHint sizes={targets.sizes} {...(targets.eligible.length === 0 ? { lead: 'None of your VMs here can be a target yet.' } : {})} />
              {targets.eligible.map((v) => (
                <div className="check" key={v.id}>
                  <input type="checkbox" id={`target-${v.id}`} name="target" value={v.id} />
                  <label htmlFor={`target-${v.id}`}>{v.name}</label>
                </div>
              ))}
            </fieldset>
          ) : null}
          <ErrorMessage error={create.error} />
          <Button type="submit" busy={create.isPending}>
            Create load balancer
          </Button>
        </form>
      </Card>
    </Page>
  );
}

function BalancerDetail() {
  const uuid = useParams().uuid ?? '';
  const navigate = useNavigate();
  const path = { params: { path: { uuid } } };
  const balancer = useQuery({ queryKey: keys.balancers.one(uuid), queryFn: () => get(() => api.GET('/api/network/load-balancer/{uuid}', path)), refetchInterval: (q) => (q.state.data && (q.state.data.status === 'Creating' || !q.state.data.synced) ? 1500 : false) });
  const targets = useTargetChoices(balancer.data?.location_id);
  const invalidate = [keys.balancers.all];
  const addTarget = useAction((id: number) => call(() => api.POST('/api/network/load-balancer/{uuid}/targets', { ...path, body: { vm_ids: [id] } })), { invalidate });
  const removeTarget = useAction((vm_id: number) => call(() => api.DELETE('/api/network/load-balancer/{uuid}/targets/{vm_id}', { params: { path: { uuid, vm_id } } })), { invalidate });
  const update = useAction((algorithm: 'round_robin' | 'least_connections') => get(() => api.PATCH('/api/network/load-balancer/{uuid}', { ...path, body: { algorithm } })), { invalidate });
  const remove = useAction(() => call(() => api.DELETE('/api/network/load-balancer/{uuid}', path)), { invalidate, onSuccess: () => navigate('/load-balancers') });
  const vmName = (id: number) => targets.vms.data?.find((v) => v.id === id)?.name ?? `VM ${id}`;
  return (
    <Loaded query={balancer}>
      {(b) => (
        <Page title={b.name} actions={<ConfirmButton label="Delete" confirm="Delete this load balancer?" busy={remove.isPending} onConfirm={() => remove.mutate(undefined)} />}>
          <p>
            <Status value={b.status} /> · address {b.address ?? 'pending'} {b.last_error ? `· last error: ${b.last_error}` : ''}
          </p>
          <ErrorMessage error={remove.error ?? update.error ?? addTarget.error ?? removeTarget.error} />
          <Card title="Settings">
            <Select label="Algorithm" value={b.algorithm} disabled={update.isPending} onChange={(e) => update.mutate(e.target.value as 'round_robin')} options={[{ value: 'round_robin', label: 'Round robin' }, { value: 'least_connections', label: 'Least connections' }]} />
            <Table caption="Forwarding rules" head={['Entry', 'Target']}>
              {b.forwarding_rules.map((r, i) => (
                <tr key={i}>
                  <td>
                    {r.entry_protocol.toUpperCase()} {r.entry_port}
                  </td>
                  <td>
                    {r.target_protocol.toUpperCase()} {r.target_port}
                  </td>
                </tr>
              ))}
            </Table>
          </Card>
          <Card title="Targets">
            <ul>
              {b.target_vm_ids.map((id) => (
                <li key={id} className="row">
                  {vmName(id)}
                  <Button kind="link" onClick={() => removeTarget.mutate(id)}>
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
            <form
              className="inline"
              onSubmit={(e) => {
                e.preventDefault();
                const id = formValues(e.currentTarget).vm;
                if (id) addTarget.mutate(Number(id));
              }}
            >
              <Select label="Add a VM" name="vm" placeholder="Choose" required options={targets.eligible.filter((v) => !b.target_vm_ids.includes(v.id)).map((v) => ({ value: v.id, label: v.name }))} />
              <Button type="submit" busy={addTarget.isPending}>
                Add target
              </Button>
            </form>
            {targets.ready ? <SizesHint sizes={targets.sizes} {...(targets.eligible.every((v) => b.target_vm_ids.includes(v.id)) ? { lead: 'No other VM here can be a target.' } : {})} /> : null}
          </Card>
        </Page>
      )}
    </Loaded>
  );
}

export default function LoadBalancers() {
  return (
    <Routes>
      <Route index element={<BalancerList />} />
      <Route path=":uuid" element={<BalancerDetail />} />
    </Routes>
  );
}
