import type { Executor } from '../platform/db/database.js';
import type { StaffCreditListener } from '../modules/wallet/index.js';

export interface StaffCreditListeners {
  /** a staff ADD that brings a suspended customer back to zero or more lifts the suspension at once */
  suspension: { maybeResume(tx: Executor, customerId: number): Promise<unknown> };
}

/**
 * Staff credited a wallet (an ADD adjustment), in its transaction. The listeners are passed as a
 * function because the wallet is built before charging, which depends on it.
 */
export function staffCreditFlow(listeners: () => StaffCreditListeners): StaffCreditListener {
  return {
    async staffCredited(tx, customerId) {
      await listeners().suspension.maybeResume(tx, customerId);
    },
  };
}
