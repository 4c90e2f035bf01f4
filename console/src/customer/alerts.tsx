import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call, get } from '../api/client';
import { keys } from '../api/keys';
import { Button, Card, Checkbox, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Page, Pager, Select, Status, Table, useAction, when } from '../ui/kit';
import { useVmChoices } from './shared/resources';
import { useMemberCan } from './shared/accounts';
import { AGGREGATIONS, conditionText, METRICS, type Aggregation, type Metric } from './shared/vm-alerts';

function NewPolicy() {
  const vms = useVmChoices();
  const [formKey, setFormKey] = useState(0);
  const create = useAction(
    (body: { name: string; vm_id: number | null; metric: Metric; comparison: '>' | '<'; threshold: number; aggregation: Aggregation; window_minutes: number; notify_email: boolean }) =>
      get(() => api.POST('/api/compute/alerts/policies', { body })),
    { invalidate: [keys.alerts.all], onSuccess: () => setFormKey((n) => n + 1) },
  );
  return (
    <Card title="New alert policy">
      <form
        key={formKey}
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          create.mutate({
            name: v.name ?? '',
            vm_id: v.vm_id ? Number(v.vm_id) : null,
            metric: (v.metric ?? 'cpu_percent') as Metric,
            comparison: v.comparison === '<' ? '<' : '>',
            threshold: Number(v.threshold),
            aggregation: (v.aggregation ?? 'avg') as Aggregation,
            window_minutes: Number(v.window_minutes),
            notify_email: v.notify_email === 'on',
          });
        }}
      >
        <Input label="Name" name="name" required maxLength={100} placeholder="CPU busy" />
        <Select label="Virtual machine" name="vm_id" placeholder="All my VMs (also new ones)" options={(vms.data ?? []).map((v) => ({ value: v.id, label: v.name }))} />
        <Select label="Metric" name="metric" options={METRICS.map(([value, label]) => ({ value, label }))} />
        <Select
          label="Comparison"
          name="comparison"
          options={[
            { value: '>', label: 'above' },
            { value: '<', label: 'below' },
          ]}
        />
        <Input label="Threshold" name="threshold" type="number" min={0} step={1} required hint="In the metric's unit: percent for CPU, bytes for memory and traffic (1 GB is 1000000000)." />
        <Select label="Over the window" name="aggregation" options={AGGREGATIONS.map(([value, label]) => ({ value, label }))} />
        <Input label="Window (minutes)" name="window_minutes" type="number" min={1} max={1440} step={1} defaultValue={5} required />
        <Checkbox label="Also e-mail me when it fires and resolves" name="notify_email" defaultChecked />
        <ErrorMessage error={create.error} />
        {create.isSuccess ? <p role="status">Policy {create.data.name} created.</p> : null}
        <Button type="submit" busy={create.isPending}>
          Create policy
        </Button>
      </form>
    </Card>
  );
}

function Policies({ writable }: { writable: boolean }) {
  const policies = useQuery({ queryKey: keys.alerts.policies, queryFn: () => get(() => api.GET('/api/compute/alerts/policies', { params: { query: { page: 1, limit: 100 } } })) });
  const vms = useVmChoices();
  const remove = useAction((id: number) => call(() => api.DELETE('/api/compute/alerts/policies/{id}', { params: { path: { id } } })), { invalidate: [keys.alerts.all] });
  const name = (id: number | null) => (id === null ? 'All VMs' : (vms.data?.find((v) => v.id === id)?.name ?? `VM ${id}`));
  return (
    <Card title="Policies">
      <ErrorMessage error={remove.error} />
      <Loaded query={policies}>
        {(rows) => (
          <Table caption="Alert policies" head={['Name', 'VM', 'Condition', 'E-mail', 'Firing', 'Actions']} empty={rows.length === 0}>
            {rows.map((p) => (
              <tr key={p.id}>
                <td>{p.name}</td>
                <td>{name(p.vm_id)}</td>
                <td>{conditionText(p)}</td>
                <td>{p.notify_email ? 'yes' : 'no'}</td>
                <td className="num">{p.open_alerts}</td>
                <td>
                  {writable ? (
                    <ConfirmButton label={`Delete ${p.name}`} confirm="Delete this policy? Its alerts that are firing close without a notice; their history stays." busy={remove.isPending && remove.variables === p.id} onConfirm={() => remove.mutate(p.id)} />
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

/** The incidents' history, newest first. */
function Incidents() {
  const [page, setPage] = useState(1);
  const incidents = useQuery({
    queryKey: keys.alerts.incidents(page),
    queryFn: () => call(() => api.GET('/api/compute/alerts', { params: { query: { page, limit: 20 } } })),
    refetchInterval: 30_000,
  });
  return (
    <Card title="Alert history">
      <Loaded query={incidents}>
        {(r) => (
          <>
            <Table caption="Alerts" head={['Policy', 'VM', 'Condition', 'Status', 'Fired', 'Value', 'Resolved']} empty={r.data.length === 0}>
              {r.data.map((a) => (
                <tr key={a.id}>
                  <td>{a.policy_name}</td>
                  <td>{a.vm_name ? <Link to={`/vms/${a.vm_id}`}>{a.vm_name}</Link> : `VM ${a.vm_id}`}</td>
                  <td>{conditionText(a)}</td>
                  <td>
                    <Status value={a.status === 'firing' ? 'Firing' : 'Resolved'} />
                  </td>
                  <td>{when(a.started_at)}</td>
                  <td className="num">{a.fired_value}</td>
                  <td>{a.resolved_at ? `${when(a.resolved_at)} (${a.resolution?.replace('_', ' ')})` : '—'}</td>
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

/** Metric alerts: the policies, a form for a new one, and what fired. */
export default function Alerts() {
  const can = useMemberCan();
  const writable = can('POST /api/compute/alerts/policies');
  return (
    <Page title="Alerts">
      <p className="muted">A policy watches a metric of one VM or of all your VMs, every minute. It tells you once when it fires and once when it resolves: here, in your notifications, by webhook and, if you like, by e-mail.</p>
      <div className="stack">
        <Policies writable={writable} />
        {writable ? <NewPolicy /> : null}
        <Incidents />
      </div>
    </Page>
  );
}
