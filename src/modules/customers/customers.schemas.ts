import { Type, type Static } from 'typebox';
import { Instant, Money, PageQuery, StrictObject } from '../../platform/http/schemas.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);
const Text = (max = 200) => Nullable(Type.String({ maxLength: max }));
/** A lookup id sent as a string (docs/api.md, "Customer profile"); '' or null clears it. */
const AreaId = Nullable(Type.String({ pattern: '^([1-9][0-9]{0,8})?$', description: 'id from /api/lookup/*, as a string' }));
const Ts = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const PERSONAL_FIELDS = ['phone', 'address', 'country_id', 'province_id', 'city_id', 'district_id', 'province_custom', 'city_custom', 'tax_number'] as const;
export const BUSINESS_FIELDS = ['name', 'website_url', 'phone', 'address', 'tax_number', 'industry'] as const;

export const PersonalProfile = Type.Object({
  phone: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Type.String(), Type.Null()]),
  country_id: Type.Union([Type.String(), Type.Null()]),
  province_id: Type.Union([Type.String(), Type.Null()]),
  city_id: Type.Union([Type.String(), Type.Null()]),
  district_id: Type.Union([Type.String(), Type.Null()]),
  province_custom: Type.Union([Type.String(), Type.Null()]),
  city_custom: Type.Union([Type.String(), Type.Null()]),
  tax_number: Type.Union([Type.String(), Type.Null()]),
});
/** Empty object for personal accounts. */
export const BusinessProfile = Type.Object({
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  website_url: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  phone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  address: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  tax_number: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  industry: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export const NotificationSetting = Type.Object({ allow_marketing_email: Type.Boolean(), allow_billing_reminder: Type.Boolean() });
const AccountType = Type.Union([Type.Literal('P'), Type.Literal('B')], { description: 'P = Personal, B = Business' });

const quotaFields = {
  block_storage_limit: Type.Integer(),
  loadbalancer_limit: Type.Integer(),
  object_storage_limit: Type.Integer(),
  private_ip_limit: Type.Integer(),
  public_ip_limit: Type.Integer(),
  vm_limit: Type.Integer(),
  snapshot_limit: Type.Integer(),
};

/** What a member whose role lacks `billing:read` (technical) does not see of the account (docs/api.md, "Teams"). */
export const MONEY_FIELDS = ['actual_balance', 'current_balance', 'billing_type', 'do_not_suspend_until', 'reward_first_top_up', 'reward_referral'] as const;
const withheldNote = 'null when the caller may not see the money of the account (a role, or an API token, without billing:read): then it is listed in `withheld`';
const moneyFields = {
  billing_type: Type.String({ description: 'PREPAID or POSTPAID' }),
  actual_balance: Money,
  current_balance: Money,
  do_not_suspend_until: Ts,
  reward_first_top_up: Type.Boolean(),
  reward_referral: Type.Boolean(),
};

export const CustomerSummary = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  full_name: Type.String(),
  is_active: Type.Boolean(),
  is_registration_completed: Type.Boolean(),
  is_identity_verified: Type.Boolean(),
  is_2fa_active: Type.Boolean(),
  account_type: AccountType,
  account_type_description: Type.String(),
  billing_type: Type.Union([Type.String(), Type.Null()], { description: `PREPAID or POSTPAID; ${withheldNote}` }),
  actual_balance: Type.Union([Money, Type.Null()], { description: `the wallet balance; ${withheldNote}` }),
  current_balance: Type.Union([Money, Type.Null()], { description: `the balance less what is reserved; ${withheldNote}` }),
  unread_count: Type.Integer(),
  suspended_at: Ts,
  suspend_reason: Type.Union([Type.String(), Type.Null()]),
  do_not_suspend_until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: `staff's grace before suspension; also ${withheldNote}` }),
  reward_first_top_up: Type.Union([Type.Boolean(), Type.Null()], { description: withheldNote }),
  reward_referral: Type.Union([Type.Boolean(), Type.Null()], { description: withheldNote }),
  withheld: Type.Array(Type.String(), {
    description: 'the fields set to null because the caller may not see them: the money fields for a role or an API token without billing:read (the technical role); empty otherwise',
  }),
  ...quotaFields,
  personal: PersonalProfile,
  business: BusinessProfile,
  notification_setting: NotificationSetting,
});

