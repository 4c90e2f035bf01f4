export { AlertsService, MAX_ALERT_POLICIES, MAX_ALERT_WINDOW_MINUTES, MAX_ALERT_THRESHOLD, type PolicyInput } from './alerts.service.js';
export { AlertEvaluationService, aggregate, displayValue, MIN_COVERAGE, type AlertMetrics, type AlertNotifier } from './alert-evaluation.service.js';
export { AlertsRepository, type Alert, type AlertPolicy } from './alerts.repository.js';
export { alertView, policyView } from './alerts.present.js';
export { ALERT_AGGREGATIONS, ALERT_COMPARISONS } from './alerts.tables.js';
export { alertRoutes } from './alerts.routes.js';
export { createAlertsModule } from './alerts.module.js';
