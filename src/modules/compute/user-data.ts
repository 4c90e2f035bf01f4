import { parseDocument } from 'yaml';
import { ValidationError } from '../../platform/errors.js';

/** The most user data a VM takes, in bytes of UTF-8 (what peers such as EC2 and DigitalOcean allow). */
export const MAX_USER_DATA_BYTES = 64 * 1024;

export type UserDataKind = 'cloud-config' | 'script';

/**
 * Checks the cloud-init user data of a new VM and says what it is: a cloud-config (first line
 * `#cloud-config`, then one YAML mapping) or a script (first line `#!`). Anything else would be
 * ignored or misread by cloud-init on the guest, and the customer would find out only when the
 * machine came up without it, so it is refused here naming the field.
 */
export function checkUserData(text: string): UserDataKind {
  const fail = (message: string) => new ValidationError('Invalid user data', [{ field: 'user_data', message }]);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_USER_DATA_BYTES) throw fail(`at most ${MAX_USER_DATA_BYTES} bytes (64 KiB); this is ${bytes}`);
  if (text.includes('\0')) throw fail('must be text (it holds a NUL character)');
  if (text.startsWith('#!')) return 'script';
  if (!/^#cloud-config[ \t]*\r?(\n|$)/.test(text)) throw fail('must start with "#cloud-config" (a cloud-config) or "#!" (a script)');
  // PyYAML, which cloud-init reads it with, speaks YAML 1.1 and lets a later duplicate key win
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  // a tag PyYAML's safe loader does not know (!!python/object …) fails to load on the guest
  const error = doc.errors[0] ?? doc.warnings.find((w) => w.code === 'TAG_RESOLVE_FAILED');
  if (error) throw fail(error.code === 'MULTIPLE_DOCS' ? 'a cloud-config is one YAML document (no second "---")' : `not valid YAML: ${error.message.split('\n')[0]!.replace(/:$/, '')}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100, mapAsMap: true });
  } catch (err) {
    // an alias to no anchor, or aliases that multiply past reason (a "billion laughs")
    throw fail(`not valid YAML: ${(err as Error).message}`);
  }
  if (!(value instanceof Map)) throw fail('a cloud-config must be a YAML mapping of keys (packages:, runcmd:, write_files: …)');
  return 'cloud-config';
}
