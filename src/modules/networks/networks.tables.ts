import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';

/** Stored statuses; the customer reads `Active` as `ACTIVE` (docs/api.md, "Private networks"). */
export const NETWORK_STATUSES = ['Creating', 'Active', 'Deleted'] as const;
export type NetworkStatus = (typeof NETWORK_STATUSES)[number];
export const NETWORK_TASKS = ['create', 'delete'] as const;
export type NetworkTask = (typeof NETWORK_TASKS)[number];
export const IP_TASKS = ['attach', 'detach'] as const;
export type IpTask = (typeof IP_TASKS)[number];
/** Networks and their addresses in the resource lifecycle (platform/lifecycle). */
export const NETWORK_KIND = 'network';
export const IP_KIND = 'private_ip';

/**
 * A customer's private network. `task` is the datacenter work it waits for: `create` while
 * Creating, `delete` after the soft delete (status Deleted, `deleted_at` set) until the datacenter
 * has removed it. `network_ip`/`cidr` never overlap the customer's other networks (chosen under
 * the customer's row lock).
 */
export const privateNetworks = pgTable(
  'private_networks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    networkIp: text('network_ip').notNull(),
    cidr: integer('cidr').notNull(),
    status: text('status').$type<NetworkStatus>().notNull().default('Creating'),
    task: text('task').$type<NetworkTask>(),
    externalId: text('external_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('private_networks_uuid_unique').on(t.uuid),
    index('private_networks_customer_idx').on(t.customerId, t.status),
    check('private_networks_status', sql`${t.status} in ('Creating', 'Active', 'Deleted')`),
    check('private_networks_task', sql`${t.task} is null or ${t.task} in ('create', 'delete')`),
    check('private_networks_cidr', sql`${t.cidr} between 16 and 30`),
  ],
);

/**
 * One private address of an instance on a network. The row holds the address from the assign
 * until the datacenter has detached it (task `detach`), then it is deleted; a VM that is deleted
 * loses its rows when it reaches Deleted. Unique per network: an address, and one per instance.
 */
export const privateIps = pgTable(
  'private_ips',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    networkId: integer('network_id')
      .notNull()
      .references(() => privateNetworks.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    ip: text('ip').notNull(),
    ipDescription: text('ip_description').notNull().default(''),
    instanceId: integer('instance_id').notNull(),
    instanceType: text('instance_type').notNull().default('VM'),
    posX: integer('pos_x').notNull().default(0),
    posY: integer('pos_y').notNull().default(0),
    /** true once the datacenter has attached the address to the instance */
    isRegistered: boolean('is_registered').notNull().default(false),
    task: text('task').$type<IpTask>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('private_ips_network_ip_unique').on(t.networkId, t.ip),
    uniqueIndex('private_ips_network_instance_unique').on(t.networkId, t.instanceType, t.instanceId),
    index('private_ips_customer_idx').on(t.customerId),
    index('private_ips_instance_idx').on(t.instanceType, t.instanceId),
    check('private_ips_task', sql`${t.task} is null or ${t.task} in ('attach', 'detach')`),
    check('private_ips_instance_type', sql`${t.instanceType} in ('VM')`),
  ],
);

export const networksConstraintMeanings = {
  private_ips_network_ip_unique: { code: 'CONFLICT', message: 'The address was taken at the same moment; please try again' },
  private_ips_network_instance_unique: { code: 'ALREADY_ASSIGNED', message: 'This instance already has an address on this network' },
} as const;
