import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { Card, Loaded, Pager, Select, Status, Table, when } from '../../ui/kit';
import { useCan } from '../access';
import { keys } from '../../api/keys';

/* What a customer runs and what they asked support, on their page: staff need not act as the customer to see it. */

const KINDS = [
  { value: 'vm', label: 'Virtual machines' },
  { value: 'volume', label: 'Block storage volumes' },
  { value: 'network', label: 'Private networks' },
  { value: 'bucket', label: 'Object storage buckets' },
  { value: 'load_balancer', label: 'Load balancers' },
] as const;
type Kind = (typeof KINDS)[number]['value'];
const KIND_LABEL: Record<Kind, string> = { vm: 'VM', volume: 'Volume', network: 'Private network', bucket: 'Bucket', load_balancer: 'Load balancer' };

export function CustomerResources({ id }: { id: number }) {
  const can = useCan();
  const [page, setPage] = useState(1);
  const [kind, setKind] = useState<Kind | ''>('');
  const resources = useQuery({
    queryKey: keys.staff.customerResources(id, page, kind),
    queryFn: () => call(() => api.GET('/api/backoffice/customer/{id}/resources', { params: { path: { id }, query: { page, limit: 10, ...(kind ? { kind } : {}) } } })),
  });
  const vmLinks = can('GET /api/backoffice/compute/vm/{id}');
  return (
    <Card title="Resources">
      <Select
        label="Show"
        value={kind}
        placeholder="Everything"
        onChange={(e) => {
          setKind(KINDS.find((k) => k.value === e.target.value)?.value ?? '');
          setPage(1);
        }}
        options={[...KINDS]}
      />
      {vmLinks ? (
        <p>
          <Link to={`/backoffice/vms?customer_id=${id}`}>Open these VMs in the VM list</Link>
        </p>
      ) : null}
      <Loaded query={resources}>
        {(r) => (
          <>
            <Table caption="Resources" head={['Name', 'Kind', 'Status', 'Location', 'Details', 'Created']} empty={r.data.length === 0}>
              {r.data.map((x) => (
                <tr key={`${x.kind}-${x.id}`}>
                  <td>{x.kind === 'vm' && vmLinks ? <Link to={`/backoffice/vms/${x.id}`}>{x.name}</Link> : x.name}</td>
                  <td>{KIND_LABEL[x.kind as Kind] ?? x.kind}</td>
                  <td>
                    <Status value={x.status} />
                  </td>
                  <td>{x.location_name}</td>
                  <td>{x.detail}</td>
                  <td>{when(x.created_at)}</td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Card>
  );
}

export function CustomerTickets({ id }: { id: number }) {
  const [page, setPage] = useState(1);
  const tickets = useQuery({
    queryKey: keys.staff.tickets.ofCustomer(id, page),
    queryFn: () => call(() => api.GET('/api/backoffice/ticket/', { params: { query: { customer_id: id, page, limit: 10 } } })),
  });
  return (
    <Card title="Support tickets">
      <Loaded query={tickets}>
        {(r) => (
          <>
            <Table caption="Support tickets" head={['#', 'Title', 'Priority', 'Status', 'Last message']} empty={r.data.length === 0}>
              {r.data.map((t) => (
                <tr key={t.id}>
                  <td>{t.id}</td>
                  <td>
                    <Link to={`/backoffice/tickets/${t.id}`}>{t.title}</Link>
                  </td>
                  <td>{t.priority}</td>
                  <td>
                    <Status value={t.status} />
                  </td>
                  <td>{when(t.last_message_at)}</td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Card>
  );
}
