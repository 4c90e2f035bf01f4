import type { Clock } from '../../platform/clock.js';
import type { Database } from '../../platform/db/database.js';
import { defineJob } from '../../platform/queue/queue.js';
import type { BillingRepository } from './billing.repository.js';
import type { CouponsService } from './coupons.service.js';

/** Expiry: Pending top-up invoices past TOPUP_EXPIRY_HOURS become Expired and give their coupon uses back. */
export class TopupExpiryService {
  readonly expireJob = defineJob<object>({
    name: 'billing.expire-topups',
    schedule: '*/10 * * * *',
    description: 'Marks Pending top-up invoices older than TOPUP_EXPIRY_HOURS as Expired',
    handler: async (_p, ctx) => {
      const n = await this.expireDue();
      if (n > 0) ctx.log.info({ expired: n }, 'top-up invoices expired');
    },
  });

  constructor(
    private readonly db: Database,
    private readonly repo: BillingRepository,
    private readonly coupons: CouponsService,
    private readonly clock: Clock,
  ) {}

  /** Pending invoices past their expiry (TOPUP_EXPIRY_HOURS after creation) → Expired; their coupon uses are released. */
  expireDue(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const expired = await this.repo.expireDue(tx, this.clock.now());
      const released = new Map<number, number>();
      for (const row of expired) if (row.couponId !== null && row.bonusStatus === 'released') released.set(row.couponId, (released.get(row.couponId) ?? 0) + 1);
      for (const [couponId, uses] of released) await this.coupons.release(tx, couponId, uses);
      return expired.length;
    });
  }
}
