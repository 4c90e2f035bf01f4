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
          apiToken: { type: 'http', scheme: 'bearer', description: 'A personal access token (chp_pat_…); each operation lists the scope it needs' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
    // A route whose schema says `'x-optional-body': true` takes no body as `{}` (its own preValidation does that).
    transformObject: (doc) => {
      const spec = (doc as { openapiObject?: { paths?: Record<string, Record<string, any>> } }).openapiObject;
      for (const item of Object.values(spec?.paths ?? {})) {
        for (const op of Object.values(item)) {
          if (op && typeof op === 'object' && op['x-optional-body']) {
            if (op.requestBody) op.requestBody.required = false;
            delete op['x-optional-body'];
          }
        }
      }
      return spec as never;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
