import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
/** The gateways' callbacks read the gateway's own format (the pgone one posts a form). */
const PAYMENT_CALLBACK = /^\/api\/webhook\//;
const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } };
const CROSS_ORIGIN = '`CROSS_ORIGIN_REQUEST`: a browser sent it from a page of another origin (docs/api.md, "Conventions (all routes)", cross-origin writes)';

/** The 403 and 415 answers every write can give, added to what the route's own schema says. */
function documentWriteRules(op: Record<string, any>, jsonOnly: boolean): void {
  const responses = (op.responses ??= {});
  const forbidden = responses['403'];
  if (!forbidden) responses['403'] = { description: CROSS_ORIGIN, content: ERROR_CONTENT };
  else if (!String(forbidden.description ?? '').includes('CROSS_ORIGIN_REQUEST')) {
    forbidden.description = forbidden.description && forbidden.description !== 'Default Response' ? `${forbidden.description}; or ${CROSS_ORIGIN}` : `Not allowed, or ${CROSS_ORIGIN}`;
  }
  if (jsonOnly) responses['415'] ??= { description: '`UNSUPPORTED_MEDIA_TYPE`: the body is not JSON (forms and text are refused)', content: ERROR_CONTENT };
}
/**
 * Swagger UI (5.3x) renders a long document through a window virtualizer: only the operations in
 * view exist in the page, so the find-in-page of the browser finds nothing past the first screen
 * and a reader sees blank space until the list catches up. This plugin puts back Swagger UI's own
 * plain list (every tag, every operation, in the page at once); the document is a few hundred
 * operations, which a browser renders without trouble. The script runs before Swagger UI starts
 * (window.onload), so it wraps the constructor and adds the plugin to what it is given.
 */
const ALL_OPERATIONS_JS = `(function () {
  function AllOperationsPlugin(system) {
    var h = system.React.createElement;
    function AllOperations(p) {
      var tagged = p.specSelectors.taggedOperations();
      var methods = p.specSelectors.validOperationMethods();
      var OperationContainer = p.getComponent('OperationContainer', true);
      var OperationTag = p.getComponent('OperationTag');
      if (tagged.size === 0) return h('h3', null, 'No operations defined in spec!');
      return h('div', null, tagged.map(function (tagObj, tag) {
        var ops = tagObj.get('operations').map(function (op) {
          var path = op.get('path'), method = op.get('method');
          if (methods.indexOf(method) === -1) return null;
          return h(OperationContainer, { key: path + '-' + method, specPath: op.get('specPath'), op: op, path: path, method: method, tag: tag });
        }).toArray();
        return h(OperationTag, { key: 'operation-' + tag, tagObj: tagObj, tag: tag, oas3Selectors: p.oas3Selectors, layoutSelectors: p.layoutSelectors, layoutActions: p.layoutActions, getConfigs: p.getConfigs, getComponent: p.getComponent, specUrl: p.specSelectors.url() },
          h('div', { className: 'operation-tag-content' }, ops));
      }).valueSeq().toArray());
    }
    return { components: { operations: AllOperations } };
  }
  var original = window.SwaggerUIBundle;
  if (!original) return;
  window.SwaggerUIBundle = Object.assign(function (opts) {
    return original(Object.assign({}, opts, { plugins: (opts.plugins || []).concat([AllOperationsPlugin]) }));
  }, original);
})();
`;

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
      // Relative: "Try it out" goes to the address the page was opened on, whichever one that is.
      servers: [{ url: '/' }],
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
    // Every write also documents the answers of the rules all writes follow (403 from another origin, 415 for a non-JSON body).
    transformObject: (doc) => {
      const spec = (doc as { openapiObject?: { paths?: Record<string, Record<string, any>> } }).openapiObject;
      for (const [path, item] of Object.entries(spec?.paths ?? {})) {
        for (const [method, op] of Object.entries(item)) {
          if (!op || typeof op !== 'object') continue;
          if (op['x-optional-body']) {
            if (op.requestBody) op.requestBody.required = false;
            delete op['x-optional-body'];
          }
          if (WRITE_METHODS.has(method)) documentWriteRules(op, !PAYMENT_CALLBACK.test(path));
        }
      }
      return spec as never;
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    theme: { title: 'Cloud Hosting Platform API', js: [{ filename: 'all-operations.js', content: ALL_OPERATIONS_JS }] },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
