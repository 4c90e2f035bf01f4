import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, MessageOnly, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { CreateLbBody, LbParams, LbTargetParams, LoadBalancer, TargetsBody, UpdateLbBody } from './load-balancers.schemas.js';
import type { LoadBalancersService } from './load-balancers.service.js';
import { lbView } from './load-balancers.present.js';

const tags = ['Load balancers'];

/** /api/network/load-balancer (docs/decisions.md §9). Another customer's balancer is a 404 for every verb. */
export const loadBalancersRoutes: FastifyPluginAsyncTypebox<{ balancers: LoadBalancersService }> = async (app, { balancers }) => {
  app.post(
    '/',
    {
      config: { activity: 'load_balancer.created' },
      schema: {
        tags,
        summary: 'Creates a load balancer (status Creating; Active once the datacenter has made it)',
        description:
          "loadbalancer_limit is enforced (409 QUOTA_EXCEEDED). Targets must be my VMs in the same location whose tier has the load-balancer switch on, and the balancer must fit each target tier's loadbalance_config (400 TARGET_NOT_ALLOWED).",
        body: CreateLbBody,
        response: { 201: Envelope(LoadBalancer), ...errorResponses(400, 401, 402, 409) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'Load balancer is being created', data: lbView(await balancers.create(customerOf(req).customerId, req.body)) }),
  );

  app.get('/', { schema: { tags, summary: 'My load balancers, newest first', querystring: PageQuery, response: { 200: Paginated(LoadBalancer), ...errorResponses(400, 401) } } }, async (req) => {
    const p = pageOf(req.query);
    const page = await balancers.list(customerOf(req).customerId, p);
    return paginated('OK', p, { items: page.items.map(lbView), total: page.total });
  });

  app.get(
    '/:uuid',
    { schema: { tags, summary: 'One load balancer', params: LbParams, response: { 200: Envelope(LoadBalancer), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'OK', data: lbView(await balancers.get(customerOf(req).customerId, req.params.uuid)) }),
  );

  app.patch(
    '/:uuid',
    {
      config: { activity: 'load_balancer.updated' },
      schema: {
        tags,
        summary: 'Changes the name, algorithm, forwarding rules or health check (null removes it)',
        params: LbParams,
        body: UpdateLbBody,
        response: { 200: Envelope(LoadBalancer), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => ({ message: 'Load balancer updated', data: lbView(await balancers.update(customerOf(req).customerId, req.params.uuid, req.body)) }),
  );

  app.delete(
    '/:uuid',
    { config: { activity: 'load_balancer.deleted' }, schema: { tags, summary: 'Deletes a load balancer (Deleting, then Deleted)', params: LbParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 404, 409) } } },
    async (req) => {
      await balancers.delete(customerOf(req).customerId, req.params.uuid);
      return { message: 'Load balancer is being deleted', data: null };
    },
  );

  app.post(
    '/:uuid/targets',
    {
      config: { activity: 'load_balancer.targets_added' },
      schema: { tags, summary: 'Adds target VMs (adding one twice is a no-op)', params: LbParams, body: TargetsBody, response: { 200: Envelope(LoadBalancer), ...errorResponses(400, 401, 404, 409) } },
    },
    async (req) => ({ message: 'Targets added', data: lbView(await balancers.addTargets(customerOf(req).customerId, req.params.uuid, req.body.vm_ids)) }),
  );

  app.delete(
    '/:uuid/targets/:vm_id',
    { config: { activity: 'load_balancer.target_removed' }, schema: { tags, summary: 'Removes a target VM', params: LbTargetParams, response: { 200: MessageOnly, ...errorResponses(400, 401, 404, 409) } } },
    async (req) => {
      await balancers.removeTarget(customerOf(req).customerId, req.params.uuid, req.params.vm_id);
      return { message: 'Target removed', data: null };
    },
  );
};
