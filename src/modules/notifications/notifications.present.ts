import type { NotificationRow } from './notifications.repository.js';
import type { NotificationKind } from './notifications.tables.js';

/* The notifications module's answers: every row the API shows is mapped here, in one place. */

export function notificationView(n: NotificationRow) {
  return {
    id: n.id,
    kind: n.kind as NotificationKind,
    title: n.title,
    body: n.body,
    reference_type: n.referenceType,
    reference_id: n.referenceId,
    is_read: n.readAt !== null,
    read_at: n.readAt?.toISOString() ?? null,
    created_at: n.createdAt.toISOString(),
  };
}

/** What marking all as read answers: how many it marked, and how many stay unread. */
export function readAllView(marked: number, unreadCount: number) {
  return { marked, unread_count: unreadCount };
}
