import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, get } from '../api/client';
import { Card, Loaded, money, Notice, Page, Status, Table, when } from '../ui/kit';
import { useMe } from './shared/me';
import { keys } from '../api/keys';
import { ChargedHours } from './shared/charged-hours';
import { useCurrentAccount, useMemberCan } from './shared/accounts';

export function useUsage(enabled = true) {
  return useQuery({ queryKey: keys.usage, queryFn: () => get(() => api.GET('/api/billing/usage')), refetchInterval: 60_000, refetchOnMount: 'always', enabled });
}

function runway(hours: number | null): string {
  if (hours === null) return 'No running charges';
  if (hours < 48) return `${hours.toFixed(1)} hours`;
  return `${(hours / 24).toFixed(1)} days`;
}

export function Home() {
  const can = useMemberCan();
  const current = useCurrentAccount();
  if (!can('GET /api/billing/usage')) {
    // a member whose role has no money: no balance, usage or invoices
    return (
      <Page title="Home">
        <p>
          You work in the account of {current?.name || current?.email} as {current?.role.replace('_', '-')}. Use the menu to reach what your role allows.
        </p>
      </Page>
    );
  }
  return <MoneyHome />;
}

function MoneyHome() {
  const me = useMe(true);
  const usage = useUsage();
  const highlight = useQuery({ queryKey: keys.highlight, queryFn: () => get(() => api.GET('/api/announcements/highlight')) });
  const postpaid = me.data?.billing_type === 'POSTPAID';
  const unpaid = useQuery({ queryKey: keys.postpaid.unpaid, queryFn: () => get(() => api.GET('/api/billing/postpaid/invoices/unpaid')), enabled: postpaid });
  const u = usage.data;
  return (
    <Page title="Home" actions={<Link to="/billing" className="btn btn-primary">Top up</Link>}>
      {highlight.data ? (
        <Notice>
          <strong>{highlight.data.title}</strong> — {highlight.data.message} <Link to="/news">All news</Link>
        </Notice>
      ) : null}
      {me.data?.suspended_at ? <Notice tone="warning">Your resources are suspended since {when(me.data.suspended_at)}: {me.data.suspend_reason}. Top up to resume them.</Notice> : null}
      <div className="grid">
        <Card title="Balance">
          <p className="stat" data-testid="balance">{money(me.data?.current_balance)}</p>
          <p className="muted">Real money {money(me.data?.actual_balance)}, the rest is bonus credit.</p>
        </Card>
        <Card title="Hourly burn">
          <p className="stat" data-testid="burn">{u ? money(u.hourly_burn) : '…'}</p>
          <p className="muted">Month to date {u ? money(u.month_to_date) : '…'}</p>
        </Card>
        <Card title="Runway">
          <p className="stat">{u ? runway(u.runway_hours) : '…'}</p>
          {u && u.runway_hours !== null && u.runway_hours < u.runway_warning_hours ? <p className="muted">Top up soon: your balance runs out in under {u.runway_warning_hours} hours.</p> : <p className="muted">At today's prices.</p>}
        </Card>
      </div>
      <Card title="Running resources">
        <Loaded query={usage}>
          {(data) => (
            <Table caption="Running resources" head={['Resource', 'Quantity', 'Per hour', 'Since']} empty={data.running.length === 0}>
              {data.running.map((r) => (
                <tr key={`${r.resource_type}-${r.resource_id}-${r.description}`}>
                  <td className="break">{r.description}</td>
                  <td className="num">{r.quantity}</td>
                  <td className="num">{money(r.hourly_cost)}</td>
                  <td>{when(r.started_at)}</td>
                </tr>
              ))}
            </Table>
          )}
        </Loaded>
      </Card>
      <ChargedHours />
      {postpaid ? (
        <Card title="Unpaid invoices">
          <Loaded query={unpaid}>
            {(rows) => (
              <Table caption="Unpaid invoices" head={['Number', 'Due', 'Amount due', 'Status']} empty={rows.length === 0}>
                {rows.map((i) => (
                  <tr key={i.invoice_id}>
                    <td>
                      <Link to="/billing?tab=postpaid">{i.number}</Link>
                    </td>
                    <td>{when(i.due_at)}</td>
                    <td className="num">{money(i.amount_due, i.currency)}</td>
                    <td>
                      <Status value={i.status} />
                    </td>
                  </tr>
                ))}
              </Table>
            )}
          </Loaded>
        </Card>
      ) : null}
    </Page>
  );
}
