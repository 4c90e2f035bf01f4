import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customers.tables.js';
import { locations } from '../lookups/lookups.tables.js';
import { firewallRuleTypes } from '../settings/settings.tables.js';
import { vms } from '../compute/compute.tables.js';

/** Security groups in the resource lifecycle (platform/lifecycle). */
export const SECURITY_GROUP_KIND = 'security_group';

/** A customer's security group: its rules and attachments are the desired state the lifecycle applies. */
export const securityGroups = pgTable(
  'security_groups',
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
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('security_groups_uuid_unique').on(t.uuid),
    uniqueIndex('security_groups_name_unique').on(t.customerId, sql`lower(${t.name})`).where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * A rule references its firewall rule type (docs/api.md, "Settings") with a plain foreign key: deleting a rule
 * type that rules still use is refused (409 RULE_TYPE_IN_USE). The protocol is copied at creation.
 */
export const securityGroupRules = pgTable(
  'security_group_rules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    groupId: integer('group_id')
      .notNull()
      .references(() => securityGroups.id),
    direction: text('direction').$type<'ingress' | 'egress'>().notNull(),
    ruleTypeId: integer('rule_type_id').notNull(),
    protocol: text('protocol').$type<'tcp' | 'udp' | 'icmp' | 'any'>().notNull(),
    portFrom: integer('port_from'),
    portTo: integer('port_to'),
    remoteCidr: text('remote_cidr').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'security_group_rules_rule_type_fk', columns: [t.ruleTypeId], foreignColumns: [firewallRuleTypes.id] }),
    index('security_group_rules_group_idx').on(t.groupId),
    index('security_group_rules_type_idx').on(t.ruleTypeId),
    check('security_group_rules_direction', sql`${t.direction} in ('ingress', 'egress')`),
    check(
      'security_group_rules_ports',
      sql`(${t.portFrom} is null and ${t.portTo} is null) or (${t.portFrom} between 1 and 65535 and ${t.portTo} between ${t.portFrom} and 65535)`,
    ),
  ],
);

/** Which VMs a group is attached to. */
export const securityGroupAttachments = pgTable(
  'security_group_attachments',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => securityGroups.id),
    vmId: integer('vm_id')
      .notNull()
      .references(() => vms.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.vmId] }), index('security_group_attachments_vm_idx').on(t.vmId)],
);

export const securityGroupsConstraintMeanings = {
  security_groups_name_unique: { code: 'NAME_TAKEN', message: 'You already have a security group with this name' },
  security_group_rules_rule_type_fk: { code: 'RULE_TYPE_IN_USE', message: 'Security group rules use this firewall rule type; delete those rules first' },
} as const;
