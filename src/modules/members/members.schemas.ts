import { Type } from 'typebox';
import { IntId, StrictObject, Timestamp } from '../../platform/http/schemas.js';
import { CUSTOMER_PERMISSIONS } from './member-permissions.js';

const RoleName = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('billing'), Type.Literal('technical'), Type.Literal('read_only')], {
  description: 'owner, admin, billing, technical or read_only (docs/api.md, "Teams")',
});
const AssignableRole = Type.Union([Type.Literal('admin'), Type.Literal('billing'), Type.Literal('technical'), Type.Literal('read_only')], {
  description: 'admin, billing, technical or read_only: ownership moves only by transfer',
});
const Secret = Type.String({ minLength: 10, maxLength: 200, description: 'the token of the mailed link' });

export const AccountOwner = Type.Object(
  {
    customer_id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
  },
  { description: 'who owns the account now: after an ownership transfer, the new owner (not the person whose sign-up made the account)' },
);

export const AccountEntry = Type.Object({
  account_id: Type.Integer(),
  name: Type.String({ description: "the account's name: the name of the person whose sign-up made it (it stays after a transfer; `owner` says who holds it)" }),
  email: Type.String({ description: "the account's e-mail: that of the person whose sign-up made it" }),
  role: RoleName,
  permissions: Type.Array(Type.String(), { description: 'what the role may do here (the x-member-permission of each operation)' }),
  current: Type.Boolean({ description: 'the account this session acts on' }),
  own: Type.Boolean({ description: 'the account your sign-up made (its id is your own customer id); after you transfer it, still true, with `role` admin and `owner` the new owner' }),
  owner: Type.Union([AccountOwner, Type.Null()], { description: 'the current owner; null only for a closed account' }),
  is_active: Type.Boolean(),
});

export const SwitchBody = StrictObject({ account_id: IntId });
export const AccountParams = Type.Object({ account_id: IntId });
export const MemberParams = Type.Object({ customer_id: IntId });
export const InvitationParams = Type.Object({ id: IntId });
export const TokenBody = StrictObject({ token: Secret });
export const InviteBody = StrictObject({ email: Type.String({ format: 'email', maxLength: 254 }), role: AssignableRole });
export const RoleBody = StrictObject({ role: AssignableRole });
export const SettingsBody = StrictObject({ require_2fa: Type.Boolean({ description: 'every member must have 2FA on to act on this account' }) });
export const TransferBody = StrictObject({ customer_id: IntId });

export const Member = Type.Object({
  customer_id: Type.Integer(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  role: RoleName,
  two_factor_enabled: Type.Boolean(),
  joined_at: Timestamp,
});

export const Invitation = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: RoleName,
  invited_by: Type.Integer(),
  created_at: Timestamp,
  expires_at: Timestamp,
});

export const MemberList = Type.Object({
  members: Type.Array(Member),
  invitations: Type.Array(Invitation, { description: 'open (unused, unexpired) invitations' }),
  require_2fa: Type.Boolean(),
});

export const InvitationPreview = Type.Object({
  account_name: Type.String(),
  email: Type.String({ description: 'the address invited: sign in (or sign up) with it to accept' }),
  role: RoleName,
  expires_at: Timestamp,
});

export const Settings = Type.Object({ require_2fa: Type.Boolean() });
export const RoleChanged = Type.Object({ role: RoleName, sessions_ended: Type.Integer() });
export const MemberGone = Type.Object({ sessions_ended: Type.Integer(), tokens_revoked: Type.Integer() });
export const TransferRequested = Type.Object({ expires_at: Timestamp });
export const TransferDone = Type.Object({ account_id: Type.Integer(), owner_id: Type.Integer() });

export const RoleTable = Type.Array(Type.Object({ role: RoleName, permissions: Type.Array(Type.String()) }));
export const PermissionCatalog = Type.Array(Type.Object({ name: Type.String(), description: Type.String() }));
export const PERMISSION_NAMES = Object.keys(CUSTOMER_PERMISSIONS);

export const ClosureBlockerView = Type.Object({
  kind: Type.String({ description: 'vms, networks, load_balancers, buckets, access_keys, snapshots, balance, unpaid_invoices or uninvoiced_usage' }),
  count: Type.Optional(Type.Integer()),
  amount: Type.Optional(Type.String({ description: 'the money concerned, as an exact decimal text' })),
  message: Type.String({ description: 'what to do first, in words' }),
});
export const ClosurePreview = Type.Object({
  can_close: Type.Boolean({ description: 'true when nothing stands in the way' }),
  blockers: Type.Array(ClosureBlockerView),
  closed_at: Type.Union([Timestamp, Type.Null()]),
});
export const CloseBody = StrictObject({
  confirm_email: Type.String({ minLength: 3, maxLength: 254, description: "the account's e-mail address, typed again" }),
});
export const CloseHeaders = Type.Object({ 'x-access-token': Type.Optional(Type.String({ description: 'sudo token from POST /api/auth/profile/sudo (password, and the 2FA code when on)' })) });
export const Closed = Type.Object({
  closed_at: Timestamp,
  sessions_ended: Type.Integer(),
  tokens_revoked: Type.Integer(),
  members_removed: Type.Integer(),
});
