import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, Page, Select, Status, Table, useAction, when } from '../ui/kit';
import { LocationSelect, useVmChoices } from './shared/resources';
import { keys } from '../api/keys';

const DIRECTIONS = [
  { value: 'ingress', label: 'Inbound' },
  { value: 'egress', label: 'Outbound' },
];
const directionLabel = (d: string) => DIRECTIONS.find((x) => x.value === d)?.label ?? d;

function useRuleTypes() {
  return useQuery({ queryKey: keys.ruleTypes, queryFn: () => get(() => api.GET('/api/network/security-group/rule-types')), staleTime: 600_000 });
}
type RuleType = NonNullable<ReturnType<typeof useRuleTypes>['data']>[number];
const hasPorts = (t: RuleType | undefined) => t?.protocol === 'tcp' || t?.protocol === 'udp';
/** "SSH (TCP 22)", "DNS (UDP 53)", "ICMP", "All traffic". */
const typeLabel = (t: RuleType) => (hasPorts(t) ? `${t.name} (${t.protocol.toUpperCase()}${t.default_port ? ` ${t.default_port}` : ''})` : t.name);

interface RuleInput {
  direction: 'ingress' | 'egress';
  rule_type_id: number;
  remote_cidr: string;
  port_from?: number;
  port_to?: number;
}

/** The new rule's form: choosing a type fills in the port it is known for; a type without ports shows none. */
function RuleForm({ types, busy, onAdd }: { types: RuleType[]; busy: boolean; onAdd: (r: RuleInput) => void }) {
  const [typeId, setTypeId] = useState(String(types[0]?.id ?? ''));
  const type = types.find((t) => String(t.id) === typeId);
  const [ports, setPorts] = useState({ from: String(types[0]?.default_port ?? ''), to: '' });
  const choose = (id: string) => {
    setTypeId(id);
    const port = types.find((t) => String(t.id) === id)?.default_port;
    setPorts({ from: port ? String(port) : '', to: '' });
  };
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        const v = formValues(e.currentTarget);
        onAdd({
          direction: v.direction === 'egress' ? 'egress' : 'ingress',
          rule_type_id: Number(typeId),
          remote_cidr: v.remote_cidr ?? '0.0.0.0/0',
          ...(hasPorts(type) && ports.from ? { port_from: Number(ports.from) } : {}),
          ...(hasPorts(type) && ports.to ? { port_to: Number(ports.to) } : {}),
        });
      }}
    >
      <Select label="Direction" name="direction" options={DIRECTIONS} />
      <Select label="Type" name="rule_type_id" value={typeId} onChange={(e) => choose(e.target.value)} options={types.map((t) => ({ value: t.id, label: typeLabel(t) }))} />
      {hasPorts(type) ? (
        <>
          <Input label="Port from" name="port_from" type="number" min={1} max={65535} required value={ports.from} onChange={(e) => setPorts({ ...ports, from: e.target.value })} />
          <Input label="Port to (optional)" name="port_to" type="number" min={1} max={65535} value={ports.to} onChange={(e) => setPorts({ ...ports, to: e.target.value })} />
        </>
      ) : (
        <p className="muted">{type?.protocol === 'icmp' ? 'ICMP has no ports.' : 'Every protocol and port.'}</p>
      )}
      <Input label="Remote CIDR" name="remote_cidr" defaultValue="0.0.0.0/0" required />
      <Button type="submit" busy={busy}>
        Add rule
      </Button>
    </form>
  );
}

