import { Type } from 'typebox';
import { IntId, Money, Month, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Uuid = Type.String({ maxLength: 64, description: 'invoice UUID' });

export const PostpaidStatus = Type.Union([Type.Literal('UNPAID'), Type.Literal('OVERDUE'), Type.Literal('PAID')]);

export const PostpaidInvoice = Type.Object({
  invoice_id: Type.String(),
  number: Type.String({ description: 'PP-YYYYMM-<customer>' }),
  customer_id: Type.Integer(),
  status: PostpaidStatus,
  period_start: Timestamp,
  period_end: Timestamp,
  subtotal: Money,
  amount_paid: Money,
  amount_due: Money,
  currency: Type.String(),
  issued_at: Timestamp,
  due_at: Timestamp,
  overdue_at: Nullable(Timestamp),
  paid_at: Nullable(Timestamp),
  paid_note: Nullable(Type.String()),
});

export const PostpaidLine = Type.Object({
  resource_type: Type.String(),
  resource_id: Type.String(),
  description: Type.String(),
  period_start: Timestamp,
  period_end: Timestamp,
  hours: Type.Integer({ description: 'clock hours with usage' }),
  usage_amount: Type.Number({ description: 'exact usage (6 decimals)' }),
  amount: Money,
});

export const PostpaidInvoiceDetail = Type.Object({ ...PostpaidInvoice.properties, lines: Type.Array(PostpaidLine) });
export const AdminPostpaidInvoiceDetail = Type.Object({ ...PostpaidInvoiceDetail.properties, customer_email: Nullable(Type.String()) });

export const PostpaidSummary = Type.Object({
  currency: Type.String(),
  total_unpaid: Money,
  unpaid_count: Type.Integer(),
  overdue_count: Type.Integer(),
  next_due_at: Nullable(Timestamp),
  current_period_start: Timestamp,
  current_period_accrued: Money,
});

export const PaymentLink = Type.Object({
  invoice_id: Type.String({ description: 'the gateway top-up invoice that pays the remainder' }),
  status: Type.String(),
  amount: Money,
  total_amount: Money,
  currency: Type.String(),
  gateway_name: Type.String(),
  method_code: Type.String(),
  payment_url: Type.String(),
  actions: Type.Object({ redirect_url: Nullable(Type.String()), va_number: Nullable(Type.String()), qr_string: Nullable(Type.String()) }),
  expires_at: Timestamp,
});

export const PayAnswer = Type.Object({
  payment_id: Type.String(),
  status: Type.Union([Type.Literal('PAID'), Type.Literal('PENDING')], { description: 'PENDING: the gateway part is still to be paid at payment.payment_url' }),
  total: Money,
  wallet_amount: Money,
  remainder: Money,
  invoices: Type.Array(PostpaidInvoice),
  payment: Nullable(PaymentLink),
});

export const InvoiceParams = Type.Object({ invoice_id: Uuid });
export const PayBody = StrictObject({ method_code: Type.Optional(Type.String({ maxLength: 50 })), gateway_name: Type.Optional(Type.String({ maxLength: 50 })) });
export const BulkPayBody = StrictObject({
  invoice_ids: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 50 }),
  method_code: Type.String({ maxLength: 50 }),
  gateway_name: Type.String({ maxLength: 50 }),
});
export const CustomerListQuery = Type.Object({ ...PageQuery.properties, status: Type.Optional(PostpaidStatus) });
export const AdminListQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(PostpaidStatus),
  customer_id: Type.Optional(IntId),
  period: Type.Optional(Month),
  search: Type.Optional(Type.String({ maxLength: 100, description: 'invoice number or customer e-mail' })),
});
export const VerifyBody = StrictObject({ paid_note: Type.String({ minLength: 1, maxLength: 1000 }) });
export const ExportQuery = Type.Object({ id: Uuid });
