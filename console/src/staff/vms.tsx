import { useQuery } from '@tanstack/react-query';
import { Link, Route, Routes, useParams, useSearchParams } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, formValues, Input, Loaded, Page, Pager, Select, Status, Table, when } from '../ui/kit';
import { useCan } from './access';
import { StaffVmConsole } from './shared/vm-console';
import { keys } from '../api/keys';
import { StaffVmActions } from './shared/vm-actions';
import { StaffVmSnapshots } from './shared/vm-snapshots';
import { StaffVmBackups } from './shared/vm-backups';
import { MetricGraphs } from '../ui/metric-graphs';

const STATUSES = ['Creating', 'Running', 'Stopped', 'Suspended', 'Error', 'Deleting', 'Deleted'] as const;
type VmStatus = (typeof STATUSES)[number];

const ram = (mb: number) => (mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`);

/** The filters live in the address, so a list can be linked to (the customer page links its VMs). */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const num = (k: string) => (params.get(k) && /^\d+$/.test(params.get(k)!) ? Number(params.get(k)) : undefined);
  const status = STATUSES.find((s) => s === params.get('status'));
  const filters = {
    page: num('page') ?? 1,
    customer_id: num('customer_id'),
    location_id: num('location_id'),
    tier_id: num('tier_id'),
    status,
    search: params.get('search') ?? undefined,
  };
  const set = (next: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v) p.set(k, v);
    setParams(p);
  };
  return { filters, set };
}

function VmList() {
  const can = useCan();
  const { filters, set } = useFilters();
  const { page, ...rest } = filters;
  const query = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== '')) as {
    customer_id?: number;
    location_id?: number;
    tier_id?: number;
    status?: VmStatus;
    search?: string;
  };
  const vms = useQuery({ queryKey: keys.staff.vms(filters), queryFn: () => call(() => api.GET('/api/backoffice/compute/vm', { params: { query: { ...query, page, limit: 20 } } })) });
  const locations = useQuery({ queryKey: keys.locations, queryFn: () => get(() => api.GET('/api/lookup/locations')) });
  const showTiers = can('GET /api/backoffice/tier/tiers');
  const tiers = useQuery({ queryKey: keys.staff.tiers, enabled: showTiers, queryFn: () => get(() => api.GET('/api/backoffice/tier/tiers')) });
  const viewCustomers = can('GET /api/backoffice/customer/{id}');
  return (
    <Page title="Virtual machines">
      <form
        key={`${locations.data?.length ?? 0}-${tiers.data?.length ?? 0}`}
        className="inline"
        role="search"
        aria-label="Filter the VMs"
        onSubmit={(e) => {
          e.preventDefault();
          set(formValues(e.currentTarget));
        }}
      >
        <Input label="Name or public IP" name="search" type="search" defaultValue={filters.search ?? ''} maxLength={100} />
        <Select label="Status" name="status" placeholder="Any (not deleted)" defaultValue={filters.status ?? ''} options={STATUSES.map((s) => ({ value: s, label: s }))} />
        <Select label="Location" name="location_id" placeholder="Any" defaultValue={filters.location_id ?? ''} options={(locations.data ?? []).map((l) => ({ value: l.id, label: l.name }))} />
        {showTiers ? <Select label="Tier" name="tier_id" placeholder="Any" defaultValue={filters.tier_id ?? ''} options={(tiers.data ?? []).map((t) => ({ value: t.id, label: t.name }))} /> : null}
        <Input label="Customer number" name="customer_id" type="number" min={1} defaultValue={filters.customer_id ?? ''} />
        <Button type="submit" busy={vms.isFetching}>
          Filter
        </Button>
      </form>
      <Loaded query={vms}>
        {(r) => (
          <>
            <p className="muted" role="status">
              {r.meta.total === 1 ? '1 VM' : `${r.meta.total} VMs`}
            </p>
            <Table caption="Virtual machines" head={['Name', 'Customer', 'Location', 'Tier', 'Status', 'Public IP', 'Hypervisor', 'Created']} empty={r.data.length === 0}>
              {r.data.map((v) => (
                <tr key={v.id}>
                  <td>
                    <Link to={`/backoffice/vms/${v.id}`}>{v.name}</Link>
                  </td>
                  <td>{viewCustomers ? <Link to={`/backoffice/customers/${v.customer.id}`}>{v.customer.email}</Link> : v.customer.email}</td>
                  <td>{v.location_name}</td>
                  <td>{v.tier_name}</td>
                  <td>
                    <Status value={v.status} />
                  </td>
                  <td>{v.public_ip ?? '—'}</td>
                  <td>{v.hypervisor ?? '—'}</td>
                  <td>{when(v.created_at)}</td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={(p) => set({ ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])), page: String(p) })} />
          </>
        )}
      </Loaded>
    </Page>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/**
 * While a resize is under way: the size the VM is moving to, named from the tier list when the staff
 * member may read it (else by its number), as the customer's VM page says it. Said once the list has
 * answered, not a number first and the name a moment later (the status is announced).
 */
function ResizeTarget({ resize }: { resize: { from_tier_id: number; to_tier_id: number } | null }) {
  const can = useCan();
  const showTiers = can('GET /api/backoffice/tier/tiers');
  const tiers = useQuery({ queryKey: keys.staff.tiers, enabled: showTiers && resize !== null, queryFn: () => get(() => api.GET('/api/backoffice/tier/tiers')) });
  if (!resize || (showTiers && tiers.isPending)) return null;
  const to = tiers.data?.find((t) => t.id === resize.to_tier_id);
  return (
    <p role="status" aria-label="Resizing">
      Resizing to <b>{to ? to.name : `tier ${resize.to_tier_id}`}</b>
      {to ? `: ${to.cpu} vCPU, ${ram(to.memory_mb)} RAM, ${to.disk_gb} GB disk` : ''}. The size above changes when it is done.
    </p>
  );
}

function VmDetail() {
  const id = Number(useParams().id);
  const can = useCan();
  const vm = useQuery({ queryKey: keys.staff.vm(id), queryFn: () => get(() => api.GET('/api/backoffice/compute/vm/{id}', { params: { path: { id } } })) });
  return (
    <Loaded query={vm}>
      {(v) => (
        <Page title={v.name}>
          <p>
            <Link to="/backoffice/vms">All VMs</Link>
          </p>
          <div className="grid">
            <Card title="State">
              <dl className="facts">
                <Fact label="Status">
                  <Status value={v.status} />
                </Fact>
                <Fact label="Work under way">{v.pending_action ?? 'none'}</Fact>
                {v.error ? <Fact label="Error">{`The ${v.error.action} failed: ${v.error.message}`}</Fact> : null}
                {v.sync.last_error ? <Fact label="Last datacenter error">{`${v.sync.last_error} (${when(v.sync.last_error_at)})`}</Fact> : null}
                {v.suspend_reason ? <Fact label="Suspended">{`${v.suspend_reason} since ${when(v.suspended_at)}`}</Fact> : null}
              </dl>
            </Card>
            <Card title="Owner">
              <dl className="facts">
                <Fact label="Customer">{can('GET /api/backoffice/customer/{id}') ? <Link to={`/backoffice/customers/${v.customer.id}`}>{v.customer.name || v.customer.email}</Link> : v.customer.name}</Fact>
                <Fact label="E-mail">{v.customer.email}</Fact>
              </dl>
            </Card>
            <Card title="Placement">
              <dl className="facts">
                <Fact label="Location">{v.location_name}</Fact>
                <Fact label="Hypervisor">{v.hypervisor ?? 'not placed yet'}</Fact>
                <Fact label="Machine name">{v.external_id ?? '—'}</Fact>
                <Fact label="Tier">
                  {`${v.tier_name}: ${v.cpu} vCPU, ${ram(v.memory_mb)} RAM, ${v.disk_gb} GB disk`}
                  <ResizeTarget resize={v.resize} />
                </Fact>
                <Fact label="Image">{v.os}</Fact>
                <Fact label="Block storage">{v.block_storage ? `${v.block_storage.size_gb} GB` : 'none'}</Fact>
              </dl>
            </Card>
            <Card title="Times">
              <dl className="facts">
                <Fact label="Created">{when(v.created_at)}</Fact>
                <Fact label="Last started">{when(v.started_at)}</Fact>
                <Fact label="Deleted">{when(v.deleted_at)}</Fact>
              </dl>
            </Card>
          </div>
          <StaffVmConsole vm={v} />
          {can('POST /api/backoffice/compute/vm/{id}/reboot') ? <StaffVmActions vm={v} /> : null}
          {can('GET /api/backoffice/compute/snapshots') ? <StaffVmSnapshots vm={v} /> : null}
          {can('GET /api/backoffice/backups/') ? <StaffVmBackups vm={v} /> : null}
          {can('GET /api/backoffice/compute/vm/{id}/metrics') ? (
            <MetricGraphs
              queryKeys={{ series: (range) => keys.staff.vmMetrics(id, range), traffic: keys.staff.vmTraffic(id) }}
              load={(range) => get(() => api.GET('/api/backoffice/compute/vm/{id}/metrics', { params: { path: { id }, query: { range } } }))}
              loadTraffic={() => get(() => api.GET('/api/backoffice/compute/vm/{id}/traffic', { params: { path: { id } } }))}
            />
          ) : null}
          <Card title="Addresses">
            <Table caption="Addresses" head={['Address', 'Kind', 'Network']} empty={v.addresses.length === 0}>
              {v.addresses.map((a) => (
                <tr key={`${a.type}-${a.ip}`}>
                  <td>{a.ip}</td>
                  <td>{a.type === 'public' ? 'Public' : 'Private'}</td>
                  <td>{a.network_name ?? '—'}</td>
                </tr>
              ))}
            </Table>
          </Card>
        </Page>
      )}
    </Loaded>
  );
}

export default function Vms() {
  return (
    <Routes>
      <Route index element={<VmList />} />
      <Route path=":id" element={<VmDetail />} />
    </Routes>
  );
}
