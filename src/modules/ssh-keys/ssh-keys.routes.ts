import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { customerOf } from '../../platform/http/auth.js';
import { paginated, pageOf } from '../../platform/http/pagination.js';
import { Envelope, errorResponses, MessageOnly, PageQuery, Paginated } from '../../platform/http/schemas.js';
import { sshKeyView } from './ssh-keys.present.js';
import { CreateSshKeyBody, RenameSshKeyBody, SshKey, SshKeyParams } from './ssh-keys.schemas.js';
import type { SshKeysService } from './ssh-keys.service.js';

const tags = ['SSH keys'];

/** /api/ssh-keys: the public keys a customer puts on new VMs. Another customer's key is a 404. */
export const sshKeysRoutes: FastifyPluginAsyncTypebox<{ keys: SshKeysService }> = async (app, { keys }) => {
  app.post(
    '',
    {
      config: { activity: 'ssh_key.created' },
      schema: {
        tags,
        summary: 'Adds an SSH public key (validated; its fingerprint is shown)',
        body: CreateSshKeyBody,
        response: { 201: Envelope(SshKey), ...errorResponses(400, 401, 409) },
      },
    },
    async (req, reply) => reply.status(201).send({ message: 'SSH key added', data: sshKeyView(await keys.create(customerOf(req).customerId, req.body)) }),
  );

  app.get('', { schema: { tags, summary: 'My SSH keys, newest first', querystring: PageQuery, response: { 200: Paginated(SshKey), ...errorResponses(400, 401) } } }, async (req) => {
    const p = pageOf(req.query);
    const page = await keys.list(customerOf(req).customerId, p);
    return paginated('OK', p, { items: page.items.map(sshKeyView), total: page.total });
  });

  app.get('/:id', { schema: { tags, summary: 'One SSH key', params: SshKeyParams, response: { 200: Envelope(SshKey), ...errorResponses(400, 401, 404) } } }, async (req) => ({
    message: 'OK',
    data: sshKeyView(await keys.get(customerOf(req).customerId, req.params.id)),
  }));

  app.patch(
    '/:id',
    { config: { activity: 'ssh_key.renamed' }, schema: { tags, summary: 'Renames an SSH key', params: SshKeyParams, body: RenameSshKeyBody, response: { 200: Envelope(SshKey), ...errorResponses(400, 401, 404, 409) } } },
    async (req) => ({ message: 'SSH key renamed', data: sshKeyView(await keys.rename(customerOf(req).customerId, req.params.id, req.body.name)) }),
  );

  app.delete(
    '/:id',
    {
      config: { activity: 'ssh_key.deleted' },
      schema: {
        tags,
        summary: 'Deletes an SSH key (VMs created with it keep it)',
        params: SshKeyParams,
        response: { 200: MessageOnly, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => {
      await keys.delete(customerOf(req).customerId, req.params.id);
      return { message: 'SSH key deleted', data: null };
    },
  );
};
