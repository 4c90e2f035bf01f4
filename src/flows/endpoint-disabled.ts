import type { EndpointDisabledNotifier } from '../modules/webhooks/index.js';

export interface EndpointDisabledListeners {
  /** the customer's in-app notice (a mail goes out from the webhooks module itself) */
  notifications: EndpointDisabledNotifier;
}

/**
 * A webhook endpoint disabled after failing for days: its owner is told in the app. The listeners
 * are passed as a function because the webhooks module is built before notifications (which
 * reports its own events through the webhook outbox).
 */
export function endpointDisabledFlow(listeners: () => EndpointDisabledListeners): EndpointDisabledNotifier {
  return { notify: (customerId, kind, content, tx) => listeners().notifications.notify(customerId, kind, content, tx) };
}
