import type { passwordRule } from '../../platform/password-policy.js';
import type { AppSettings } from '../settings/index.js';
import type { LocationRow } from './lookups.repository.js';

/* The lookups module's answers, mapped in one place (countries, provinces, cities and districts are served as their rows: id, code, name). */

export function locationView(l: LocationRow) {
  return { id: l.id, code: l.code, name: l.name, country_code: l.countryCode, is_active: l.isActive };
}

export function passwordRulesView(rule: typeof passwordRule) {
  return { ...rule };
}

export function termsLinkView(s: AppSettings) {
  return { link: s.termsAndConditionsUrl };
}

export function appColorsView(s: AppSettings) {
  return {
    app_color: { primary: s.primaryColor, secondary: s.secondaryColor, accent: s.accentColor, error: s.errorColor },
    email_color: { primary: s.primaryColor },
  };
}
