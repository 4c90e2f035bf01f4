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

export const FirewallRuleType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  protocol: Type.String({ enum: ['tcp', 'udp', 'icmp', 'any'] }),
  description: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const FirewallRuleTypeBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
  protocol: Type.Union([Type.Literal('tcp'), Type.Literal('udp'), Type.Literal('icmp'), Type.Literal('any')]),
  description: Type.String({ maxLength: 500 }),
});

export const FirewallRuleTypeParams = Type.Object({ id: IntId });
