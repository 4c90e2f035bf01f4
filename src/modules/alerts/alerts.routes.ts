import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, MessageOnly, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { alertView, policyView } from './alerts.present.js';
import { Alert, AlertListQuery, AlertPolicy, CreatePolicyBody, POLICY_LIMIT_TEXT, PolicyParams, UpdatePolicyBody } from './alerts.schemas.js';
import type { AlertsService, PolicyInput } from './alerts.service.js';

const tags = ['Alerts'];

/** /api/compute/alerts…: metric alert policies of the account's VMs and their incidents (docs/api.md, "Alerts"). */
export const alertRoutes: FastifyPluginAsyncTypebox<{ alerts: AlertsService }> = async (app, { alerts }) => {
  app.get(
    '/alerts/policies',
    { schema: { tags, summary: 'My metric alert policies, oldest first', querystring: PageQuery, response: { 200: Paginated(AlertPolicy), ...errorResponses(400, 401) } } },
    async (req) => {
      const p = pageOf(req.query);
      const page = await alerts.listPolicies(customerOf(req).customerId, p);
      return paginated('OK', p, { items: page.items.map((x) => policyView(x, page.open.get(x.id) ?? 0)), total: page.total });
    },
  );

  app.post(
    '/alerts/policies',
    {
      config: { activity: 'alert_policy.created' },
      schema: {
        tags,
        summary: 'Creates a metric alert policy for one VM or every VM of the account',
        description: `Evaluated every minute on the collected per-minute points. ${POLICY_LIMIT_TEXT} 404 for a vm_id that is not one of the account's VMs (or is Deleted).`,
        body: CreatePolicyBody,
        response: { 201: Envelope(AlertPolicy), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      const created = await alerts.createPolicy(customerOf(req).customerId, req.body as PolicyInput);
      return reply.code(201).send({ message: 'Alert policy created', data: policyView(created) });
    },
  );

  app.get(
    '/alerts/policies/:id',
    { schema: { tags, summary: 'One alert policy', params: PolicyParams, response: { 200: Envelope(AlertPolicy), ...errorResponses(401, 404) } } },
    async (req) => {
      const { customerId } = customerOf(req);
      const p = await alerts.getPolicy(customerId, req.params.id);
      return { message: 'OK', data: policyView(p, (await alerts.openCounts(customerId)).get(p.id) ?? 0) };
    },
  );

  app.patch(
    '/alerts/policies/:id',
    {
      config: { activity: 'alert_policy.updated' },
      schema: {
        tags,
        summary: 'Changes an alert policy (its VM and metric stay)',
        description: 'A change of the condition (comparison, threshold, aggregation, window) or disabling it closes its open alerts without a notice (resolution policy_changed); the next evaluation judges afresh.',
        params: PolicyParams,
        body: UpdatePolicyBody,
        response: { 200: Envelope(AlertPolicy), ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => {
      const { customerId } = customerOf(req);
      const p = await alerts.updatePolicy(customerId, req.params.id, req.body as Parameters<AlertsService['updatePolicy']>[2]);
      return { message: 'Alert policy updated', data: policyView(p, (await alerts.openCounts(customerId)).get(p.id) ?? 0) };
    },
  );

  app.delete(
    '/alerts/policies/:id',
    {
      config: { activity: 'alert_policy.deleted' },
      schema: { tags, summary: 'Deletes an alert policy; its open alerts close without a notice, its history stays', params: PolicyParams, response: { 200: MessageOnly, ...errorResponses(401, 404) } },
    },
    async (req) => {
      await alerts.deletePolicy(customerOf(req).customerId, req.params.id);
      return { message: 'Alert policy deleted', data: null };
    },
  );

  app.get(
    '/alerts',
    {
      schema: {
        tags,
        summary: 'My alerts (incidents), newest first; vm_id, policy_id and status narrow them',
        querystring: AlertListQuery,
        response: { 200: Paginated(Alert), ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => {
      const p = pageOf(req.query);
      const q = req.query;
      const page = await alerts.listAlerts({ customerId: customerOf(req).customerId, vmId: q.vm_id, policyId: q.policy_id, open: q.status === undefined ? undefined : q.status === 'firing' }, p);
      return paginated('OK', p, { items: page.items.map(alertView), total: page.total });
    },
  );
};
