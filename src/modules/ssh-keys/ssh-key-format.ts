import sshpk from 'sshpk';
import { ValidationError } from '../../platform/errors.js';

/** What a valid public key is, as stored and shown. */
export interface ParsedSshKey {
  /** `type base64 [comment]`, one line */
  publicKey: string;
  keyType: string;
  bits: number;
  fingerprint: string;
  comment: string | null;
}

const SSH_TYPE: Record<string, (bits: number) => string> = {
  ed25519: () => 'ssh-ed25519',
  rsa: () => 'ssh-rsa',
  ecdsa: (bits) => `ecdsa-sha2-nistp${bits}`,
};

/**
 * A comment is printable text: letters, marks, digits, punctuation, symbols and the plain space.
 * Control characters (tab, newline, DEL, C1), format characters, unassigned code points and
 * noncharacters such as U+FFFE are refused: the key line is copied into the guest's
 * cloud-init YAML and the libvirt domain XML, where they break the document or mean something else.
 */
const PRINTABLE_COMMENT = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u;

/** RSA keys shorter than this are refused (OpenSSH refuses them too since 8.8's defaults). */
export const MIN_RSA_BITS = 2048;

/**
 * Parses one OpenSSH public key line (what `~/.ssh/id_ed25519.pub` holds). Refuses private keys,
 * several keys, DSA and RSA under 2048 bits: a guest's sshd would refuse those, and the customer
 * would find out only when the login fails.
 */
export function parseSshPublicKey(text: string): ParsedSshKey {
  const line = text.trim();
  const fail = (message: string) => new ValidationError('Invalid SSH public key', [{ field: 'public_key', message }]);
  if (/PRIVATE KEY/.test(line)) throw fail('this is a private key: paste the public key (the .pub file)');
  if (/[\r\n]/.test(line)) throw fail('one key per entry');
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(line, 'ssh');
  } catch {
    throw fail('not an OpenSSH public key (expected e.g. "ssh-ed25519 AAAA… you@host")');
  }
  const typeOf = SSH_TYPE[key.type];
  if (!typeOf) throw fail(`${key.type} keys are not accepted; use ed25519, ECDSA or RSA of ${MIN_RSA_BITS} bits or more`);
  if (key.type === 'rsa' && key.size < MIN_RSA_BITS) throw fail(`RSA keys need at least ${MIN_RSA_BITS} bits (this one has ${key.size})`);
  const comment = key.comment && key.comment !== '(unnamed)' ? key.comment : null;
  if (comment !== null && !PRINTABLE_COMMENT.test(comment)) {
    throw fail('the comment after the key may hold printable characters and spaces only (no control characters, tabs or noncharacters)');
  }
  key.comment = comment ?? '';
  return {
    publicKey: key.toString('ssh').trim(),
    keyType: typeOf(key.size),
    bits: key.size,
    fingerprint: key.fingerprint('sha256').toString(),
    comment,
  };
}
