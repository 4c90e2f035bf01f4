import { Type, type Static } from 'typebox';
import { IntId, Money, MoneyAmount } from '../../platform/http/schemas.js';

const Month = Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM, a calendar month of the platform time zone' });
const TimeZone = Type.String({ description: 'IANA zone of the months (PLATFORM_TIME_ZONE)' });

export const CustomerInsight = Type.Object({
  registered_customers: Type.Integer({ description: 'every customer account' }),
  active_customers: Type.Integer({ description: 'accounts with is_active' }),
  total_active_wallet_balance: MoneyAmount({ description: 'Σ current_balance (spendable: real money plus bonus credit) of active customers' }),
  total_active_wallet_actual_balance: MoneyAmount({ description: 'Σ actual_balance (real money) of active customers' }),
  active_vms: Type.Integer({ description: 'VMs in status Running' }),
  total_vms: Type.Integer({ description: 'VMs that exist (any status but Deleted)' }),
  customers_deposited_this_month: Type.Integer({ description: 'distinct customers with a top-up credited (BalanceLogAdd) in the current month' }),
  month: Month,
  time_zone: TimeZone,
  currency: Type.String(),
});

const TrendMonth = Type.Object({ month: Month, total: Money, count: Type.Integer() });
const SourceTotal = Type.Object({
  source: Type.String({ description: 'topup (paid top-up invoices); later also postpaid' }),
  total: Money,
  count: Type.Integer(),
});

export const MoneyTrend = Type.Object({
  currency: Type.String(),
  time_zone: TimeZone,
  total: MoneyAmount({ description: 'all time' }),
  count: Type.Integer({ description: 'all time' }),
  last_12_months_total: Money,
  last_12_months_count: Type.Integer(),
  this_month_total: Money,
  this_month_count: Type.Integer(),
  sources: Type.Array(SourceTotal, { description: 'all-time totals per source' }),
  trend: Type.Array(TrendMonth, { description: 'the last 12 months, oldest first, ending with the current month; a month without money is 0' }),
});

export const RevenueTrend = Type.Object({
  ...MoneyTrend.properties,
  gateway_fees: Type.Object(
    {
      total: MoneyAmount({ description: 'all time' }),
      count: Type.Integer({ description: 'paid invoices that carried a fee, all time' }),
      last_12_months_total: Money,
      this_month_total: Money,
      trend: Type.Array(TrendMonth, { description: 'the same 12 months as the revenue trend' }),
    },
    { description: 'the payment fees customers paid on top of their invoices: collected for the payment methods, not revenue' },
  ),
});

export const VmDistributionQuery = Type.Object({
  location_id: Type.Optional(IntId),
  group_by: Type.Optional(Type.Union([Type.Literal('ram'), Type.Literal('cpu'), Type.Literal('os')], { description: 'default ram' })),
});
export type VmDistributionQuery = Static<typeof VmDistributionQuery>;

export const VmDistribution = Type.Object({
  group_by: Type.Union([Type.Literal('ram'), Type.Literal('cpu'), Type.Literal('os')]),
  location_id: Type.Union([Type.Integer(), Type.Null()]),
  total: Type.Integer({ description: 'VMs counted (any status but Deleted)' }),
  items: Type.Array(
    Type.Object({
      key: Type.String({ description: 'memory in MB, vCPU count, or OS image' }),
      label: Type.String(),
      count: Type.Integer(),
    }),
  ),
});

const Occupation = {
  total: Type.Integer({ description: 'addresses in the pool' }),
  rented: Type.Integer({ description: 'addresses held by VMs' }),
  available: Type.Integer(),
  occupation_percent: Type.Number({ description: 'rented / total × 100, 2 decimals' }),
};

export const IpOccupation = Type.Object({
  ...Occupation,
  locations: Type.Array(Type.Object({ location_id: Type.Integer(), location_code: Type.String(), location_name: Type.String(), ...Occupation })),
});
