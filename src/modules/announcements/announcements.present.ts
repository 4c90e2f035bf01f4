import type { AnnouncementRow } from './announcements.repository.js';

/* The announcements module's answers: every row the API shows is mapped here, in one place. */

/** A document as staff see it (any status). */
export function documentView(a: AnnouncementRow) {
  return {
    id: a.id,
    title: a.title,
    message: a.message,
    status: a.status,
    publish_at: a.publishAt?.toISOString() ?? null,
    published_at: a.publishedAt?.toISOString() ?? null,
    withdrawn_at: a.withdrawnAt?.toISOString() ?? null,
    created_by_admin_id: a.createdByAdminId,
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

/** A published document as customers see it. */
export function publicDocumentView(a: AnnouncementRow) {
  return { id: a.id, title: a.title, message: a.message, published_at: a.publishedAt!.toISOString() };
}
