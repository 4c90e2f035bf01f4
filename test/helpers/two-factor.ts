import type { ManualClock } from '../../src/platform/clock.js';
import { totpCode } from '../../src/platform/crypto/index.js';
import type { TestApp } from './app.js';

/** Turns 2FA on for a customer through the services; returns the secret and the recovery codes. */
export async function enable2fa(t: TestApp, clock: ManualClock, customerId: number): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = await t.container.services.twoFactor.generate(customerId);
  clock.advance(30_000);
  const recoveryCodes = await t.container.services.twoFactor.enable(customerId, totpCode(secret, clock.now()));
  return { secret, recoveryCodes };
}

/** A fresh TOTP code: moves the clock to the next step first, since each step is accepted once. */
export function nextCode(clock: ManualClock, secret: string): string {
  clock.advance(30_000);
  return totpCode(secret, clock.now());
}