function GroupList() {
  const groups = useQuery({ queryKey: keys.securityGroups.all, queryFn: () => get(() => api.GET('/api/network/security-group/')) });
  const navigate = useNavigate();
  const create = useAction((body: { name: string; location_id: number; description?: string }) => get(() => api.POST('/api/network/security-group/', { body })), {
    invalidate: [keys.securityGroups.all],
    onSuccess: (g) => navigate(`/security-groups/${g.uuid}`),
  });
  return (
    <Page title="Security groups">
      <Loaded query={groups}>
        {(rows) => (
          <Table caption="Security groups" head={['Name', 'Rules', 'VMs', 'Applied', 'Created']} empty={rows.length === 0}>
            {rows.map((g) => (
              <tr key={g.uuid}>
                <td>
                  <Link to={`/security-groups/${g.uuid}`}>{g.name}</Link>
                </td>
                <td>{g.rules.length}</td>
                <td>{g.vm_ids.length}</td>
                <td>
                  <Status value={g.synced ? 'Active' : 'Pending'} />
                </td>
                <td>{when(g.created_at)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      <Card title="New security group">
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            const v = formValues(e.currentTarget);
            create.mutate({ name: v.name ?? '', location_id: Number(v.location_id), ...(v.description ? { description: v.description } : {}) });
          }}
        >
          <Input label="Name" name="name" required />
          <LocationSelect />
          <Input label="Description (optional)" name="description" />
          <ErrorMessage error={create.error} />
          <Button type="submit" busy={create.isPending}>
            Create
          </Button>
        </form>
      </Card>
    </Page>
  );
}

function GroupDetail() {
  const uuid = useParams().uuid ?? '';
  const navigate = useNavigate();
  const path = { params: { path: { uuid } } };
  const group = useQuery({ queryKey: keys.securityGroups.one(uuid), queryFn: () => get(() => api.GET('/api/network/security-group/{uuid}', path)), refetchInterval: (q) => (q.state.data && !q.state.data.synced ? 1500 : false) });
  const types = useRuleTypes();
  const vms = useVmChoices();
  const invalidate = [keys.securityGroups.all];
  const addRule = useAction((body: RuleInput) => get(() => api.POST('/api/network/security-group/{uuid}/rules', { ...path, body })), { invalidate });
  const removeRule = useAction((rule_id: number) => call(() => api.DELETE('/api/network/security-group/{uuid}/rules/{rule_id}', { params: { path: { uuid, rule_id } } })), { invalidate });
  const detach = useAction((id: number) => call(() => api.DELETE('/api/compute/vm/{id}/security-groups/{uuid}', { params: { path: { id, uuid } } })), { invalidate });
  const attach = useAction((id: number) => call(() => api.POST('/api/compute/vm/{id}/security-groups', { params: { path: { id } }, body: { security_group_uuid: uuid } })), { invalidate });
  const remove = useAction(() => call(() => api.DELETE('/api/network/security-group/{uuid}', path)), { invalidate, onSuccess: () => navigate('/security-groups') });
  const vmName = (id: number) => vms.data?.find((v) => v.id === id)?.name ?? `VM ${id}`;
  return (
    <Loaded query={group}>
      {(g) => (
        <Page title={g.name} actions={<ConfirmButton label="Delete" confirm="Delete this security group?" busy={remove.isPending} onConfirm={() => remove.mutate(undefined)} />}>
          <p>
            {g.description} <Status value={g.synced ? 'Active' : 'Pending'} />
          </p>
          <ErrorMessage error={remove.error ?? removeRule.error ?? detach.error ?? attach.error} />
          <Card title="Rules">
            <Table caption="Rules" head={['Direction', 'Protocol', 'Ports', 'Remote', '']} empty={g.rules.length === 0}>
              {g.rules.map((r) => (
                <tr key={r.id}>
                  <td>{directionLabel(r.direction)}</td>
                  <td>{types.data?.find((t) => t.id === r.rule_type_id)?.name ?? r.protocol}</td>
                  <td>{r.port_from === null ? 'all' : r.port_from === r.port_to ? r.port_from : `${r.port_from}–${r.port_to}`}</td>
                  <td>{r.remote_cidr}</td>
                  <td>
                    <Button kind="secondary" busy={removeRule.isPending && removeRule.variables === r.id} onClick={() => removeRule.mutate(r.id)}>
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </Table>
            <Loaded query={types}>{(list) => <RuleForm types={list} busy={addRule.isPending} onAdd={(r) => addRule.mutate(r)} />}</Loaded>
            <ErrorMessage error={addRule.error} />
          </Card>
          <Card title="Virtual machines">
            <ul>
              {g.vm_ids.map((id) => (
                <li key={id} className="row">
                  {vmName(id)}
                  <Button kind="link" onClick={() => detach.mutate(id)}>
                    Detach
                  </Button>
                </li>
              ))}
            </ul>
            <form
              className="inline"
              onSubmit={(e) => {
                e.preventDefault();
                const id = formValues(e.currentTarget).vm;
                if (id) attach.mutate(Number(id));
              }}
            >
              <Select label="Attach a VM" name="vm" placeholder="Choose" options={(vms.data ?? []).filter((v) => v.location_id === g.location_id && !g.vm_ids.includes(v.id)).map((v) => ({ value: v.id, label: v.name }))} />
              <Button type="submit" busy={attach.isPending}>
                Attach
              </Button>
            </form>
          </Card>
        </Page>
      )}
    </Loaded>
  );
}

export default function SecurityGroups() {
  return (
    <Routes>
      <Route index element={<GroupList />} />
      <Route path=":uuid" element={<GroupDetail />} />
    </Routes>
  );
}
