import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, Input, Loaded, money, moneyText, Notice, Page, Select, Status, Table, useAction, when } from '../ui/kit';
import { useCan } from './access';
import { keys } from '../api/keys';
import { StaffBackupPolicy } from './shared/vm-backups';

type Kind = 'component' | 'tier' | 'storage_tier';
interface Draft {
  kind: Kind;
  location_id: string;
  item_id: string;
  /** a tier's own price of this component; empty: the tier's package */
  component_id: string;
  monthly_price: string;
  effective_date: string;
}

function useLookups() {
  const locations = useQuery({ queryKey: keys.locations, queryFn: () => get(() => api.GET('/api/lookup/locations')), staleTime: 600_000 });
  const components = useQuery({ queryKey: keys.staff.components, queryFn: () => get(() => api.GET('/api/backoffice/component/components')), staleTime: 600_000 });
  const tiers = useQuery({ queryKey: keys.staff.tiers, queryFn: () => get(() => api.GET('/api/backoffice/tier/tiers')) });
  const storageTiers = useQuery({ queryKey: keys.staff.storageTiers, queryFn: () => get(() => api.GET('/api/backoffice/storage/blocks/tiers')) });
  return { locations: locations.data ?? [], components: components.data ?? [], tiers: tiers.data ?? [], storageTiers: storageTiers.data ?? [] };
}

/** The query of the preview and the body of the schedule route, from the form's draft. */
function requestOf(d: Draft) {
  const base = { monthly_price: Number(d.monthly_price), effective_date: new Date(d.effective_date).toISOString(), location_id: Number(d.location_id) };
  // a tier's price without a location applies wherever the tier is offered
  if (d.kind === 'tier') {
    const { location_id, ...rest } = base;
    return { ...rest, ...(d.location_id ? { location_id } : {}), tier_id: Number(d.item_id), ...(d.component_id ? { component_id: Number(d.component_id) } : {}) };
  }
  if (d.kind === 'storage_tier') return { ...base, storage_tier_id: Number(d.item_id) };
  return { ...base, component_id: Number(d.item_id) };
}

function ScheduleForm() {
  const { locations, components, tiers, storageTiers } = useLookups();
  const empty: Draft = { kind: 'component', location_id: '', item_id: '', component_id: '', monthly_price: '', effective_date: '' };
  const [draft, setDraft] = useState<Draft>(empty);
  const [previewed, setPreviewed] = useState<Draft>();
  const set = (k: keyof Draft) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setDraft((d) => ({ ...d, [k]: e.target.value, ...(k === 'kind' ? { item_id: '', component_id: '' } : {}) }));
    setPreviewed(undefined);
  };
  const preview = useAction((d: Draft) => get(() => api.GET('/api/backoffice/pricing/preview', { params: { query: requestOf(d) } })), { onSuccess: (_r, d) => setPreviewed(d) });
  const save = useAction(
    (d: Draft) => {
      const r = requestOf(d);
      if ('tier_id' in r) return get(() => api.POST('/api/backoffice/pricing/update-tier', { body: r }));
      if ('storage_tier_id' in r) return get(() => api.POST('/api/backoffice/pricing/update-storage-tier', { body: r }));
      return get(() => api.POST('/api/backoffice/pricing/update-loc', { body: r }));
    },
    { invalidate: [keys.staff.schedules.all], onSuccess: () => { setDraft(empty); setPreviewed(undefined); preview.reset(); } },
  );
  const items =
    draft.kind === 'tier'
      ? tiers.filter((t) => !t.deleted_at).map((t) => ({ value: t.id, label: t.name }))
      : draft.kind === 'storage_tier'
        ? storageTiers.map((t) => ({ value: t.id, label: t.name }))
        : components.filter((c) => c.code !== 'vm_tier').map((c) => ({ value: c.id, label: `${c.name} (per ${c.unit})` }));
  const impact = previewed && preview.data;
  return (
    <Card title="Schedule a price change">
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          preview.mutate(draft);
        }}
      >
        <Select label="What" value={draft.kind} onChange={set('kind')} options={[{ value: 'component', label: 'A component in a location' }, { value: 'tier', label: 'A VM tier (its package or its own price of a component)' }, { value: 'storage_tier', label: 'A block storage tier' }]} />
        <Select
          label="Location"
          value={draft.location_id}
          onChange={set('location_id')}
          required={draft.kind !== 'tier'}
          placeholder={draft.kind === 'tier' ? 'Every location where the tier is offered' : 'Choose'}
          options={locations.map((l) => ({ value: l.id, label: l.name }))}
        />
        <Select label="Item" value={draft.item_id} onChange={set('item_id')} required placeholder="Choose" options={items} />
        {draft.kind === 'tier' ? (
          <Select
            label="Price of"
            value={draft.component_id}
            onChange={set('component_id')}
            options={[{ value: '', label: 'The package' }, ...components.filter((c) => c.tier_own_price).map((c) => ({ value: c.id, label: `${c.name} on this tier (per ${c.unit})` }))]}
          />
        ) : null}
        <Input label="New monthly price" type="number" min={0} step="0.01" value={draft.monthly_price} onChange={set('monthly_price')} required hint="The hourly price is the monthly price / 730." />
        <Input label="Effective from (your local time)" type="datetime-local" value={draft.effective_date} onChange={set('effective_date')} required />
        <ErrorMessage error={preview.error} />
        <Button type="submit" kind={impact ? 'secondary' : 'primary'} busy={preview.isPending}>
          Preview the revenue impact
        </Button>
      </form>
      {impact ? (
        <section aria-label="Revenue impact" className="stack" data-testid="impact">
          <h3>Revenue impact</h3>
          <p>
            Price {money(impact.current_monthly_price)} → <b>{money(impact.new_monthly_price)}</b> per month from {when(impact.effective_date)}.
          </p>
          <p>
            {impact.affected_resources} of {impact.running_resources} running resources {impact.location_id === null ? 'in those locations' : 'in the location'} use it. Monthly revenue {money(impact.monthly_revenue_before)} →{' '}
            <b>{money(impact.monthly_revenue_after)}</b> (change <b>{money(impact.monthly_revenue_change)}</b>).
          </p>
          <ErrorMessage error={save.error} />
          <Button busy={save.isPending} onClick={() => save.mutate(previewed)}>
            Save the schedule
          </Button>
        </section>
      ) : null}
      {save.isSuccess ? <Notice tone="success">Price change scheduled.</Notice> : null}
    </Card>
  );
}

