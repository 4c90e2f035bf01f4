import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { WebhookEmitter } from '../webhooks/index.js';
import { AlertEvaluationService, type AlertMetrics, type AlertNotifier } from './alert-evaluation.service.js';
import { AlertsRepository } from './alerts.repository.js';
import { alertRoutes } from './alerts.routes.js';
import { AlertsService } from './alerts.service.js';

export interface AlertsDeps {
  /** the per-minute VM points (the metrics module's reader) */
  metrics: AlertMetrics;
  notifications: AlertNotifier;
  webhookEvents: WebhookEmitter;
}

/** Metric alerts: policies on the VMs' per-minute metrics, evaluated every minute, fired and resolved once per incident. */
export function createAlertsModule(p: Platform, deps: AlertsDeps) {
  const repo = new AlertsRepository();
  const alertEvaluation = new AlertEvaluationService(p.db, repo, deps.metrics, deps.notifications, deps.webhookEvents, p.mailer, p.clock, p.log);
  const alerts = new AlertsService(p.db, repo, p.clock, alertEvaluation);
  return {
    services: { alerts, alertEvaluation },
    jobs: [alertEvaluation.evaluateJob],
    routes: [mount('customer', alertRoutes, { prefix: '/api/compute', alerts })],
  } satisfies BuiltModule;
}
