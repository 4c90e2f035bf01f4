import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Loaded, money, Notice, Page, Pager, Select, Status, Table, TextArea, useAction, when } from '../ui/kit';
import { keys } from '../api/keys';
import { LocationSelect, useCatalog } from './shared/resources';
import { useOperatingSystems, useSshKeys } from './shared/ssh-keys';
import { VmConnect } from './shared/vm-connect';
import { ResizeTarget, VmResize } from './shared/vm-resize';
import { VmActions } from './shared/vm-actions';
import { VmSnapshots } from './shared/vm-snapshots';
import { VmConsole } from './shared/vm-console';
import { VmBackups } from './shared/vm-backups';
import { MetricGraphs } from '../ui/metric-graphs';
import { VmAlerts } from './shared/vm-alerts';

const TRANSITIONAL = new Set(['Creating', 'Deleting']);
const OS = ['ubuntu-24.04', 'ubuntu-22.04', 'debian-12', 'rocky-9', 'almalinux-9'] as const;
type Os = (typeof OS)[number];

export function useVms(page = 1) {
  return useQuery({
    queryKey: keys.vms.page(page),
    queryFn: () => call(() => api.GET('/api/compute/vm', { params: { query: { page, limit: 20 } } })),
    // the status follows the datacenter's work without a reload
    refetchInterval: (q) => (q.state.data?.data.some((v) => TRANSITIONAL.has(v.status) || v.pending_action) ? 1500 : 10_000),
  });
}

export function VmList() {
  const [page, setPage] = useState(1);
  const vms = useVms(page);
  return (
    <Page title="Virtual machines" actions={<Link className="btn btn-primary" to="/vms/new">Create a VM</Link>}>
      <Loaded query={vms}>
        {(r) => (
          <>
            <Table caption="Virtual machines" head={['Name', 'Status', 'Size', 'OS', 'Public IP', 'Created']} empty={r.data.length === 0}>
              {r.data.map((v) => (
                <tr key={v.id}>
                  <td>
                    <Link to={`/vms/${v.id}`}>{v.name}</Link>
                  </td>
                  <td>
                    <Status value={v.status} />
                  </td>
                  <td>
                    {v.cpu} vCPU · {v.memory_mb / 1024} GB · {v.disk_gb} GB disk
                  </td>
                  <td>{v.os}</td>
                  <td>{v.public_ip ?? '—'}</td>
                  <td>{when(v.created_at)}</td>
                </tr>
              ))}
            </Table>
            <Pager page={page} totalPages={r.meta.total_pages} onPage={setPage} />
          </>
        )}
      </Loaded>
    </Page>
  );
}

