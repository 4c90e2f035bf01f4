import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, MessageOnly, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { AttachBody, CreateGroupBody, CreateRuleBody, GroupParams, Rule, RuleParams, RuleType, SecurityGroup, VmGroupParams, VmParams } from './security-groups.schemas.js';
import type { SecurityGroupsService } from './security-groups.service.js';
import { groupView, ruleTypeView, ruleView } from './security-groups.present.js';

const tags = ['Security groups'];

/** /api/network/security-group (docs/decisions.md §9). Another customer's group is a 404 for every verb. */
export const securityGroupsRoutes: FastifyPluginAsyncTypebox<{ groups: SecurityGroupsService }> = async (app, { groups }) => {
  app.post(
    '/',
    { config: { activity: 'security_group.created' }, schema: { tags, summary: 'Creates a security group', body: CreateGroupBody, response: { 201: Envelope(SecurityGroup), ...errorResponses(400, 401, 409) } } },
    async (req, reply) => reply.status(201).send({ message: 'Security group created', data: groupView(await groups.create(customerOf(req).customerId, req.body)) }),
  );

  app.get('/', { schema: { tags, summary: 'My security groups, newest first', querystring: PageQuery, response: { 200: Paginated(SecurityGroup), ...errorResponses(400, 401) } } }, async (req) => {
    const p = pageOf(req.query);
    const page = await groups.list(customerOf(req).customerId, p);
    return paginated('OK', p, { items: page.items.map(groupView), total: page.total });
  });

  app.get(
    '/rule-types',
    { schema: { tags, summary: 'The firewall rule types a rule may name (kept by staff in the settings)', response: { 200: Envelope(Type.Array(RuleType)), ...errorResponses(401) } } },
    async () => ({ message: 'OK', data: (await groups.ruleTypes()).map(ruleTypeView) }),
  );

  app.get(
    '/:uuid',
    { schema: { tags, summary: 'One security group with its rules and VMs', params: GroupParams, response: { 200: Envelope(SecurityGroup), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'OK', data: groupView(await groups.get(customerOf(req).customerId, req.params.uuid)) }),
  );

  app.delete(
    '/:uuid',
    {
      config: { activity: 'security_group.deleted' },
      schema: {
        tags,
        summary: 'Deletes a security group (409 SECURITY_GROUP_IN_USE while attached to a VM)',
        params: GroupParams,
        response: { 200: MessageOnly, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => {
      await groups.delete(customerOf(req).customerId, req.params.uuid);
      return { message: 'Security group deleted', data: null };
    },
  );

  app.post(
    '/:uuid/rules',
    {
      config: { activity: 'security_group.rule_added' },
      schema: {
        tags,
        summary: 'Adds an ingress or egress rule of a firewall rule type',
        description: "The rule type's protocol decides the ports: tcp/udp need port_from (port_to defaults to it), icmp and any refuse ports.",
        params: GroupParams,
        body: CreateRuleBody,
        response: { 201: Envelope(Rule), ...errorResponses(400, 401, 404) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Rule added', data: ruleView(await groups.addRule(customerOf(req).customerId, req.params.uuid, req.body)) }),
  );

  app.delete(
    '/:uuid/rules/:rule_id',
    { config: { activity: 'security_group.rule_deleted' }, schema: { tags, summary: 'Deletes a rule', params: RuleParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 404) } } },
    async (req) => {
      await groups.deleteRule(customerOf(req).customerId, req.params.uuid, req.params.rule_id);
      return { message: 'Rule deleted', data: null };
    },
  );
};

/** Attach and detach on a VM: /api/compute/vm/{id}/security-groups (docs/decisions.md §9). */
export const vmSecurityGroupsRoutes: FastifyPluginAsyncTypebox<{ groups: SecurityGroupsService }> = async (app, { groups }) => {
  app.post(
    '/vm/:id/security-groups',
    {
      config: { activity: 'vm.security_group_attached' },
      schema: {
        tags,
        summary: 'Attaches a security group to my VM (same location; attaching twice is a no-op)',
        params: VmParams,
        body: AttachBody,
        response: { 200: Envelope(SecurityGroup), ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => ({ message: 'Security group attached', data: groupView(await groups.attach(customerOf(req).customerId, req.params.id, req.body.security_group_uuid)) }),
  );

  app.delete(
    '/vm/:id/security-groups/:uuid',
    { config: { activity: 'vm.security_group_detached' }, schema: { tags, summary: 'Detaches a security group from my VM', params: VmGroupParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 404) } } },
    async (req) => {
      await groups.detach(customerOf(req).customerId, req.params.id, req.params.uuid);
      return { message: 'Security group detached', data: null };
    },
  );
};