function Schedules() {
  const can = useCan();
  const { locations, components, tiers, storageTiers } = useLookups();
  const nameOf = <T extends { id: number; name: string }>(list: T[], id: number | null) => list.find((x) => x.id === id)?.name;
  const itemName = (s: { item_type: string; component_id: number | null; tier_id: number | null; storage_tier_id: number | null; price_key: string }) => {
    if (s.item_type === 'tier') {
      const tier = nameOf(tiers, s.tier_id) ?? `tier #${s.tier_id}`;
      return s.component_id === null ? `VM tier ${tier} (package)` : `${nameOf(components, s.component_id) ?? 'component'} on VM tier ${tier}`;
    }
    if (s.item_type === 'storage_tier') return `Block storage tier ${nameOf(storageTiers, s.storage_tier_id) ?? `#${s.storage_tier_id}`}`;
    return nameOf(components, s.component_id) ?? s.price_key;
  };
  const [status, setStatus] = useState<'waiting' | 'applied' | 'cancelled'>('waiting');
  const schedules = useQuery({ queryKey: keys.staff.schedules.byStatus(status), queryFn: () => get(() => api.GET('/api/backoffice/pricing/schedule', { params: { query: { status } } })) });
  const cancel = useAction((id: number) => get(() => api.DELETE('/api/backoffice/pricing/cancel/{id}', { params: { path: { id } } })), { invalidate: [keys.staff.schedules.all] });
  return (
    <Card title="Scheduled changes">
      <Select label="Show" value={status} onChange={(e) => setStatus(e.target.value as 'waiting')} options={['waiting', 'applied', 'cancelled'].map((s) => ({ value: s, label: s }))} />
      <ErrorMessage error={cancel.error} />
      <Loaded query={schedules}>
        {(rows) => (
          <Table caption="Price schedules" head={['Item', 'Location', 'Monthly', 'Hourly', 'Effective', 'Status', '']} empty={rows.length === 0}>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>{itemName(s)}</td>
                <td>{s.location_id === null ? 'Every location' : (nameOf(locations, s.location_id) ?? `Location #${s.location_id}`)}</td>
                <td className="num">{moneyText(s.monthly_price)}</td>
                <td className="num">{moneyText(s.hourly_price)}</td>
                <td>{when(s.effective_date)}</td>
                <td>
                  <Status value={s.status} />
                </td>
                <td>
                  {s.status === 'waiting' && can('DELETE /api/backoffice/pricing/cancel/{id}') ? (
                    <ConfirmButton label="Cancel" confirm="Cancel this price change?" busy={cancel.isPending && cancel.variables === s.id} onConfirm={() => cancel.mutate(s.id)} />
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

function PricesInForce() {
  const { locations } = useLookups();
  const [location, setLocation] = useState('1');
  const prices = useQuery({ queryKey: keys.staff.prices(location), queryFn: () => get(() => api.GET('/api/backoffice/pricing/location/{location_id}', { params: { path: { location_id: Number(location) } } })) });
  const { components } = useLookups();
  return (
    <Card title="Prices in force">
      <Select label="Location" value={location} onChange={(e) => setLocation(e.target.value)} options={locations.map((l) => ({ value: l.id, label: l.name }))} />
      <Loaded query={prices}>
        {(rows) => (
          <Table caption="Prices in force" head={['Component', 'Monthly', 'Per hour', 'Since']} empty={rows.length === 0}>
            {rows.map((p) => (
              <tr key={p.id}>
                <td>{components.find((c) => c.id === p.component_id)?.name ?? p.price_key}</td>
                <td className="num">{moneyText(p.monthly_price)}</td>
                <td className="num">{moneyText(p.price_per_hour)}</td>
                <td>{when(p.effective_from)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </Card>
  );
}

export default function Pricing() {
  const can = useCan();
  return (
    <Page title="Pricing">
      {can('POST /api/backoffice/pricing/update-loc') ? <ScheduleForm /> : null}
      <Schedules />
      <PricesInForce />
      {can('GET /api/backoffice/backups/policy') ? <StaffBackupPolicy /> : null}
    </Page>
  );
}
