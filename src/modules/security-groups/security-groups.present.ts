import { syncView } from '../../platform/lifecycle/index.js';
import type { RuleTypeRow, SecurityGroupRuleRow } from './security-groups.repository.js';
import type { GroupDetail } from './security-groups.service.js';

/* The security groups module's answers: every row the API shows is mapped here, in one place. */

export const ruleView = (r: SecurityGroupRuleRow) => ({
  id: r.id,
  direction: r.direction,
  rule_type_id: r.ruleTypeId,
  protocol: r.protocol,
  port_from: r.portFrom,
  port_to: r.portTo,
  remote_cidr: r.remoteCidr,
  created_at: r.createdAt.toISOString(),
});

export const ruleTypeView = (t: RuleTypeRow) => ({ id: t.id, name: t.name, protocol: t.protocol, description: t.description, default_port: t.defaultPort });

export const groupView = ({ group, rules, vmIds, sync }: GroupDetail) => ({
  uuid: group.uuid,
  name: group.name,
  description: group.description,
  location_id: group.locationId,
  rules: rules.map(ruleView),
  vm_ids: vmIds,
  synced: sync.state === 'synced',
  sync: syncView(sync),
  created_at: group.createdAt.toISOString(),
  updated_at: group.updatedAt.toISOString(),
});
