import { Type } from 'typebox';
import { Instant, Money, MoneyAmount, MoneyInput, PageQuery, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { BONUS_STATUSES, CALLBACK_OUTCOMES } from './billing.tables.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const GatewayNameSchema = Type.Union([Type.Literal('pgone'), Type.Literal('pgtwo')]);
export const InvoiceStatus = Type.Union([Type.Literal('Pending'), Type.Literal('Paid'), Type.Literal('Failed'), Type.Literal('Expired')], {
  description: 'Pending → Paid (verified success), Failed (gateway failure), Expired (TOPUP_EXPIRY_HOURS passed, or the gateway expired it)',
});

export const BonusStatusSchema = Type.Enum(BONUS_STATUSES, {
  description:
    'none: no coupon; reserved: a use of the coupon is held for this deposit; released: the deposit failed or expired and gave the use back; credited: the bonus was paid; forfeited: paid after the use was released, when the coupon had none left: no bonus',
});

export const PaymentMethod = Type.Object({
  gateway_name: Type.String({ description: 'the gateway code to send back in a deposit (pgone, pgtwo)' }),
  gateway_label: Type.String({ description: 'the gateway as a person reads it ("PG One")' }),
  method_code: Type.String(),
  name: Type.String(),
  type: Type.Union([Type.Literal('VIRTUAL_ACCOUNT'), Type.Literal('QRIS'), Type.Literal('EWALLET'), Type.Literal('CARD')]),
  fee_flat: Money,
  fee_percent: MoneyAmount({ description: 'Percent of the deposit added as a fee (2 decimals, written exactly)' }),
});

export const TopupMinimum = Type.Object({ minimum_amount: Money, currency: Type.String() });

export const TopupBody = StrictObject({
  amount: MoneyInput({ description: 'What the wallet receives; fees are added on top' }),
  method_code: Type.String({ minLength: 1, maxLength: 50 }),
  gateway_name: Type.String({ minLength: 1, maxLength: 20 }),
  coupon_code: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
});

export const PaymentActions = Type.Object({
  redirect_url: Nullable(Type.String()),
  va_number: Nullable(Type.String()),
  qr_string: Nullable(Type.String()),
});


export const Topup = Type.Object({
  invoice_id: Type.String({ format: 'uuid' }),
  status: InvoiceStatus,
  amount: Money,
  fee: Money,
  total_amount: MoneyAmount({ description: 'amount + fee: what the gateway charges' }),
  bonus_amount: MoneyAmount({ description: 'the coupon bonus quoted when the deposit was made (credited when it is paid, see bonus_status)' }),
  bonus_status: BonusStatusSchema,
  credited_amount: Nullable(MoneyAmount({ description: 'what was credited to the wallet as real money (null until credited)' })),
  credited_bonus: Nullable(MoneyAmount({ description: 'what was credited as coupon bonus (null until credited; 0 when the bonus was forfeited)' })),
  coupon_code: Nullable(Type.String()),
  currency: Type.String(),
  gateway_name: Type.String(),
  gateway_label: Type.String({ description: 'the gateway as a person reads it ("PG One")' }),
  method_code: Type.String(),
  method_name: Type.String(),
  method_type: Type.String(),
  payment_url: Nullable(Type.String()),
  actions: PaymentActions,
  created_at: Timestamp,
  expires_at: Timestamp,
  paid_at: Nullable(Timestamp),
  credited_at: Nullable(Timestamp),
});

/** The deposit answer: the new invoice, whose payment_url is always set by then. */
export const TopupCreated = Type.Object({ ...Topup.properties, payment_url: Type.String() });

export const AdminTopup = Type.Object({ ...Topup.properties, customer_id: Type.Integer() });

export const InvoiceIdParams = Type.Object({ invoice_id: Type.String({ maxLength: 64 }) });
export const TopupListQuery = PageQuery;
export const AdminInvoiceQuery = Type.Object({
  ...PageQuery.properties,
  status: Type.Optional(InvoiceStatus),
  customer_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
});

export const RedirectParams = Type.Object({ gateway: GatewayNameSchema });
export const RedirectQuery = Type.Object(
  { status: Type.Union([Type.Literal('success'), Type.Literal('failed'), Type.Literal('pending')]) },
  // gateways append parameters of their own to the return URL
  { additionalProperties: true },
);

export const CallbackOk = Type.Object({ message: Type.String(), data: Type.Null() });

export const MinimumOverrideBody = StrictObject({
  minimum_amount: Nullable(MoneyInput({ description: 'null: back to the platform default' })),
});
export const MinimumOverride = Type.Object({ minimum_amount: Money, currency: Type.String(), is_default: Type.Boolean() });

export const CouponType = Type.Union([Type.Literal('PERCENT'), Type.Literal('FIXED')]);
const couponFields = {
  code: Type.String({ minLength: 3, maxLength: 40, description: 'case-insensitive, unique' }),
  description: Type.String({ maxLength: 500 }),
  type: CouponType,
  value: MoneyInput({ description: 'percent (PERCENT, ≤ 100) or amount (FIXED)' }),
  max_bonus: Nullable(MoneyInput({ description: 'cap of a PERCENT bonus' })),
  min_deposit: MoneyInput({ positive: false }),
  valid_from: Nullable(Instant),
  valid_until: Nullable(Instant),
  usage_limit: Nullable(Type.Integer({ minimum: 1, maximum: 2147483647 })),
  is_active: Type.Boolean(),
};
export const CouponCreateBody = StrictObject({
  code: couponFields.code,
  type: couponFields.type,
  value: couponFields.value,
  description: Type.Optional(couponFields.description),
  max_bonus: Type.Optional(couponFields.max_bonus),
  min_deposit: Type.Optional(couponFields.min_deposit),
  valid_from: Type.Optional(couponFields.valid_from),
  valid_until: Type.Optional(couponFields.valid_until),
  usage_limit: Type.Optional(couponFields.usage_limit),
  is_active: Type.Optional(couponFields.is_active),
});
export const CouponPatchBody = StrictObject(
  Object.fromEntries(Object.entries(couponFields).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof typeof couponFields]: ReturnType<typeof Type.Optional<(typeof couponFields)[K]>>;
  },
  { minProperties: 1 },
);
export const Coupon = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  description: Type.String(),
  type: CouponType,
  value: MoneyAmount({ description: 'percent (PERCENT) or amount (FIXED)' }),
  max_bonus: Nullable(Money),
  min_deposit: Money,
  valid_from: Nullable(Timestamp),
  valid_until: Nullable(Timestamp),
  usage_limit: Nullable(Type.Integer()),
  used_count: Type.Integer(),
  is_active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const CouponIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

