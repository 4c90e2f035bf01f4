import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { customerOf } from '../../platform/http/auth.js';
import { Envelope, errorResponses, MessageOnly } from '../../platform/http/schemas.js';
import { ipView, networkView } from './networks.present.js';
import { AssignBody, CreateNetworkBody, NetworkGraph, NetworkParams, PrivateIp, PrivateNetwork, UnassignParams } from './networks.schemas.js';
import type { NetworksService } from './networks.service.js';

const tags = ['Private networks'];

/** /api/network/private (docs/api.md, "Private networks"; docs/decisions.md §6). */
export const networksRoutes: FastifyPluginAsyncTypebox<{ networks: NetworksService }> = async (app, { networks }) => {
  app.post(
    '',
    {
      config: { activity: 'network.created' },
      schema: {
        tags,
        summary: 'Creates a private network (status Creating; Active once the datacenter has provisioned it)',
        description:
          'The service chooses network_ip inside 10.0.0.0/8 so that it overlaps none of your networks. At most 5 networks (409 QUOTA_EXCEEDED); refused while your account is suspended or its balance is below zero (402 INSUFFICIENT_BALANCE, or ACCOUNT_SUSPENDED for overdue postpaid invoices); an unknown or inactive location is 400 LOCATION_UNAVAILABLE.',
        body: CreateNetworkBody,
        response: { 201: Envelope(PrivateNetwork), ...errorResponses(400, 401, 402, 409) },
      },
    },
    async (req, reply) =>
      reply.status(201).send({
        message: 'Private network is being created; it becomes Active when the datacenter has provisioned it',
        data: networkView(await networks.create(customerOf(req).customerId, req.body)),
      }),
  );

  app.get('', { schema: { tags, summary: 'My private networks', response: { 200: Envelope(Type.Array(PrivateNetwork)), ...errorResponses(401) } } }, async (req) => ({
    message: 'OK',
    data: (await networks.list(customerOf(req).customerId)).map(networkView),
  }));

  app.get(
    '/:uuid',
    { schema: { tags, summary: 'One of my private networks, with its IP occupation', params: NetworkParams, response: { 200: Envelope(PrivateNetwork), ...errorResponses(400, 401, 404) } } },
    async (req) => {
      return { message: 'OK', data: networkView(await networks.detail(customerOf(req).customerId, req.params.uuid)) };
    },
  );

  app.get(
    '/:uuid/ips',
    { schema: { tags, summary: 'The private IP allocations of a network', params: NetworkParams, response: { 200: Envelope(Type.Array(PrivateIp)), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'OK', data: (await networks.ips(customerOf(req).customerId, req.params.uuid)).map(ipView) }),
  );

  app.post(
    '/:uuid/assign',
    {
      config: { activity: 'network.ip_assigned' },
      schema: {
        tags,
        summary: 'Assigns one of my VMs to the network: one free private IP is allocated automatically',
        description:
          'Only when the network is ACTIVE (409 NETWORK_NOT_ACTIVE). The VM must be mine (404), in the network\'s location (400 LOCATION_MISMATCH), Running or Stopped (409 INVALID_VM_STATE), not already on the network (409 ALREADY_ASSIGNED). private_ip_limit counts every address I hold (409 QUOTA_EXCEEDED); a full network is 409 NO_CAPACITY. The address skips the network, gateway (.1) and broadcast addresses; the datacenter attaches it (is_registered becomes true).',
        params: NetworkParams,
        body: AssignBody,
        response: { 200: Envelope(PrivateIp), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => ({
      message: 'Instance assigned; private IP allocated',
      data: ipView(await networks.assign(customerOf(req).customerId, req.params.uuid, { instance_id: req.body.instance_id, instance_type: 'VM' })),
    }),
  );

  app.delete(
    '/:uuid/assign/:instance_id',
    {
      config: { activity: 'network.ip_unassigned' },
      schema: {
        tags,
        summary: 'Unassigns a VM from the network: its private IP is detached and returns to the network',
        description: 'The address stays listed with pending_action detach until the datacenter has detached it. An address still being attached is 409 IP_BUSY; a VM not on the network is 404.',
        params: UnassignParams,
        response: { 200: Envelope(PrivateIp), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => ({ message: 'Instance is being unassigned', data: ipView(await networks.unassign(customerOf(req).customerId, req.params.uuid, req.params.instance_id)) }),
  );

  app.get(
    '/:uuid/graph',
    { schema: { tags, summary: 'The network and its instances as nodes and edges', params: NetworkParams, response: { 200: Envelope(NetworkGraph), ...errorResponses(400, 401, 404) } } },
    async (req) => ({ message: 'OK', data: await networks.graph(customerOf(req).customerId, req.params.uuid) }),
  );

  app.delete(
    '/:uuid',
    {
      config: { activity: 'network.deleted' },
      schema: {
        tags,
        summary: 'Deletes a private network (soft delete; removed at the datacenter by a job)',
        description: 'Refused with 409 NETWORK_IN_USE while any private IP is assigned (unassign every instance first), and 409 NETWORK_BUSY while the network is still Creating.',
        params: NetworkParams,
        response: { 200: MessageOnly, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (req) => {
      await networks.delete(customerOf(req).customerId, req.params.uuid);
      return { message: 'Private network deleted', data: null };
    },
  );
};
