import { Type } from 'typebox';
import { PageQuery, Timestamp } from '../../platform/http/schemas.js';

export const Notification = Type.Object({
  id: Type.Integer(),
  kind: Type.Union(
    [
      Type.Literal('INVOICE_CREATED'),
      Type.Literal('LOW_BALANCE'),
      Type.Literal('SUSPENDED'),
      Type.Literal('TICKET_REPLY'),
      Type.Literal('ANNOUNCEMENT'),
      Type.Literal('TOPUP_CREDITED'),
      Type.Literal('INVOICE_PAID'),
      Type.Literal('INVOICE_DUE_SOON'),
      Type.Literal('INVOICE_OVERDUE'),
      Type.Literal('RESUMED'),
      Type.Literal('RUNWAY_WARNING'),
      Type.Literal('WEBHOOK_DISABLED'),
      Type.Literal('VM_STAFF_ACTION'),
      Type.Literal('BUDGET_THRESHOLD'),
      Type.Literal('RUNWAY_ALERT'),
      Type.Literal('ALERT_FIRED'),
      Type.Literal('ALERT_RESOLVED'),
    ],
    {
      description:
        'INVOICE_CREATED (a top-up or postpaid invoice), TOPUP_CREDITED, INVOICE_PAID, INVOICE_DUE_SOON, INVOICE_OVERDUE (postpaid), LOW_BALANCE, RUNWAY_WARNING, SUSPENDED, RESUMED, TICKET_REPLY, ANNOUNCEMENT, WEBHOOK_DISABLED (a webhook endpoint was disabled), VM_STAFF_ACTION (our staff started, stopped, rebooted, rebuilt or rescued one of your VMs), BUDGET_THRESHOLD (this month\'s charges reached a threshold of your budget), RUNWAY_ALERT (your balance lasts fewer days than your runway alert), ALERT_FIRED and ALERT_RESOLVED (a metric alert policy of a VM)',
    },
  ),
  title: Type.String(),
  body: Type.String(),
  reference_type: Type.String({ description: 'what it is about: topup_invoice, postpaid_invoice, balance_log, billing_notice, suspension, resumption, ticket, announcement, budget_threshold, budget_runway, alert' }),
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
