import { SYSTEM_ACTOR } from '../../src/modules/audit/index.js';
import type { TestApp } from './app.js';

/** Switches maintenance mode through the settings service (which clears its cached flag). */
export async function setMaintenance(t: TestApp, on: boolean): Promise<void> {
  const s = t.container.services.settings;
  const g = await s.general();
  await s.updateGeneral(SYSTEM_ACTOR, {
    app_name: g.app_name,
    privacy_policy_url: g.privacy_policy_url,
    terms_and_conditions_url: g.terms_and_conditions_url,
    maintenance_mode: on,
  });
}
