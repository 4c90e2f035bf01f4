export { NotificationsService, LOW_BALANCE_THRESHOLD, type NotificationContent } from './notifications.service.js';
export { notificationView } from './notifications.present.js';
export { NotificationsRepository } from './notifications.repository.js';
export { NOTIFICATION_KINDS, type NotificationKind } from './notifications.tables.js';
export { notificationsRoutes } from './notifications.routes.js';
export { createNotificationsModule } from './notifications.module.js';
