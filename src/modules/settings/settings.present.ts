import type { CompanyDetails } from './company.repository.js';
import type { AppSettings, FirewallRuleType } from './settings.repository.js';
import type { StaffTwoFactorPolicy, StaffTwoFactorScope } from './settings.schemas.js';

/* The settings module's answers (the application settings, the theme, firewall rule types, the company), mapped in one place. */

export function generalSettingsView(s: AppSettings) {
  return {
    app_name: s.appName,
    privacy_policy_url: s.privacyPolicyUrl,
    terms_and_conditions_url: s.termsAndConditionsUrl,
    maintenance_mode: s.maintenanceMode,
    updated_at: s.updatedAt.toISOString(),
  };
}

export function colorsView(s: AppSettings) {
  return { primary_color: s.primaryColor, secondary_color: s.secondaryColor, error_color: s.errorColor, accent_color: s.accentColor };
}

/** Who must use two-factor authentication, with the older yes/no form beside it. */
export function staffTwoFactorView(scope: StaffTwoFactorScope): StaffTwoFactorPolicy {
  return { required_for: scope, required: scope !== 'nobody' };
}

export function firewallRuleTypeView(f: FirewallRuleType) {
  return {
    id: f.id,
    name: f.name,
    protocol: f.protocol,
    description: f.description,
    default_port: f.defaultPort,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
  };
}

/** The issuer of receipts and invoices; every field null while none is saved. */
export function companyView(c: CompanyDetails | undefined) {
  return { legal_name: c?.legalName ?? null, address: c?.address ?? null, tax_number: c?.taxNumber ?? null, updated_at: c?.updatedAt.toISOString() ?? null };
}
