import { useQuery } from '@tanstack/react-query';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Page, Select, Status, Table, useAction } from '../ui/kit';
import { useCan } from './access';
import { keys } from '../api/keys';

function TierTypes() {
  const can = useCan();
  const types = useQuery({ queryKey: keys.staff.tierTypes, queryFn: () => get(() => api.GET('/api/backoffice/node/tier-types')) });
  const create = useAction((body: { name: string; description: string }) => get(() => api.POST('/api/backoffice/node/tier-type', { body })), { invalidate: [keys.staff.tierTypes] });
  const rename = useAction(({ id, ...body }: { id: number; name: string; description: string }) => get(() => api.POST('/api/backoffice/node/tier-type/{id}/update', { params: { path: { id } }, body })), { invalidate: [keys.staff.tierTypes, keys.staff.tiers] });
  const manage = can('POST /api/backoffice/node/tier-type/{id}/update');
  return (
    <Card title="Tier types">
      <ErrorMessage error={rename.error} />
      <Loaded query={types}>
        {(rows) => (
          <Table caption="Tier types" head={['Name and description']} empty={rows.length === 0}>
            {rows.map((t) => (
              <tr key={t.id}>
                <td>
                  {manage ? (
                    <form
                      className="inline"
                      onSubmit={(e) => {
                        e.preventDefault();
                        const v = formValues(e.currentTarget);
                        rename.mutate({ id: t.id, name: v.name ?? '', description: v.description ?? '' });
                      }}
                    >
                      <Input label={`Name of type ${t.id}`} name="name" defaultValue={t.name} required />
                      <Input label={`Description of type ${t.id}`} name="description" defaultValue={t.description} required />
                      <Button type="submit" kind="secondary" busy={rename.isPending && rename.variables?.id === t.id}>
                        Save
                      </Button>
                    </form>
                  ) : (
                    `${t.name}: ${t.description}`
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      {can('POST /api/backoffice/node/tier-type') ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            create.mutate({ name: v.name ?? '', description: v.description ?? '' });
          }}
        >
          <Input label="Name" name="name" required />
          <Input label="Description" name="description" required />
          <Button type="submit" busy={create.isPending}>
            Add type
          </Button>
        </form>
      ) : null}
      <ErrorMessage error={create.error} />
    </Card>
  );
}

function Tiers() {
  const can = useCan();
  const tiers = useQuery({ queryKey: keys.staff.tiers, queryFn: () => get(() => api.GET('/api/backoffice/tier/tiers')) });
  const types = useQuery({ queryKey: keys.staff.tierTypes, queryFn: () => get(() => api.GET('/api/backoffice/node/tier-types')) });
  const locations = useQuery({ queryKey: keys.locations, queryFn: () => get(() => api.GET('/api/lookup/locations')) });
  const invalidate = [keys.staff.tiers];
  const toggle = useAction(({ id, what }: { id: number; what: 'status' | 'loadbalance' }) => call(() => api.PATCH(what === 'status' ? '/api/backoffice/tier/{id}/toggle-status' : '/api/backoffice/tier/{id}/toggle-loadbalance', { params: { path: { id } } })), { invalidate });
  const retire = useAction((id: number) => call(() => api.DELETE('/api/backoffice/tier/{id}/delete', { params: { path: { id } } })), { invalidate });
  const cpuLimit = useAction(({ id, cpu_limit }: { id: number; cpu_limit: number }) => get(() => api.PATCH('/api/backoffice/tier/{id}/update-cpu', { params: { path: { id } }, body: { cpu_limit } })), { invalidate });
  const create = useAction((v: Record<string, string>) =>
    get(() =>
      api.POST('/api/backoffice/tier/create', {
        body: { name: v.name ?? '', tier_type_id: Number(v.tier_type_id), cpu: Number(v.cpu), memory_mb: Number(v.memory_mb), disk_gb: Number(v.disk_gb), cpu_limit: Number(v.cpu_limit), location_id: v.location_id ? Number(v.location_id) : null },
      }),
    ),
  { invalidate });
  const manage = can('POST /api/backoffice/tier/create');
  return (
    <Card title="VM tiers">
      <ErrorMessage error={toggle.error ?? retire.error ?? cpuLimit.error} />
      <Loaded query={tiers}>
        {(rows) => (
          <Table caption="VM tiers" head={['Name', 'Type', 'Size', 'CPU limit', 'Visible', 'Load balancer', '']} empty={rows.length === 0}>
            {rows.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>{t.tier_type_name}</td>
                <td>
                  {t.cpu} vCPU · {t.memory_mb / 1024} GB · {t.disk_gb} GB
                </td>
                <td>
                  {manage ? (
                    <form
                      className="inline"
                      onSubmit={(e) => {
                        e.preventDefault();
                        cpuLimit.mutate({ id: t.id, cpu_limit: Number(formValues(e.currentTarget).cpu_limit) });
                      }}
                    >
                      <Input label={`CPU limit of ${t.name} (%)`} name="cpu_limit" type="number" min={1} max={100} defaultValue={t.cpu_limit} />
                      <Button type="submit" kind="secondary" busy={cpuLimit.isPending && cpuLimit.variables?.id === t.id}>
                        Set
                      </Button>
                    </form>
                  ) : (
                    `${t.cpu_limit}%`
                  )}
                </td>
                <td>
                  <Status value={t.is_visible ? 'Enabled' : 'Disabled'} />
                </td>
                <td>{t.loadbalance_enabled ? 'on' : 'off'}</td>
                <td className="row">
                  {manage ? (
                    <>
                      <Button kind="secondary" onClick={() => toggle.mutate({ id: t.id, what: 'status' })}>
                        {t.is_visible ? 'Hide' : 'Show'}
                      </Button>
                      <Button kind="secondary" onClick={() => toggle.mutate({ id: t.id, what: 'loadbalance' })}>
                        {t.loadbalance_enabled ? 'Load balancer off' : 'Load balancer on'}
                      </Button>
                      <ConfirmButton label="Retire" confirm="Retire this tier?" onConfirm={() => retire.mutate(t.id)} />
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      {manage ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(formValues(e.currentTarget));
          }}
        >
          <Input label="Name" name="name" required />
          <Select label="Type" name="tier_type_id" options={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))} />
          <Input label="vCPUs" name="cpu" type="number" min={1} required />
          <Input label="Memory (MB)" name="memory_mb" type="number" min={512} step={512} required />
          <Input label="Disk (GB)" name="disk_gb" type="number" min={1} required />
          <Input label="CPU limit (%)" name="cpu_limit" type="number" min={1} max={100} defaultValue={100} required />
          <Select label="Location" name="location_id" placeholder="Every location" options={(locations.data ?? []).map((l) => ({ value: l.id, label: l.name }))} />
          <Button type="submit" busy={create.isPending}>
            Create tier
          </Button>
        </form>
      ) : null}
      <ErrorMessage error={create.error} />
    </Card>
  );
}

function BlockStorage() {
  const can = useCan();
  const machines = useQuery({ queryKey: keys.staff.blockMachines, queryFn: () => get(() => api.GET('/api/backoffice/storage/blocks')) });
  const tiers = useQuery({ queryKey: keys.staff.storageTiers, queryFn: () => get(() => api.GET('/api/backoffice/storage/blocks/tiers')) });
  const toggle = useAction((id: number) => call(() => api.PATCH('/api/backoffice/storage/blocks/tiers/{id}/update-status', { params: { path: { id } } })), { invalidate: [keys.staff.storageTiers] });
  const rename = useAction(({ id, ...body }: { id: number; name: string; description: string }) => call(() => api.PATCH('/api/backoffice/storage/blocks/tiers/{id}/update', { params: { path: { id } }, body })), { invalidate: [keys.staff.storageTiers] });
  const manage = can('PATCH /api/backoffice/storage/blocks/tiers/{id}/update');
  return (
    <Card title="Block storage">
      <Loaded query={machines}>
        {(rows) => (
          <Table caption="Block storage machines" head={['Machine', 'Hypervisor IP', 'Location', 'Used', 'Capacity']} empty={rows.length === 0}>
            {rows.map((m) => (
              <tr key={m.id}>
                <td>{m.name}</td>
                <td>{m.hypervisor_ip}</td>
                <td>{m.location_id}</td>
                <td className="num">{m.used_gb} GB</td>
                <td className="num">{m.capacity_gb} GB</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <ErrorMessage error={toggle.error ?? rename.error} />
      <Loaded query={tiers}>
        {(rows) => (
          <Table caption="Block storage tiers" head={['Tier', 'Status', '']} empty={rows.length === 0}>
            {rows.map((t) => (
              <tr key={t.id}>
                <td>
                  {manage ? (
                    <form
                      className="inline"
                      onSubmit={(e) => {
                        e.preventDefault();
                        const v = formValues(e.currentTarget);
                        rename.mutate({ id: t.id, name: v.name ?? '', description: v.description ?? '' });
                      }}
                    >
                      <Input label={`Name of storage tier ${t.id}`} name="name" defaultValue={t.name} required />
                      <Input label={`Description of storage tier ${t.id}`} name="description" defaultValue={t.description} required />
                      <Button type="submit" kind="secondary" busy={rename.isPending && rename.variables?.id === t.id}>
                        Save
                      </Button>
                    </form>
                  ) : (
                    `${t.name}: ${t.description}`
                  )}
                </td>
                <td>
                  <Status value={t.is_active ? 'Enabled' : 'Disabled'} />
                </td>
                <td>
                  {can('PATCH /api/backoffice/storage/blocks/tiers/{id}/update-status') ? (
                    <Button kind="secondary" busy={toggle.isPending && toggle.variables === t.id} onClick={() => toggle.mutate(t.id)}>
                      {t.is_active ? 'Disable' : 'Enable'}
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </Card>
  );
}

export default function Catalog() {
  const can = useCan();
  return (
    <Page title="Tiers and storage">
      <Tiers />
      {can('GET /api/backoffice/node/tier-types') ? <TierTypes /> : null}
      {can('GET /api/backoffice/storage/blocks') ? <BlockStorage /> : null}
    </Page>
  );
}
