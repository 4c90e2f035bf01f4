import type { ResourceSuspender } from '../modules/charging/index.js';

/** What a customer's suspension stops and what their resumption starts again. */
export interface CustomerSuspensionListeners {
  compute: { suspendCustomerVms(customerId: number, reason: string): Promise<unknown>; resumeCustomerVms(customerId: number): Promise<unknown> };
  objectStorage: { suspendCustomer(customerId: number, reason: string): Promise<unknown>; resumeCustomer(customerId: number): Promise<unknown> };
}

/**
 * A customer suspended or resumed: the VMs are stopped and the object storage keys refused
 * (networks and balancers keep running), and started again on resumption. The listeners are
 * passed as a function because charging, which suspends, is built before compute and object
 * storage (they ask charging whether a customer may start something billable).
 */
export function customerSuspensionFlow(listeners: () => CustomerSuspensionListeners): ResourceSuspender {
  return {
    async suspendCustomer(customerId, reason) {
      const l = listeners();
      await l.compute.suspendCustomerVms(customerId, reason);
      await l.objectStorage.suspendCustomer(customerId, reason);
    },
    async resumeCustomer(customerId) {
      const l = listeners();
      await l.compute.resumeCustomerVms(customerId);
      await l.objectStorage.resumeCustomer(customerId);
    },
  };
}
