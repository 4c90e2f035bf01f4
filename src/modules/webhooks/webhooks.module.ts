import type { SQL } from 'drizzle-orm';
import { systemClock } from '../../platform/clock.js';
import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { AttemptsRepository } from './attempts.repository.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { WebhookDeliveriesService, type EndpointDisabledNotifier } from './deliveries.service.js';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import { WebhookOutbox } from './outbox.service.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * Outbound webhooks: modules report events through the outbox (`webhookEvents`) in the
 * transaction of the change; jobs fan them out and a dispatcher delivers them.
 */
export function createWebhooksModule(p: Platform, deps: { endpointDisabled: EndpointDisabledNotifier }) {
  const { db, clock, log, queue, config } = p;
  const deliveriesRepo = new DeliveriesRepository();
  // the fan-out job the outbox queues belongs to the delivery service, built below
  const webhookEvents = new WebhookOutbox(deliveriesRepo, (payloads: SQL): SQL => webhookDeliveries.fanOutJobs(payloads), clock);
  const sender = new WebhookSender({ allowPrivateTargets: config.webhookAllowPrivateTargets });
  const webhookDeliveries = new WebhookDeliveriesService(db, deliveriesRepo, new AttemptsRepository(), queue, sender, deps.endpointDisabled, p.mailer, clock, systemClock, log, config.encryptionKey, {
    claimsShared: p.database.kind !== 'pglite',
  });
  const dispatcher = new DeliveryDispatcher(webhookDeliveries, p.database, log);
  const webhooks = new WebhooksService(db, new WebhooksRepository(), deliveriesRepo, webhookDeliveries, webhookEvents, clock, p.rateLimits, {
    encryptionKey: config.encryptionKey,
    production: config.nodeEnv === 'production',
    allowPrivateTargets: config.webhookAllowPrivateTargets,
  });
  return {
    services: { webhooks, webhookDeliveries, webhookEvents },
    /** delivers in the worker: started with it, stopped before the queue */
    dispatcher,
    sender,
    jobs: [webhookDeliveries.fanOutJob, webhookDeliveries.sweepJob, webhookDeliveries.pruneJob],
    routes: [mount('customer', webhooksRoutes, { prefix: '/api/webhooks', webhooks })],
  } satisfies BuiltModule;
}
