export { WebhooksService, MAX_ENDPOINTS, SECRET_OVERLAP_MS, TESTS_PER_MINUTE, REPLAYS_PER_MINUTE } from './webhooks.service.js';
export { WebhooksRepository } from './webhooks.repository.js';
export { DeliveriesRepository } from './deliveries.repository.js';
export { AttemptsRepository } from './attempts.repository.js';
export {
  WebhookDeliveriesService,
  DISABLE_AFTER_FAILING_MS,
  MAX_IN_FLIGHT_PER_ENDPOINT,
  MAX_IN_FLIGHT_PER_CUSTOMER,
  eventIdOf,
  type EndpointDisabledNotifier,
} from './deliveries.service.js';
export { DeliveryDispatcher, DELIVERY_SLOTS } from './delivery-dispatcher.js';
export { WebhookOutbox, exactNumber, type WebhookEmitter, type WebhookEvent } from './outbox.service.js';
export { WebhookSender } from './webhook-sender.js';
export { EVENT_TYPES, EVENT_TYPE_NAMES, TEST_EVENT_TYPE, type EventType } from './event-types.js';
export { ATTEMPT_LEASE_MS, REQUEUE_AFTER_MS, RETRY_DELAYS_MS, WEBHOOK_DELIVERY } from './deliveries.policy.js';
export { webhooksRoutes } from './webhooks.routes.js';
export { createWebhooksModule } from './webhooks.module.js';
