import type { PageRequest, Page } from '../platform/http/pagination.js';
import type { AccountHoldings, ClosureBlocker } from '../modules/members/index.js';

/** The modules that hold what an account must give up or settle before it is closed. */
export interface AccountHoldingsSources {
  compute: { usageOf(customerId: number): Promise<{ vms: number }> };
  networks: { list(customerId: number): Promise<unknown[]> };
  loadBalancers: { list(customerId: number, p: PageRequest): Promise<Page<unknown>> };
  objectStorage: { listBuckets(customerId: number, p: PageRequest): Promise<Page<unknown>>; listKeys(customerId: number, p: PageRequest): Promise<Page<unknown>> };
  snapshots: { list(customerId: number | undefined, filter: { customerId?: number }, p: PageRequest): Promise<Page<unknown>> };
  wallet: { balancesOf(customerId: number): Promise<{ actual_balance: string; current_balance: string }> };
  postpaid: { summary(customerId: number): Promise<{ unpaid_count: number; total_unpaid: number | string; current_period_accrued: number | string }> };
}

const ONE: PageRequest = { page: 1, limit: 1 };
const negative = (amount: string | number) => String(amount).trim().startsWith('-');
const positive = (amount: string | number) => !negative(amount) && /[1-9]/.test(String(amount));

/**
 * What stands in the way of closing an account (members.service closeAccount): resources that run
 * or are kept (they would be charged, or their data kept, with nobody able to reach them) and money
 * not settled (a negative balance, unpaid or not yet invoiced postpaid usage). The sources are
 * passed as a function because members is built before most of them.
 */
export function accountHoldings(sources: () => AccountHoldingsSources): AccountHoldings {
  return {
    async blockersOf(accountId): Promise<ClosureBlocker[]> {
      const s = sources();
      const [usage, networks, lbs, buckets, keys, snapshots, balances, postpaid] = await Promise.all([
        s.compute.usageOf(accountId),
        s.networks.list(accountId),
        s.loadBalancers.list(accountId, ONE),
        s.objectStorage.listBuckets(accountId, ONE),
        s.objectStorage.listKeys(accountId, ONE),
        s.snapshots.list(accountId, { customerId: accountId }, ONE),
        s.wallet.balancesOf(accountId),
        s.postpaid.summary(accountId),
      ]);
      const blockers: ClosureBlocker[] = [];
      const count = (kind: ClosureBlocker['kind'], n: number, what: string) => {
        if (n > 0) blockers.push({ kind, count: n, message: `Delete ${n === 1 ? `the ${what}` : `the ${n} ${what}s`} first` });
      };
      count('vms', usage.vms, 'VM');
      count('networks', networks.length, 'private network');
      count('load_balancers', lbs.total, 'load balancer');
      count('buckets', buckets.total, 'bucket');
      count('access_keys', keys.total, 'object storage access key');
      count('snapshots', snapshots.total, 'snapshot');
      if (negative(balances.actual_balance)) blockers.push({ kind: 'balance', amount: balances.actual_balance, message: 'The balance is negative: top up to settle it first' });
      if (postpaid.unpaid_count > 0) blockers.push({ kind: 'unpaid_invoices', count: postpaid.unpaid_count, amount: String(postpaid.total_unpaid), message: 'Pay the unpaid invoices first' });
      if (positive(postpaid.current_period_accrued)) {
        blockers.push({ kind: 'uninvoiced_usage', amount: String(postpaid.current_period_accrued), message: 'This month’s usage is not invoiced yet: close the account after it is invoiced and paid' });
      }
      return blockers;
    },
  };
}
