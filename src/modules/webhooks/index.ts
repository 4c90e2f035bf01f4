export { WebhooksService, MAX_ENDPOINTS, SECRET_OVERLAP_MS } from './webhooks.service.js';
export { WebhooksRepository } from './webhooks.repository.js';
export { DeliveriesRepository } from './deliveries.repository.js';
export { WebhookDeliveriesService, ATTEMPT_LEASE_MS, DISABLE_AFTER_FAILING_MS, REQUEUE_AFTER_MS, eventIdOf } from './deliveries.service.js';
export { WebhookOutbox, exactNumber, type WebhookEmitter, type WebhookEvent } from './outbox.service.js';
export { WebhookSender } from './webhook-sender.js';
export { EVENT_TYPES, EVENT_TYPE_NAMES, TEST_EVENT_TYPE, type EventType } from './event-types.js';
export { RETRY_DELAYS_MS } from './retry-schedule.js';
export { webhooksRoutes } from './webhooks.routes.js';
