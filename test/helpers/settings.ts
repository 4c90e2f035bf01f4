import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import type { TestApp } from './app.js';

/** Switches maintenance mode through the settings service (which clears its cached flag). */
export async function setMaintenance(t: TestApp, on: boolean): Promise<void> {
  const s = t.container.services.settings;
  const g = await s.get();
  await s.updateGeneral(SYSTEM_ACTOR, {
    app_name: g.appName,
    privacy_policy_url: g.privacyPolicyUrl,
    terms_and_conditions_url: g.termsAndConditionsUrl,
    maintenance_mode: on,
  });
}
