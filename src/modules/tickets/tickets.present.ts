import type { AttachmentMeta, MessageWithSender, TicketDetailRow } from './tickets.repository.js';

export type Side = 'customer' | 'staff';

const base = (side: Side) => (side === 'customer' ? '/api/ticket' : '/api/backoffice/ticket');

export function attachmentView(side: Side, ticketId: number, a: AttachmentMeta) {
  return {
    id: a.id,
    filename: a.filename,
    content_type: a.contentType,
    size_bytes: a.sizeBytes,
    sha256: a.sha256,
    url: `${base(side)}/${ticketId}/attachments/${a.id}`,
  };
}

export function messageView(side: Side, m: MessageWithSender) {
  return {
    id: m.id,
    ticket_id: m.ticketId,
    sender_type: m.senderType,
    sender: { id: (m.senderType === 'admin' ? m.senderAdminId : m.senderCustomerId) ?? 0, name: m.senderName },
    message: m.message,
    attachments: m.attachments.map((a) => attachmentView(side, m.ticketId, a)),
    created_at: m.createdAt.toISOString(),
  };
}

export function customerTicketView(t: TicketDetailRow) {
  return {
    id: t.id,
    title: t.title,
    status: t.status,
    priority: t.priority,
    message_count: t.messageCount,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
    last_message_at: t.lastMessageAt.toISOString(),
    closed_at: t.closedAt?.toISOString() ?? null,
  };
}

export function staffTicketView(t: TicketDetailRow) {
  return {
    ...customerTicketView(t),
    customer: { id: t.customerId, email: t.customerEmail, full_name: `${t.customerFirstName} ${t.customerLastName}` },
    assigned_admin: t.assignedAdminId === null ? null : { id: t.assignedAdminId, name: t.assignedAdminName ?? '' },
    archived_at: t.archivedAt?.toISOString() ?? null,
  };
}

export type StaffTicketView = ReturnType<typeof staffTicketView>;
export type MessageView = ReturnType<typeof messageView>;

/** A ticket with its messages, as the customer reads it. */
export function customerConversationView(c: { ticket: TicketDetailRow; messages: MessageWithSender[] }) {
  return { ...customerTicketView(c.ticket), messages: c.messages.map((m) => messageView('customer', m)) };
}
