import { eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.js';
import { customers } from './customers.tables.js';

/** The customer's row as a quota check reads it, under the row lock. */
export interface CustomerQuota {
  id: number;
  isActive: boolean;
  billingType: string;
  vmLimit: number;
  publicIpLimit: number;
  blockStorageLimit: number;
  privateIpLimit: number;
  loadbalancerLimit: number;
  objectStorageLimit: number;
  snapshotLimit: number;
}

/**
 * The port every resource module takes its quota lock through: locks the customer's row until
 * the transaction ends (`SELECT … FOR UPDATE`) and reads its limits, so two creates of one
 * customer count and insert one after the other. It is the first lock a create takes (see the
 * lock order in docs/architecture.md). Undefined for an unknown customer.
 */
export interface CustomerQuotaLock {
  lock(tx: Executor, customerId: number): Promise<CustomerQuota | undefined>;
}

export const customerQuotaLock: CustomerQuotaLock = {
  async lock(tx, customerId) {
    const [row] = await tx
      .select({
        id: customers.id,
        isActive: customers.isActive,
        billingType: customers.billingType,
        vmLimit: customers.vmLimit,
        publicIpLimit: customers.publicIpLimit,
        blockStorageLimit: customers.blockStorageLimit,
        privateIpLimit: customers.privateIpLimit,
        loadbalancerLimit: customers.loadbalancerLimit,
        objectStorageLimit: customers.objectStorageLimit,
        snapshotLimit: customers.snapshotLimit,
      })
      .from(customers)
      .where(eq(customers.id, customerId))
      .for('update');
    return row;
  },
};
