import { Type } from 'typebox';
import { IntId, StrictObject, Timestamp } from '../../platform/http/schemas.js';

export const SshKeyParams = Type.Object({ id: IntId });

const Name = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S', description: 'your label for the key' });

export const CreateSshKeyBody = StrictObject({
  name: Name,
  public_key: Type.String({
    minLength: 1,
    maxLength: 16384,
    description: 'one OpenSSH public key line, as in ~/.ssh/id_ed25519.pub: ed25519, ECDSA, or RSA of 2048 bits or more',
  }),
});

export const RenameSshKeyBody = StrictObject({ name: Name });

export const SshKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  public_key: Type.String({ description: 'the key as OpenSSH writes it' }),
  key_type: Type.String({ description: 'ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, …' }),
  bits: Type.Integer(),
  fingerprint: Type.String({ description: 'SHA256 fingerprint, as `ssh-keygen -l` prints it' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
