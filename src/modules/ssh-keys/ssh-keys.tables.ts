import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';

/**
 * A customer's SSH public key. The key is kept as OpenSSH writes it (`type base64 [comment]`), with
 * the fingerprint `ssh-keygen -l` shows; a VM created with it gets a copy, so deleting or renaming
 * the key later changes no machine.
 */
export const sshKeys = pgTable(
  'ssh_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    publicKey: text('public_key').notNull(),
    /** e.g. ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256 */
    keyType: text('key_type').notNull(),
    bits: integer('bits').notNull(),
    /** SHA256:… as `ssh-keygen -l` prints it */
    fingerprint: text('fingerprint').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ssh_keys_fingerprint_unique').on(t.customerId, t.fingerprint),
    uniqueIndex('ssh_keys_name_unique').on(t.customerId, sql`lower(${t.name})`),
    index('ssh_keys_customer_idx').on(t.customerId, t.id),
  ],
);

export const sshKeysConstraintMeanings = {
  ssh_keys_fingerprint_unique: { code: 'SSH_KEY_EXISTS', message: 'You already have this SSH key' },
  ssh_keys_name_unique: { code: 'NAME_TAKEN', message: 'You already have an SSH key with this name' },
} as const;