export const CustomerProfile = Type.Object({
  id: Type.Integer(),
  firstname: Type.String(),
  lastname: Type.String(),
  full_name: Type.String(),
  email: Type.String(),
  account_type: AccountType,
  is_active: Type.Boolean(),
  is_registration_completed: Type.Boolean(),
  is_identity_verified: Type.Boolean(),
  is_2fa_active: Type.Boolean(),
  actual_balance: Type.Union([Money, Type.Null()], { description: `the wallet balance; ${withheldNote.replace(': then it is listed in `withheld`', '')}` }),
  personal_profile: PersonalProfile,
  business_profile: BusinessProfile,
});

export const ProfilePatch = StrictObject(
  {
    firstname: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
    lastname: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
    account_type: Type.Optional(AccountType),
    personal_profile: Type.Optional(
      StrictObject({
        phone: Type.Optional(Nullable(Type.String({ maxLength: 32, pattern: '^[0-9+()\\- ]*$' }))),
        address: Type.Optional(Text(500)),
        country_id: Type.Optional(AreaId),
        province_id: Type.Optional(AreaId),
        city_id: Type.Optional(AreaId),
        district_id: Type.Optional(AreaId),
        province_custom: Type.Optional(Text(100)),
        city_custom: Type.Optional(Text(100)),
        tax_number: Type.Optional(Text(50)),
      }),
    ),
    business_profile: Type.Optional(
      StrictObject({
        name: Type.Optional(Text(200)),
        website_url: Type.Optional(Nullable(Type.String({ maxLength: 300, pattern: '^(https?://[^\\s]+)?$' }))),
        phone: Type.Optional(Nullable(Type.String({ maxLength: 32, pattern: '^[0-9+()\\- ]*$' }))),
        address: Type.Optional(Text(500)),
        tax_number: Type.Optional(Text(50)),
        industry: Type.Optional(Text(100)),
      }),
    ),
  },
  { minProperties: 1 },
);
export type ProfilePatch = Static<typeof ProfilePatch>;

export const NotificationPatch = StrictObject(
  { allow_marketing_email: Type.Optional(Type.Boolean()), allow_billing_reminder: Type.Optional(Type.Boolean()) },
  { minProperties: 1 },
);
export type NotificationPatch = Static<typeof NotificationPatch>;

export const ResourceQuota = Type.Object({ max_vm: Type.Integer(), current_vm: Type.Integer(), max_ip: Type.Integer({ description: 'public IPs' }), current_ip: Type.Integer() });

// ---- backoffice (the staff routes live elsewhere; these schemas are shared with them) ----

export const AdminCustomerListItem = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  full_name: Type.String(),
  account_type: AccountType,
  billing_type: Type.String(),
  is_active: Type.Boolean(),
  is_registration_completed: Type.Boolean(),
  is_identity_verified: Type.Boolean(),
  is_2fa_active: Type.Boolean(),
  suspended_at: Ts,
  created_at: Type.String({ format: 'date-time' }),
});

export const AdminCustomerDetail = Type.Object({
  ...CustomerSummary.properties,
  // staff always see the money
  ...moneyFields,
  max_session: Type.Integer(),
  email_verified_at: Ts,
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const Quota = Type.Integer({ minimum: 0, maximum: 100000 });
export const AdminCustomerPatch = StrictObject(
  {
    billing_type: Type.Optional(Type.Union([Type.Literal('PREPAID'), Type.Literal('POSTPAID')])),
    is_active: Type.Optional(Type.Boolean()),
    is_identity_verified: Type.Optional(Type.Boolean()),
    do_not_suspend_until: Type.Optional(Type.Union([Instant, Type.Null()])),
    max_session: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    block_storage_limit: Type.Optional(Quota),
    loadbalancer_limit: Type.Optional(Quota),
    object_storage_limit: Type.Optional(Quota),
    private_ip_limit: Type.Optional(Quota),
    public_ip_limit: Type.Optional(Quota),
    vm_limit: Type.Optional(Quota),
    snapshot_limit: Type.Optional(Quota),
  },
  { minProperties: 1 },
);
export type AdminCustomerPatch = Static<typeof AdminCustomerPatch>;
export const AdminCustomerListQuery = Type.Object({
  ...PageQuery.properties,
  search: Type.Optional(Type.String({ maxLength: 200 })),
});
