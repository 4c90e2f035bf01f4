import { Type } from 'typebox';
import { IntId, StrictObject, Timestamp } from '../../platform/http/schemas.js';

const Url = Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://\\S+$', description: 'absolute http(s) URL' });
const Hex = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'hex color #RRGGBB' });

export const GeneralSettings = Type.Object({
  app_name: Type.String(),
  privacy_policy_url: Type.String(),
  terms_and_conditions_url: Type.String(),
  maintenance_mode: Type.Boolean({ description: 'true: the customer API answers 503 MAINTENANCE (lookups, login and payment callbacks stay open)' }),
  updated_at: Timestamp,
});

export const UpdateSettingsBody = StrictObject({
  app_name: Type.String({ minLength: 1, maxLength: 100 }),
  privacy_policy_url: Url,
  terms_and_conditions_url: Url,
  maintenance_mode: Type.Boolean(),
});

export const Colors = Type.Object({ primary_color: Type.String(), secondary_color: Type.String(), error_color: Type.String(), accent_color: Type.String() });

export const UpdateColorsBody = StrictObject({
  primary_color: Hex,
  secondary_color: Hex,
  error_color: Hex,
  accent_color: Type.Optional(Hex),
});

export const DefaultPort = Type.Union([Type.Integer(), Type.Null()], { description: 'the port a rule of this type gets when it names none; null: the rule names its ports (always null for icmp and any)' });

export const FirewallRuleType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  protocol: Type.String({ enum: ['tcp', 'udp', 'icmp', 'any'] }),
  description: Type.String(),
  default_port: DefaultPort,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const FirewallRuleTypeBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
  protocol: Type.Union([Type.Literal('tcp'), Type.Literal('udp'), Type.Literal('icmp'), Type.Literal('any')]),
  description: Type.String({ maxLength: 500 }),
  default_port: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 65535 }), Type.Null()], {
      description: 'tcp and udp types only; null clears it. Left out: null on create, unchanged on update',
    }),
  ),
});

export const FirewallRuleTypeParams = Type.Object({ id: IntId });

export const STAFF_TWO_FACTOR_SCOPES = ['nobody', 'money_roles', 'all_staff'] as const;
export type StaffTwoFactorScope = (typeof STAFF_TWO_FACTOR_SCOPES)[number];

const Scope = Type.Union(
  [Type.Literal('nobody'), Type.Literal('money_roles'), Type.Literal('all_staff')],
  { description: 'who must use TOTP 2FA: nobody, money_roles (roles holding manage_balance, verify_invoices, manage_coupons or manage_pricing) or all_staff' },
);

export const StaffTwoFactorPolicy = Type.Object({
  required_for: Scope,
  required: Type.Boolean({ description: 'the older form: true unless required_for is nobody' }),
});
export type StaffTwoFactorPolicy = Type.Static<typeof StaffTwoFactorPolicy>;

export const StaffTwoFactorBody = StrictObject(
  { required_for: Type.Optional(Scope), required: Type.Optional(Type.Boolean({ description: 'the older form: true is money_roles, false is nobody' })) },
  { description: 'required_for, or the older required (not both)' },
);
