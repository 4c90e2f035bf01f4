import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { NotificationsRepository } from './notifications.repository.js';
import { notificationsRoutes } from './notifications.routes.js';
import { LOW_BALANCE_THRESHOLD, NotificationsService } from './notifications.service.js';

/** The customer's in-app notifications (and the low-balance warning, a webhook event too). */
export function createNotificationsModule(p: Platform, deps: { webhookEvents: WebhookEmitter }) {
  const notifications = new NotificationsService(p.db, new NotificationsRepository(), p.queue, p.clock, { lowBalanceThreshold: LOW_BALANCE_THRESHOLD, currency: p.config.currency }, deps.webhookEvents);
  return {
    services: { notifications },
    jobs: [notifications.announceJob],
    routes: [mount('customer', notificationsRoutes, { prefix: '/api/notifications', notifications })],
  } satisfies BuiltModule;
}