export const CallbackOutcomeSchema = Type.Enum(CALLBACK_OUTCOMES, { description: 'What the service did with the callback: paid/failed/expired moved the invoice; duplicate repeated a handled one; the rest were refused',
});

export const PaymentCallbackQuery = Type.Object({
  ...PageQuery.properties,
  invoice_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The invoice the callback named (as sent, unverified)' })),
  gateway: Type.Optional(GatewayNameSchema),
  outcome: Type.Optional(CallbackOutcomeSchema),
  signature_valid: Type.Optional(Type.Boolean()),
});

export const PaymentCallbackEntry = Type.Object({
  id: Type.Integer(),
  gateway: Type.String(),
  claimed_invoice_id: Nullable(Type.String()),
  signature_valid: Type.Boolean(),
  outcome: CallbackOutcomeSchema,
  response_status: Type.Integer({ description: 'The HTTP status the service answered' }),
  remote_ip: Nullable(Type.String()),
  headers: Type.Record(Type.String(), Type.String(), { description: 'The recorded request headers (content type, signature, user agent, forwarding)' }),
  raw_body: Type.String({ description: 'The body as received, up to 64 KiB' }),
  received_at: Timestamp,
});

export const CreditFailureQuery = Type.Object({
  ...PageQuery.properties,
  resolved: Type.Optional(Type.Boolean({ description: 'true: the failures since credited; default false: the open ones' })),
});

export const CreditFailure = Type.Object({
  invoice_id: Type.String({ format: 'uuid' }),
  customer_id: Type.Integer(),
  amount: Money,
  bonus_amount: Money,
  currency: Type.String(),
  gateway_name: Type.String(),
  invoice_status: InvoiceStatus,
  paid_at: Nullable(Timestamp),
  credited_at: Nullable(Timestamp),
  attempts: Type.Integer({ description: 'failed credit runs' }),
  permanent: Type.Boolean({ description: 'true: not retried until staff retry it (a business rule refused the credit, or too many runs failed)' }),
  error_code: Type.String(),
  last_error: Type.String(),
  first_failed_at: Timestamp,
  last_failed_at: Timestamp,
  resolved_at: Nullable(Timestamp),
});

export const InvoiceIdPath = Type.Object({ invoice_id: Type.String({ format: 'uuid' }) });
export const CreditRetry = Type.Object({ invoice_id: Type.String({ format: 'uuid' }), queued: Type.Boolean() });
