import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, Route, Routes, useParams } from 'react-router';
import { api, call, get } from '../api/client';
import { Button, Card, Checkbox, ConfirmButton, ErrorMessage, formValues, Input, Loaded, money, Notice, Page, Pager, Select, Status, Table, useAction, when } from '../ui/kit';
import { deviceName } from '../ui/device';
import { useCan } from './access';
import { CustomerResources, CustomerTickets } from './shared/customer-activity';
import { keys } from '../api/keys';

const LIMITS = [
  ['vm_limit', 'Most VMs'],
  ['public_ip_limit', 'Most public IPs'],
  ['private_ip_limit', 'Most private IPs'],
  ['block_storage_limit', 'Most block storage volumes'],
  ['object_storage_limit', 'Most buckets'],
  ['loadbalancer_limit', 'Most load balancers'],
] as const;

function CustomerList() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const customers = useQuery({
    queryKey: keys.staff.customers(page, search),
    queryFn: () => call(() => api.GET('/api/backoffice/customer', { params: { query: { page, limit: 20, ...(search ? { search } : {}) } } })),
  });
  return (
    <Page title="Customers">
      <form
        className="inline"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(formValues(e.currentTarget).search ?? '');
          setPage(1);
        }}
      >
        <Input label="Search by name or e-mail" name="search" type="search" defaultValue={search} />
        <Button type="submit" busy={customers.isFetching}>
          Search
        </Button>
      </form>
      <Loaded query={customers}>
        {(r) => (
          <>
            <Table caption="Customers" head={['Name', 'E-mail', 'Billing', 'Status', 'Registered']} empty={r.data.length === 0}>
              {r.data.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link to={`/backoffice/customers/${c.id}`}>{c.full_name}</Link>
                  </td>
                  <td>{c.email}</td>
                  <td>{c.billing_type}</td>
                  <td>
                    <Status value={c.suspended_at ? 'Suspended' : c.is_active ? 'Active' : 'Inactive'} />
                  </td>
                  <td>{when(c.created_at)}</td>
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

function BalanceAdjustment({ id }: { id: number }) {
  const adjust = useAction(
    (body: { type: 'ADD' | 'DEDUCT'; amount: number; description: string }) =>
      get(() => api.POST('/api/backoffice/customer/{customer_id}/balance', { params: { path: { customer_id: id }, header: { 'idempotency-key': crypto.randomUUID() } }, body })),
    { invalidate: [keys.staff.customer(id), keys.staff.creditHistory.all(id)] },
  );
  return (
    <Card title="Adjust the balance">
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          const v = formValues(e.currentTarget);
          adjust.mutate({ type: v.type === 'DEDUCT' ? 'DEDUCT' : 'ADD', amount: Number(v.amount), description: v.description ?? '' });
        }}
      >
        <Select label="Type" name="type" options={[{ value: 'ADD', label: 'Add' }, { value: 'DEDUCT', label: 'Deduct' }]} />
        <Input label="Amount" name="amount" type="number" min="0.01" step="0.01" required />
        <Input label="Reason" name="description" required maxLength={500} hint="Kept in the ledger and the audit log." />
        <ErrorMessage error={adjust.error} />
        {adjust.data ? <Notice tone="success">New balance {money(adjust.data.current_balance)}.</Notice> : null}
        <Button type="submit" busy={adjust.isPending}>
          Apply the adjustment
        </Button>
      </form>
    </Card>
  );
}

function Sessions({ id, maxSession }: { id: number; maxSession: number }) {
  const can = useCan();
  const sessions = useQuery({ queryKey: keys.staff.customerSessions(id), queryFn: () => get(() => api.GET('/api/backoffice/customer/{id}/device-sessions', { params: { path: { id } } })) });
  const revoke = useAction((sid: string) => call(() => api.DELETE('/api/backoffice/customer/{id}/device-sessions/{sid}', { params: { path: { id, sid } } })), { invalidate: [keys.staff.customerSessions(id)] });
  const limit = useAction((max_session: number) => get(() => api.PATCH('/api/backoffice/auth/device-session/update', { body: { customer_id: id, max_session } })), { invalidate: [keys.staff.customer(id), keys.staff.customerSessions(id)] });
  const manage = can('DELETE /api/backoffice/customer/{id}/device-sessions/{sid}');
  return (
    <Card title="Device sessions">
      <ErrorMessage error={revoke.error ?? limit.error} />
      <Loaded query={sessions}>
        {(rows) => (
          <Table caption="Device sessions" head={['Device', 'IP', 'Opened', 'Last access', '']} empty={rows.length === 0}>
            {rows.map((s) => (
              <tr key={s.id}>
                <td>
                  <span title={s.user_agent ?? undefined}>{deviceName(s.user_agent)}</span> {s.impersonated ? <Status value="Impersonation" /> : null}
                </td>
                <td>{s.ip ?? '—'}</td>
                <td>{when(s.created_at)}</td>
                <td>{when(s.last_access_at)}</td>
                <td>{manage ? <ConfirmButton label="Revoke" confirm="Log this device out?" busy={revoke.isPending && revoke.variables === s.id} onConfirm={() => revoke.mutate(s.id)} /> : null}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
      {manage ? (
        <div className="row">
          <ConfirmButton label="Revoke all" confirm="Log every device out?" busy={revoke.isPending && revoke.variables === 'all'} onConfirm={() => revoke.mutate('all')} />
        </div>
      ) : null}
      {can('PATCH /api/backoffice/auth/device-session/update') ? (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            limit.mutate(Number(formValues(e.currentTarget).max_session));
          }}
        >
          <Input label="Most sessions at once" name="max_session" type="number" min={1} max={100} defaultValue={maxSession} required />
          <Button type="submit" busy={limit.isPending}>
            Save
          </Button>
          {limit.data ? <span role="status">Saved; {limit.data.sessions_revoked} session(s) ended.</span> : null}
        </form>
      ) : null}
    </Card>
  );
}

/** Ledger entry types as staff read them; the API keeps its codes. */
const ENTRY_TYPES: Record<string, string> = {
  BalanceLogAdd: 'Top-up',
  BalanceLogBonus: 'Bonus credit',
  BalanceLogAdjustAdd: 'Manual credit',
  BalanceLogAdjustDeduct: 'Manual deduction',
  BalanceLogCharge: 'Usage charge',
};

function CreditHistory({ id }: { id: number }) {
  const [page, setPage] = useState(1);
  const history = useQuery({ queryKey: keys.staff.creditHistory.page(id, page), queryFn: () => call(() => api.GET('/api/backoffice/customer/{customer_id}/credit-history', { params: { path: { customer_id: id }, query: { page, limit: 10 } } })) });
  return (
    <Card title="Credit history">
      <Loaded query={history}>
        {(r) => (
          <>
            <Table caption="Credit history" head={['When', 'Type', 'Amount', 'Balance after', 'Description']} empty={r.data.length === 0}>
              {r.data.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.created_at)}</td>
                  <td>{ENTRY_TYPES[e.type] ?? e.type}</td>
                  <td className="num">{money(e.amount)}</td>
                  <td className="num">{money(e.current_balance_after)}</td>
                  <td>{e.description}</td>
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

/** Who may act on this customer's account, and the other accounts the customer belongs to. */
function Members({ id }: { id: number }) {
  const team = useQuery({ queryKey: keys.staff.customerMembers(id), queryFn: () => get(() => api.GET('/api/backoffice/customer/{id}/members', { params: { path: { id } } })) });
  return (
    <Card title="Team members">
      <Loaded query={team}>
        {(t) => (
          <>
            <Table caption="Team members" head={['Member', 'Role', '2FA', 'Joined']}>
              {t.members.map((m) => (
                <tr key={m.customer_id}>
                  <td>
                    <Link to={`/backoffice/customers/${m.customer_id}`}>{m.email}</Link>
                  </td>
                  <td>{m.role.replace('_', '-')}</td>
                  <td>{m.two_factor_enabled ? 'on' : 'off'}</td>
                  <td>{when(m.joined_at)}</td>
                </tr>
              ))}
            </Table>
            {t.closed_at ? <p role="status">Account closed by its owner on {when(t.closed_at)}: nobody can act on it any more.</p> : null}
            {t.require_2fa ? <p className="muted">Every member must use two-factor authentication.</p> : null}
            {t.memberships.length > 0 ? (
              <p>
                Also a member of:{' '}
                {t.memberships.map((a, i) => (
                  <span key={a.account_id}>
                    {i > 0 ? ', ' : ''}
                    <Link to={`/backoffice/customers/${a.account_id}`}>{a.email}</Link> ({a.role.replace('_', '-')})
                  </span>
                ))}
              </p>
            ) : null}
          </>
        )}
      </Loaded>
    </Card>
  );
}

function CustomerDetail() {
  const id = Number(useParams().id);
  const can = useCan();
  const customer = useQuery({ queryKey: keys.staff.customer(id), queryFn: () => get(() => api.GET('/api/backoffice/customer/{id}', { params: { path: { id } } })) });
  const impersonate = useAction(() => get(() => api.POST('/api/backoffice/customer/{id}/impersonate', { params: { path: { id } } })), {
    // the customer session is a cookie of this origin: the customer console opens in a new tab, marked as impersonation
    onSuccess: () => window.open('/', '_blank', 'noopener'),
  });
  const disable2fa = useAction((reason: string) => get(() => api.PATCH('/api/backoffice/2fa/force-disable', { body: { customer_id: id, reason } })), { invalidate: [keys.staff.customer(id)] });
  const update = useAction(
    (body: { billing_type?: 'PREPAID' | 'POSTPAID'; is_active?: boolean; is_identity_verified?: boolean } & Partial<Record<(typeof LIMITS)[number][0], number>>) =>
      get(() => api.PATCH('/api/backoffice/customer/{id}', { params: { path: { id } }, body })),
    { invalidate: [keys.staff.customer(id)] },
  );
  return (
    <Loaded query={customer}>
      {(c) => (
        <Page
          title={c.full_name}
          actions={
            can('POST /api/backoffice/customer/{id}/impersonate') ? (
              <Button kind="secondary" busy={impersonate.isPending} onClick={() => impersonate.mutate(undefined)}>
                Impersonate
              </Button>
            ) : null
          }
        >
          {impersonate.data ? <Notice tone="warning">Impersonation started in a new tab, until {when(impersonate.data.expires_at)}. The customer console shows a banner while it lasts, and every action is audited.</Notice> : null}
          <ErrorMessage error={impersonate.error} />
          <div className="grid">
            <Card title="Balance">
              <p className="stat" data-testid="customer-balance">{money(c.current_balance)}</p>
              <p className="muted">Real money {money(c.actual_balance)}</p>
            </Card>
            <Card title="Account">
              <p>
                {c.email} · {c.account_type_description} · {c.billing_type}
              </p>
              <p>
                <Status value={c.suspended_at ? 'Suspended' : c.is_active ? 'Active' : 'Inactive'} /> 2FA {c.is_2fa_active ? 'on' : 'off'} · registered {when(c.created_at)}
              </p>
            </Card>
          </div>
          {can('POST /api/backoffice/customer/{customer_id}/balance') ? <BalanceAdjustment id={id} /> : null}
          {can('PATCH /api/backoffice/customer/{id}') ? (
            <Card title="Account settings">
              <form
                className="form"
                onSubmit={(e) => {
                  e.preventDefault();
                  const v = formValues(e.currentTarget);
                  update.mutate({
                    billing_type: v.billing_type === 'POSTPAID' ? 'POSTPAID' : 'PREPAID',
                    is_active: v.is_active === 'on',
                    is_identity_verified: v.is_identity_verified === 'on',
                    ...Object.fromEntries(LIMITS.map(([k]) => [k, Number(v[k])])),
                  });
                }}
              >
                <Select label="Billing" name="billing_type" defaultValue={c.billing_type} options={[{ value: 'PREPAID', label: 'Prepaid' }, { value: 'POSTPAID', label: 'Postpaid' }]} />
                <Checkbox label="Active" name="is_active" defaultChecked={c.is_active} />
                <Checkbox label="Identity verified" name="is_identity_verified" defaultChecked={c.is_identity_verified} />
                {LIMITS.map(([k, label]) => (
                  <Input key={k} label={label} name={k} type="number" min={0} defaultValue={c[k]} />
                ))}
                <ErrorMessage error={update.error} />
                {update.isSuccess ? <p role="status">Saved.</p> : null}
                <Button type="submit" busy={update.isPending}>
                  Save
                </Button>
              </form>
            </Card>
          ) : null}
          {c.is_2fa_active && can('PATCH /api/backoffice/2fa/force-disable') ? (
            <Card title="Turn off two-factor authentication">
              <form
                className="form"
                onSubmit={(e) => {
                  e.preventDefault();
                  disable2fa.mutate(formValues(e.currentTarget).reason ?? '');
                }}
              >
                <Input label="Reason (sent to the customer and kept in the audit log)" name="reason" required />
                <ErrorMessage error={disable2fa.error} />
                <Button type="submit" kind="danger" busy={disable2fa.isPending}>
                  Force-disable 2FA
                </Button>
              </form>
            </Card>
          ) : null}
          <CustomerResources id={id} />
          {can('GET /api/backoffice/ticket/') ? <CustomerTickets id={id} /> : null}
          {can('GET /api/backoffice/customer/{id}/members') ? <Members id={id} /> : null}
          {can('GET /api/backoffice/customer/{id}/device-sessions') ? <Sessions id={id} maxSession={c.max_session} /> : null}
          {can('GET /api/backoffice/customer/{customer_id}/credit-history') ? <CreditHistory id={id} /> : null}
        </Page>
      )}
    </Loaded>
  );
}

export default function Customers() {
  return (
    <Routes>
      <Route index element={<CustomerList />} />
      <Route path=":id" element={<CustomerDetail />} />
    </Routes>
  );
}
