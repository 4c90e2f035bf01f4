import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, get } from '../api/client';
import { BarChart } from '../ui/chart';
import { Card, Loaded, money, Page, Select } from '../ui/kit';
import { keys } from '../api/keys';

const monthLabel = (m: string) => new Date(`${m.slice(0, 7)}-01T00:00:00Z`).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' });

export default function Dashboard() {
  const [groupBy, setGroupBy] = useState<'ram' | 'cpu' | 'os'>('cpu');
  const insight = useQuery({ queryKey: keys.staff.dashboard.insight, queryFn: () => get(() => api.GET('/api/backoffice/dashboard/customer/insight')) });
  const revenue = useQuery({ queryKey: keys.staff.dashboard.revenue, queryFn: () => get(() => api.GET('/api/backoffice/dashboard/billing/revenue')) });
  const deposit = useQuery({ queryKey: keys.staff.dashboard.deposit, queryFn: () => get(() => api.GET('/api/backoffice/dashboard/billing/deposit')) });
  const vms = useQuery({ queryKey: keys.staff.dashboard.vms(groupBy), queryFn: () => get(() => api.GET('/api/backoffice/dashboard/hv/total-vm', { params: { query: { group_by: groupBy } } })) });
  const ips = useQuery({ queryKey: keys.staff.dashboard.ips, queryFn: () => get(() => api.GET('/api/backoffice/dashboard/hv/ip-occupation')) });
  return (
    <Page title="Dashboard">
      <Loaded query={insight}>
        {(i) => (
          <div className="grid">
            <Card title="Customers">
              <p className="stat">{i.registered_customers}</p>
              <p className="muted">{i.active_customers} active · {i.customers_deposited_this_month} deposited in {i.month}</p>
            </Card>
            <Card title="Wallets">
              <p className="stat">{money(i.total_active_wallet_balance, i.currency)}</p>
              <p className="muted">real money {money(i.total_active_wallet_actual_balance, i.currency)}</p>
            </Card>
            <Card title="Virtual machines">
              <p className="stat">{i.active_vms}</p>
              <p className="muted">running of {i.total_vms}</p>
            </Card>
          </div>
        )}
      </Loaded>
      <div className="grid">
        <Card title="Revenue">
          <Loaded query={revenue}>
            {(r) => (
              <>
                <p data-testid="revenue-this-month">
                  Earned this month <b>{money(r.this_month_total, r.currency)}</b> · last 12 months {money(r.last_12_months_total, r.currency)}
                </p>
                <p className="muted" data-testid="gateway-fees-this-month">
                  Payment fees collected for the payment methods, not revenue: {money(r.gateway_fees.this_month_total, r.currency)} this month · {money(r.gateway_fees.last_12_months_total, r.currency)} in 12 months
                </p>
                <BarChart title="Earned on paid invoices per month" bars={r.trend.map((t) => ({ label: monthLabel(t.month), value: t.total }))} format={(n) => money(n, r.currency)} />
              </>
            )}
          </Loaded>
        </Card>
        <Card title="Deposits">
          <Loaded query={deposit}>
            {(r) => (
              <>
                <p>
                  This month <b>{money(r.this_month_total, r.currency)}</b> in {r.this_month_count} deposits
                </p>
                <BarChart title="Deposits per month" bars={r.trend.map((t) => ({ label: monthLabel(t.month), value: t.total }))} format={(n) => money(n, r.currency)} />
              </>
            )}
          </Loaded>
        </Card>
      </div>
      <div className="grid">
        <Card title="VM packages">
          <Select label="Group by" value={groupBy} onChange={(e) => setGroupBy(e.target.value as 'cpu')} options={[{ value: 'cpu', label: 'vCPUs' }, { value: 'ram', label: 'Memory' }, { value: 'os', label: 'Operating system' }]} />
          <Loaded query={vms}>{(v) => <BarChart title={`VMs by ${v.group_by} (${v.total} in all)`} bars={v.items.map((x) => ({ label: x.label, value: x.count }))} />}</Loaded>
        </Card>
        <Card title="Public IPs">
          <Loaded query={ips}>
            {(p) => (
              <>
                <p>
                  <b>{p.rented}</b> rented of {p.total} ({p.occupation_percent}%)
                </p>
                <BarChart title="Public IPs rented per location" bars={p.locations.map((l) => ({ label: l.location_code, value: l.rented }))} />
              </>
            )}
          </Loaded>
        </Card>
      </div>
    </Page>
  );
}
