import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';
import { vms } from '../compute/compute.tables.js';

/** Load balancers in the resource lifecycle (platform/lifecycle). */
export const LOAD_BALANCER_KIND = 'load_balancer';

export const LB_STATUSES = ['Creating', 'Active', 'Error', 'Deleting', 'Deleted'] as const;
export type LbStatus = (typeof LB_STATUSES)[number];
export type LbAlgorithm = 'round_robin' | 'least_connections';
export type LbProtocol = 'http' | 'https' | 'tcp' | 'udp';

export interface ForwardingRule {
  entry_protocol: LbProtocol;
  entry_port: number;
  target_protocol: LbProtocol;
  target_port: number;
}
export interface HealthCheck {
  protocol: 'http' | 'https' | 'tcp';
  port: number;
  path: string | null;
}

/**
 * A customer's load balancer. Creating → Active by its lifecycle job, which applies the whole
 * desired state at the datacenter after every change. `price_key` is what the hourly charge bills
 * (the load_balancer component).
 */
export const loadBalancers = pgTable(
  'load_balancers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    uuid: uuid('uuid').notNull().defaultRandom(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    locationId: integer('location_id')
      .notNull()
      .references(() => locations.id),
    name: text('name').notNull(),
    algorithm: text('algorithm').$type<LbAlgorithm>().notNull(),
    forwardingRules: jsonb('forwarding_rules').$type<ForwardingRule[]>().notNull(),
    healthCheck: jsonb('health_check').$type<HealthCheck | null>(),
    status: text('status').$type<LbStatus>().notNull().default('Creating'),
    address: text('address'),
    externalId: text('external_id'),
    priceKey: text('price_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('load_balancers_uuid_unique').on(t.uuid),
    index('load_balancers_customer_idx').on(t.customerId, t.status),
    check('load_balancers_status', sql`${t.status} in ('Creating', 'Active', 'Error', 'Deleting', 'Deleted')`),
    check('load_balancers_algorithm', sql`${t.algorithm} in ('round_robin', 'least_connections')`),
  ],
);

export const loadBalancerTargets = pgTable(
  'load_balancer_targets',
  {
    loadBalancerId: integer('load_balancer_id')
      .notNull()
      .references(() => loadBalancers.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => vms.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.loadBalancerId, t.vmId] }), index('load_balancer_targets_vm_idx').on(t.vmId)],
);
