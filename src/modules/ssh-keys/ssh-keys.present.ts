import type { SshKeyRow } from './ssh-keys.repository.js';

/* The SSH keys module's answers, mapped in one place. */

export function sshKeyView(k: SshKeyRow) {
  return {
    id: k.id,
    name: k.name,
    public_key: k.publicKey,
    key_type: k.keyType,
    bits: k.bits,
    fingerprint: k.fingerprint,
    created_at: k.createdAt.toISOString(),
    updated_at: k.updatedAt.toISOString(),
  };
}
