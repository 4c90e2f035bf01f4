import { Type } from 'typebox';
import { StrictObject } from '../../platform/http/schemas.js';

const Email = Type.String({ format: 'email', maxLength: 254 });
/** Strength is checked by the service against the password rule, so the error names the rule. */
const Password = Type.String({ minLength: 1, maxLength: 128 });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const TotpCode = Type.String({ minLength: 1, maxLength: 16, description: '6-digit TOTP code' });

export const RegisterBody = StrictObject({
  email: Email,
  password: Password,
  first_name: Name,
  last_name: Name,
  account_type: Type.Union([Type.Literal('P'), Type.Literal('B')], { description: 'P = Personal, B = Business' }),
  referral_code: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: "another customer's referral code (GET /api/customer/referral); an unknown code refuses the registration" })),
});
export const TokenBody = StrictObject({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export const LoginBody = StrictObject({ email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 1024 }) });
export const LoginResult = Type.Object({
  redirect: Type.Union([Type.Literal('DASHBOARD'), Type.Literal('2FA')], { description: 'DASHBOARD: full cookies were set; 2FA: only the mfa_challenge cookie' }),
});
export const VerifyCodeBody = StrictObject({ email: Type.String({ minLength: 1, maxLength: 254 }), code: TotpCode });
export const VerifyRecoveryBody = StrictObject({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  recovery_code: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'alias of recovery_code' })),
});
export const ChangePasswordBody = StrictObject({ current_password: Type.String({ minLength: 1, maxLength: 1024 }), new_password: Password });
export const ForgotPasswordBody = StrictObject({ email: Type.String({ minLength: 1, maxLength: 254 }) });
export const ResetPasswordBody = StrictObject({ token: Type.String({ minLength: 1, maxLength: 200 }), new_password: Password });

export const SessionEntry = Type.Object({
  id: Type.String({ format: 'uuid' }),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  last_access_at: Type.String({ format: 'date-time' }),
  current: Type.Boolean(),
  impersonated: Type.Boolean({ description: 'opened by support staff impersonating you' }),
});
export const SessionParams = Type.Object({ sid: Type.String({ maxLength: 64 }) });

export const SudoBody = StrictObject({ password: Type.String({ minLength: 1, maxLength: 1024 }), code: Type.Optional(TotpCode) });
export const SudoResult = Type.Object({ token: Type.String(), expires_at: Type.String({ format: 'date-time' }) });
export const SudoHeaders = Type.Object({ 'x-access-token': Type.Optional(Type.String({ description: 'sudo token from POST /api/auth/profile/sudo' })) });
export const GeneratedSecret = Type.Object({
  secret: Type.String({ description: 'base32 TOTP secret' }),
  otpauth_url: Type.String(),
  qr_code: Type.String({ description: 'data:image/png;base64,... of the otpauth URL' }),
});
export const CodeBody = StrictObject({ code: TotpCode });
export const RecoveryCodes = Type.Object({ recovery_codes: Type.Array(Type.String({ pattern: '^[a-z0-9]{5}-[a-z0-9]{5}$' })) });
export const RecoveryList = Type.Object({
  remaining: Type.Integer(),
  codes: Type.Array(Type.Object({ hint: Type.String({ description: 'first 3 characters' }), used: Type.Boolean() })),
});

export const OtpSent = Type.Object({ expires_at: Type.String({ format: 'date-time' }) });
export const StepToken = Type.Object({ token: Type.String(), expires_at: Type.String({ format: 'date-time' }) });
export const SendNewBody = StrictObject({ token: Type.String({ minLength: 1, maxLength: 200 }), new_email: Email });
export const EmailChanged = Type.Object({ email: Type.String() });
