import { Type } from 'typebox';
import { PageQuery, Timestamp } from '../../platform/http/schemas.js';

export const Notification = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('INVOICE_CREATED'), Type.Literal('LOW_BALANCE'), Type.Literal('SUSPENDED'), Type.Literal('TICKET_REPLY'), Type.Literal('ANNOUNCEMENT'), Type.Literal('WEBHOOK_DISABLED')], {
    description: 'INVOICE_CREATED, LOW_BALANCE, SUSPENDED, TICKET_REPLY, ANNOUNCEMENT, WEBHOOK_DISABLED',
  }),
  title: Type.String(),
  body: Type.String(),
  reference_type: Type.String({ description: 'what it is about: topup_invoice, balance_log, ticket, announcement, ...' }),
  reference_id: Type.String(),
  is_read: Type.Boolean(),
  read_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
});

export const NotificationListQuery = Type.Object({
  ...PageQuery.properties,
  unread: Type.Optional(Type.Boolean({ description: 'true: only unread notifications' })),
});

export const NotificationIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const ReadAllAnswer = Type.Object({ marked: Type.Integer(), unread_count: Type.Integer() });
