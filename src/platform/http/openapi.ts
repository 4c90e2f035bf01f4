import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function registerOpenApi(app: FastifyInstance, opts: { publicUrl: string; version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Cloud Hosting Platform API',
        version: opts.version,
        description:
          'Customer and backoffice API. Success bodies are `{ message, data }` (lists add `meta`); errors are `{ message, code, errors?, request_id }`. See docs/api.md.',
      },
      servers: [{ url: opts.publicUrl }],
      components: {
        securitySchemes: {
          customerCookie: { type: 'apiKey', in: 'cookie', name: 'access_token' },
          customerRefreshCookie: { type: 'apiKey', in: 'cookie', name: 'refresh_token' },
          backofficeCookie: { type: 'apiKey', in: 'cookie', name: 'bo_access_token' },
          backofficeRefreshCookie: { type: 'apiKey', in: 'cookie', name: 'bo_refresh_token' },
          sudoToken: { type: 'apiKey', in: 'header', name: 'X-Access-Token' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
