import { useQuery } from '@tanstack/react-query';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Page, Select, Status, Table, useAction, when } from '../ui/kit';
import { LocationSelect, useVmChoices } from './shared/resources';
import { keys } from '../api/keys';

interface Graph {
  nodes: { id: string; label: string }[];
  edges: { from: string; to: string }[];
}

/** The network in the middle, what is attached to it around it, a line for each link. */
function NetworkGraph({ graph, name }: { graph: Graph; name: string }) {
  const w = 560;
  const h = 320;
  const cx = w / 2;
  const cy = h / 2;
  const hub = graph.nodes.find((n) => graph.edges.some((e) => e.from === n.id)) ?? graph.nodes[0];
  const others = graph.nodes.filter((n) => n !== hub);
  const pos = new Map<string, { x: number; y: number }>();
  if (hub) pos.set(hub.id, { x: cx, y: cy });
  others.forEach((n, i) => {
    const a = (2 * Math.PI * i) / Math.max(1, others.length) - Math.PI / 2;
    pos.set(n.id, { x: cx + Math.cos(a) * 200, y: cy + Math.sin(a) * 115 });
  });
  const describe = graph.edges.map((e) => `${graph.nodes.find((n) => n.id === e.from)?.label} to ${graph.nodes.find((n) => n.id === e.to)?.label}`).join('; ');
  return (
    <div className="graph">
      <svg viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`Network graph of ${name}: ${describe || 'nothing attached'}`}>
        {graph.edges.map((e) => {
          const a = pos.get(e.from);
          const b = pos.get(e.to);
          return a && b ? <line key={`${e.from}-${e.to}`} x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke="#6b7280" strokeWidth="2" /> : null;
        })}
        {graph.nodes.map((n) => {
          const p = pos.get(n.id)!;
          const isHub = n === hub;
          return (
            <g key={n.id}>
              <rect x={p.x - 70} y={p.y - 18} width="140" height="36" rx="8" fill={isHub ? '#1d4ed8' : '#fff'} stroke="#1d4ed8" strokeWidth="2" />
              <text x={p.x} y={p.y + 5} textAnchor="middle" fontSize="12" fill={isHub ? '#fff' : '#111827'}>
                {n.label.length > 22 ? `${n.label.slice(0, 21)}…` : n.label}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

function NetworkList() {
  const networks = useQuery({ queryKey: keys.networks.all, queryFn: () => get(() => api.GET('/api/network/private')), refetchInterval: (q) => (q.state.data?.some((n) => n.status === 'Creating') ? 1500 : false) });
  const create = useAction((body: { name: string; location_id: number; cidr: number }) => get(() => api.POST('/api/network/private', { body })), { invalidate: [keys.networks.all] });
  return (
    <Page title="Private networks">
      <Loaded query={networks}>
        {(rows) => (
          <Table caption="Private networks" head={['Name', 'Network', 'Status', 'IPs used', 'Created']} empty={rows.length === 0}>
            {rows.map((n) => (
              <tr key={n.uuid}>
                <td>
                  <Link to={`/networks/${n.uuid}`}>{n.name}</Link>
                </td>
                <td>
                  {n.network_ip}/{n.cidr}
                </td>
                <td>
                  <Status value={n.status === 'ACTIVE' ? 'Active' : n.status} />
                </td>
                <td>
                  <meter min={0} max={n.ip_usage.total} value={n.ip_usage.used} aria-label={`IPs used in ${n.name}`} /> {n.ip_usage.used} of {n.ip_usage.total}
                </td>
                <td>{when(n.created_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <Card title="New network">
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            create.mutate({ name: v.name ?? '', location_id: Number(v.location_id), cidr: Number(v.cidr ?? 24) });
          }}
        >
          <Input label="Name" name="name" required />
          <LocationSelect />
          <Select label="Size" name="cidr" defaultValue="24" options={[16, 20, 22, 23, 24].map((c) => ({ value: c, label: `/${c} (${2 ** (32 - c) - 3} addresses)` }))} />
          <ErrorMessage error={create.error} />
          <Button type="submit" busy={create.isPending}>
            Create network
          </Button>
        </form>
      </Card>
    </Page>
  );
}

function NetworkDetail() {
  const uuid = useParams().uuid ?? '';
  const navigate = useNavigate();
  const path = { params: { path: { uuid } } };
  const network = useQuery({ queryKey: keys.networks.one(uuid), queryFn: () => get(() => api.GET('/api/network/private/{uuid}', path)) });
  const ips = useQuery({ queryKey: keys.networks.ips(uuid), queryFn: () => get(() => api.GET('/api/network/private/{uuid}/ips', path)), refetchInterval: (q) => (q.state.data?.some((i) => i.pending_action) ? 1500 : false) });
  const graph = useQuery({ queryKey: keys.networks.graph(uuid), queryFn: () => get(() => api.GET('/api/network/private/{uuid}/graph', path)) });
  const vms = useVmChoices();
  // a VM joins a network once, and only while Running or Stopped
  const onNetwork = new Set((ips.data ?? []).filter((i) => i.instance_type === 'VM').map((i) => i.instance_id));
  const invalidate = [keys.networks.all];
  const assign = useAction((instance_id: number) => get(() => api.POST('/api/network/private/{uuid}/assign', { ...path, body: { instance_id, instance_type: 'VM' } })), { invalidate });
  const unassign = useAction((instance_id: number) => call(() => api.DELETE('/api/network/private/{uuid}/assign/{instance_id}', { params: { path: { uuid, instance_id } } })), { invalidate });
  const remove = useAction(() => call(() => api.DELETE('/api/network/private/{uuid}', path)), { invalidate, onSuccess: () => navigate('/networks') });
  return (
    <Loaded query={network}>
      {(n) => (
        <Page title={n.name} actions={<ConfirmButton label="Delete" confirm="Delete this network?" busy={remove.isPending} onConfirm={() => remove.mutate(undefined)} />}>
          <p>
            <Status value={n.status === 'ACTIVE' ? 'Active' : n.status} /> · {n.network_ip}/{n.cidr} · gateway {n.gateway} · {n.ip_usage.used} of {n.ip_usage.total} addresses used
          </p>
          <ErrorMessage error={remove.error} />
          <Card title="Graph">{graph.data ? <NetworkGraph graph={graph.data} name={n.name} /> : null}</Card>
          <Card title="Assigned addresses">
            <ErrorMessage error={assign.error ?? unassign.error} />
            <Loaded query={ips}>
              {(rows) => (
                <Table caption="Assigned addresses" head={['IP', 'Instance', 'State', '']} empty={rows.length === 0}>
                  {rows.map((i) => (
                    <tr key={i.id}>
                      <td>{i.ip}</td>
                      <td>{i.ip_description || `VM ${i.instance_id}`}</td>
                      <td>{i.pending_action ? <Status value={`${i.pending_action}ing`} /> : <Status value="Active" />}</td>
                      <td>
                        <Button kind="secondary" busy={unassign.isPending && unassign.variables === i.instance_id} disabled={!!i.pending_action} onClick={() => unassign.mutate(i.instance_id)}>
                          Unassign
                        </Button>
                      </td>
                    </tr>
                  ))}
                </Table>
              )}
            </Loaded>
            <form
              className="inline"
              onSubmit={(e) => {
                e.preventDefault();
                const id = formValues(e.currentTarget).vm;
                if (id) assign.mutate(Number(id));
              }}
            >
              <Select
                label="Assign a VM"
                name="vm"
                placeholder="Choose a VM"
                required
                options={(vms.data ?? []).filter((v) => v.location_id === n.location_id && (v.status === 'Running' || v.status === 'Stopped') && !onNetwork.has(v.id)).map((v) => ({ value: v.id, label: v.name }))}
              />
              <Button type="submit" busy={assign.isPending} disabled={n.status !== 'ACTIVE'}>
                Assign
              </Button>
            </form>
          </Card>
        </Page>
      )}
    </Loaded>
  );
}

export default function Networks() {
  return (
    <Routes>
      <Route index element={<NetworkList />} />
      <Route path=":uuid" element={<NetworkDetail />} />
    </Routes>
  );
}
