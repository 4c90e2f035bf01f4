import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import type { NotificationsService } from '../notifications/index.js';
import { announcementsAdminRoutes } from './announcements.admin-routes.js';
import { AnnouncementsRepository } from './announcements.repository.js';
import { announcementsRoutes } from './announcements.routes.js';
import { AnnouncementsService, type AuditRecorder } from './announcements.service.js';

/** Announcements and release notes, published now or at their time. */
export function createAnnouncementsModule(p: Platform, deps: { notifications: Pick<NotificationsService, 'announce'>; audit: AuditRecorder }) {
  const announcements = new AnnouncementsService(p.db, new AnnouncementsRepository(), deps.notifications, deps.audit, p.clock);
  return {
    services: { announcements },
    jobs: [announcements.publishDueJob],
    routes: [
      mount('backoffice', announcementsAdminRoutes, { prefix: '/announcements', announcements, kind: 'announcement' }),
      mount('backoffice', announcementsAdminRoutes, { prefix: '/release-notes', announcements, kind: 'release_note' }),
      mount('customer', announcementsRoutes, { prefix: '/api', announcements }),
    ],
  } satisfies BuiltModule;
}
