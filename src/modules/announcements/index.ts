export { AnnouncementsService } from './announcements.service.js';
export { documentView, publicDocumentView } from './announcements.present.js';
export { AnnouncementsRepository } from './announcements.repository.js';
export { announcementsAdminRoutes } from './announcements.admin-routes.js';
export { announcementsRoutes } from './announcements.routes.js';
export { DOCUMENT_KINDS, DOCUMENT_STATUSES, type DocumentKind, type DocumentStatus } from './announcements.tables.js';
export { createAnnouncementsModule } from './announcements.module.js';
