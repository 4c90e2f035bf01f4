/**
 * The password rule of every account, customer or staff: served by GET /api/lookup/password-rules
 * and enforced on every password set (registration, reset, change, staff accounts, the bootstrap
 * admin).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const passwordRule = {
  regex: `^(?=.*[a-z])(?=.*[A-Z])(?=.*\\d)(?=.*[^A-Za-z0-9]).{${PASSWORD_MIN_LENGTH},${PASSWORD_MAX_LENGTH}}$`,
  description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters with at least one lowercase letter, one uppercase letter, one digit and one symbol`,
  min_length: PASSWORD_MIN_LENGTH,
} as const;

const compiled = new RegExp(passwordRule.regex, 'u');

export function isStrongPassword(password: string): boolean {
  return compiled.test(password);
}