export function VmCreate() {
  const navigate = useNavigate();
  const [location, setLocation] = useState('');
  const [tierId, setTierId] = useState('');
  const [draft, setDraft] = useState<{ name: string; os: Os; public_ip: boolean; block_storage_tier_id?: number; block_storage_gb?: number; ssh_key_ids: number[]; user_data?: string }>();
  const sshKeys = useSshKeys();
  const systems = useOperatingSystems();
  const [storageChoice, setStorageChoice] = useState('');
  const confirmRef = useRef<HTMLDivElement>(null);
  // the price to confirm appears below the form: take the person there
  useEffect(() => {
    if (draft) confirmRef.current?.focus();
  }, [draft]);
  const tiers = useCatalog(location);
  const storage = useQuery({
    queryKey: keys.storageTiers(location),
    queryFn: () => get(() => api.GET('/api/compute/block-storage-tiers', { params: { query: { location_id: Number(location) } } })),
    enabled: location !== '',
  });
  const tier = tiers.data?.find((t) => String(t.id) === tierId);
  const storageTier = storage.data?.find((s) => s.id === draft?.block_storage_tier_id);
  const create = useAction((body: NonNullable<typeof draft> & { location_id: number; tier_id: number }) => get(() => api.POST('/api/compute/vm', { body })), {
    invalidate: [keys.vms.all],
    onSuccess: (vm) => navigate(`/vms/${vm.id}`),
  });
  return (
    <Page title="Create a virtual machine">
      <Card title="1. Where and how big">
        <LocationSelect value={location} onChange={(v) => { setLocation(v); setTierId(''); setDraft(undefined); setStorageChoice(''); }} />
        {location ? (
          <Loaded query={tiers}>
            {(list) => (
              <fieldset className="stack">
                <legend>Size</legend>
                {list.length === 0 ? <p className="muted">No sizes are offered in this location.</p> : null}
                {list.some((t) => t.loadbalance_enabled) ? (
                  <p className="muted" id="lb-sizes">
                    Only VMs of the sizes marked “load balancing” can receive traffic from a load balancer.
                  </p>
                ) : list.length > 0 ? (
                  <p className="muted">No size in this location can receive traffic from a load balancer.</p>
                ) : null}
                {list.map((t) => (
                  <div className="check" key={t.id}>
                    <input type="radio" id={`tier-${t.id}`} name="tier" value={t.id} checked={tierId === String(t.id)} onChange={() => { setTierId(String(t.id)); setDraft(undefined); }} />
                    <label htmlFor={`tier-${t.id}`}>
                      <b>{t.name}</b> ({t.tier_type_name}): {t.cpu} vCPU, {t.memory_mb / 1024} GB RAM, {t.disk_gb} GB disk — {money(t.monthly_price)} / month, {money(t.hourly_price)} / hour
                      {t.loadbalance_enabled ? <span className="badge badge-info tag">load balancing</span> : null}
                    </label>
                  </div>
                ))}
              </fieldset>
            )}
          </Loaded>
        ) : null}
      </Card>
      {tier ? (
        <Card title="2. Details">
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              const v = formValues(e.currentTarget);
              setDraft({
                name: v.name ?? '',
                os: (v.os ?? 'ubuntu-24.04') as Os,
                public_ip: v.public_ip === 'on',
                ...(v.block_storage_tier_id ? { block_storage_tier_id: Number(v.block_storage_tier_id), block_storage_gb: Number(v.block_storage_gb ?? 20) } : {}),
                ssh_key_ids: new FormData(e.currentTarget).getAll('ssh_key_ids').map(Number),
                ...(v.user_data ? { user_data: v.user_data } : {}),
              });
            }}
          >
            <Input label="Name" name="name" required maxLength={63} pattern="[a-zA-Z0-9][a-zA-Z0-9.\-]*" hint="Letters, digits, dots and hyphens." />
            <Select label="Operating system" name="os" options={OS.map((o) => { const sys = systems.data?.find((x) => x.id === o); return { value: o, label: sys ? `${sys.name} (log in as ${sys.login_user})` : o }; })} />
            <fieldset className="stack">
              <legend>SSH keys</legend>
              {sshKeys.data?.length === 0 ? <p className="muted">You have no SSH keys yet.</p> : null}
              {(sshKeys.data ?? []).map((k) => (
                <div className="check" key={k.id}>
                  <input type="checkbox" id={`key-${k.id}`} name="ssh_key_ids" value={k.id} defaultChecked={sshKeys.data?.length === 1} />
                  <label htmlFor={`key-${k.id}`}>
                    {k.name} <code className="muted">{k.fingerprint}</code>
                  </label>
                </div>
              ))}
              <p className="muted">
                The VM lets in the keys chosen here. <Link to="/ssh-keys">Add an SSH key</Link>
              </p>
            </fieldset>
            <div className="check">
              <input type="checkbox" id="public-ip" name="public_ip" defaultChecked />
              <label htmlFor="public-ip">Public IP address</label>
            </div>
            {storage.data && storage.data.length > 0 ? (
              <>
                <Select
                  label="Block storage (optional)"
                  name="block_storage_tier_id"
                  placeholder="None"
                  value={storageChoice}
                  onChange={(e) => setStorageChoice(e.target.value)}
                  options={storage.data.map((s) => ({ value: s.id, label: `${s.name} — ${money(s.monthly_price_per_gb)} per GB-month` }))}
                />
                {storageChoice ? <Input label="Block storage size (GB)" name="block_storage_gb" type="number" min={10} max={16384} defaultValue={20} required /> : null}
              </>
            ) : null}
            <details>
              <summary>User data (optional)</summary>
              <TextArea label="Cloud-init user data" name="user_data" rows={8} spellCheck={false} placeholder={'#cloud-config\npackages:\n  - nginx'} />
              <p className="muted">Runs at the first boot: a cloud-config (first line #cloud-config) or a script (first line #!), at most 64 KiB. Your SSH keys above are added to it.</p>
            </details>
            <Button type="submit">Review the price</Button>
          </form>
        </Card>
      ) : null}
      {tier && draft ? (
        <div ref={confirmRef} tabIndex={-1}>
          <Card title="3. Confirm">
            <p>
              <b>{draft.name}</b>: {tier.name}, {draft.os}
              {draft.public_ip ? ', with a public IP' : ''}
              {storageTier && draft.block_storage_gb ? `, ${draft.block_storage_gb} GB ${storageTier.name}` : ''}.
            </p>
            {draft.ssh_key_ids.length === 0 ? (
              <Notice tone="warning">No SSH key chosen: nobody will be able to log in to this VM over SSH.</Notice>
            ) : (
              <p>
                SSH keys: {(sshKeys.data ?? []).filter((k) => draft.ssh_key_ids.includes(k.id)).map((k) => k.name).join(', ')}
                {draft.user_data ? '; with user data' : ''}.
              </p>
            )}
            <p data-testid="price">
              Price: <b>{money(tier.monthly_price)} per month</b> ({money(tier.hourly_price)} per hour, charged hourly while it exists)
              {storageTier && draft.block_storage_gb ? ` plus storage ${money(storageTier.monthly_price_per_gb * draft.block_storage_gb)} per month` : ''}.
            </p>
            <ErrorMessage error={create.error} />
            <div className="row">
              <Button busy={create.isPending} onClick={() => create.mutate({ ...draft, location_id: Number(location), tier_id: tier.id })}>
                Create the VM
              </Button>
              <Button kind="secondary" onClick={() => setDraft(undefined)}>
                Change
              </Button>
            </div>
          </Card>
        </div>
      ) : null}
    </Page>
  );
}

