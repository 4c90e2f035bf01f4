export { hashPassword, verifyPassword, verifyAgainstDummy } from './passwords.js';
export { encryptSecret, decryptSecret } from './encryption.js';
export {
  randomToken,
  sha256Hex,
  hmacHex,
  safeEqualHex,
  randomDigits,
  randomRecoveryCode,
  RECOVERY_CODE_PATTERN,
  hashRecoveryCode,
  newSalt,
  newRecoveryCodes,
  findRecoveryCode,
  type StoredRecoveryCode,
} from './tokens.js';
export { newTotpSecret, totpUrl, matchTotp, totpCode, TOTP_PERIOD_SECONDS } from './totp.js';
export { signJwt, verifyJwt, type JwtClaims } from './jwt.js';