export function VmDetail() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const vm = useQuery({
    queryKey: keys.vms.one(id),
    queryFn: () => get(() => api.GET('/api/compute/vm/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data && (TRANSITIONAL.has(q.state.data.status) || q.state.data.pending_action) ? 1500 : 10_000),
  });
  const groups = useQuery({ queryKey: keys.securityGroups.all, queryFn: () => get(() => api.GET('/api/network/security-group/')) });
  const invalidate = [keys.vms.all];
  const path = { params: { path: { id } } };
  const start = useAction(() => get(() => api.POST('/api/compute/vm/{id}/start', path)), { invalidate });
  const stop = useAction(() => get(() => api.POST('/api/compute/vm/{id}/stop', path)), { invalidate });
  const retry = useAction(() => get(() => api.POST('/api/compute/vm/{id}/retry', path)), { invalidate });
  const remove = useAction(() => call(() => api.DELETE('/api/compute/vm/{id}', path)), { invalidate, onSuccess: () => navigate('/vms') });
  const attach = useAction((uuid: string) => call(() => api.POST('/api/compute/vm/{id}/security-groups', { ...path, body: { security_group_uuid: uuid } })), { invalidate: [keys.securityGroups.all] });
  const busy = start.isPending || stop.isPending || retry.isPending || remove.isPending;
  return (
    <Loaded query={vm}>
      {(v) => (
        <Page title={v.name}>
          <Card>
            <p>
              Status: <Status value={v.status} /> {v.pending_action ? <span className="muted">({v.pending_action} in progress)</span> : null}
            </p>
            {v.error ? <ErrorMessage error={new Error(`The last ${v.error.action} failed: ${v.error.message}`)} /> : null}
            <dl>
              <dt>Size</dt>
              <dd>
                {v.cpu} vCPU, {v.memory_mb / 1024} GB RAM, {v.disk_gb} GB disk
                <ResizeTarget vm={v} />
              </dd>
              <dt>Operating system</dt>
              <dd>{v.os}</dd>
              <dt>Public IP</dt>
              <dd>{v.public_ip ?? '—'}</dd>
              <dt>Block storage</dt>
              <dd>{v.block_storage ? `${v.block_storage.size_gb} GB` : '—'}</dd>
              <dt>Created</dt>
              <dd>{when(v.created_at)}</dd>
            </dl>
            <ErrorMessage error={start.error ?? stop.error ?? retry.error ?? remove.error} />
            <div className="row">
              <Button busy={start.isPending} disabled={busy || v.status !== 'Stopped'} onClick={() => start.mutate(undefined)}>
                Start
              </Button>
              <Button kind="secondary" busy={stop.isPending} disabled={busy || v.status !== 'Running'} onClick={() => stop.mutate(undefined)}>
                Stop
              </Button>
              {v.status === 'Error' ? (
                <Button kind="secondary" busy={retry.isPending} disabled={busy} onClick={() => retry.mutate(undefined)}>
                  Retry
                </Button>
              ) : null}
              <ConfirmButton label="Delete" confirm="Delete this VM and its disk?" busy={remove.isPending} disabled={busy || v.status === 'Deleting' || v.status === 'Deleted'} onConfirm={() => remove.mutate(undefined)} />
            </div>
          </Card>
          <VmConnect vm={v} groups={groups.data ?? []} />
          <VmResize vm={v} />
          <VmActions vm={v} />
          <VmAlerts vm={v} />
          <VmSnapshots vm={v} />
          <VmBackups vm={v} />
          <MetricGraphs
            queryKeys={{ series: (range) => keys.vms.metrics(id, range), traffic: keys.vms.traffic(id) }}
            load={(range) => get(() => api.GET('/api/compute/vm/{id}/metrics', { params: { path: { id }, query: { range } } }))}
            loadTraffic={() => get(() => api.GET('/api/compute/vm/{id}/traffic', path))}
          />
          <VmConsole vm={v} />
          <Card title="Security groups">
            <form
              className="inline"
              onSubmit={(e) => {
                e.preventDefault();
                const uuid = formValues(e.currentTarget).uuid;
                if (uuid) attach.mutate(uuid);
              }}
            >
              <Select label="Attach a security group" name="uuid" placeholder="Choose" options={(groups.data ?? []).filter((g) => g.location_id === v.location_id).map((g) => ({ value: g.uuid, label: g.name }))} />
              <Button type="submit" busy={attach.isPending}>
                Attach
              </Button>
            </form>
            {attach.isSuccess ? <p role="status">Attached.</p> : null}
            <ErrorMessage error={attach.error} />
            <p className="muted">
              Rules and detaching: <Link to="/security-groups">Security groups</Link>.
            </p>
          </Card>
        </Page>
      )}
    </Loaded>
  );
}
