import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let doc: any;
before(async () => {
  t = await buildTestApp({ worker: false });
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  assert.equal(res.statusCode, 200);
  doc = res.json();
});
after(() => t.close());

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(d: any): { method: string; path: string; op: any }[] {
  return Object.entries<any>(d.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ method, path, op })),
  );
}

/** Every Schema Object of the document (components, parameters, bodies, responses) with where it is. */
function schemas(d: any): { at: string; schema: any }[] {
  const out: { at: string; schema: any }[] = [];
  for (const [name, schema] of Object.entries<any>(d.components?.schemas ?? {})) out.push({ at: `components.schemas.${name}`, schema });
  for (const { method, path, op } of operations(d)) {
    const at = `${method.toUpperCase()} ${path}`;
    for (const p of op.parameters ?? []) if (p.schema) out.push({ at: `${at} parameter ${p.name}`, schema: p.schema });
    for (const [type, media] of Object.entries<any>(op.requestBody?.content ?? {})) if (media.schema) out.push({ at: `${at} body ${type}`, schema: media.schema });
    for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
      for (const [type, media] of Object.entries<any>(response.content ?? {})) if (media.schema) out.push({ at: `${at} ${status} ${type}`, schema: media.schema });
    }
  }
  return out;
}

/** Keys used anywhere inside a value (to find OpenAPI 3.0-only keywords in a 3.1 document). */
function keysIn(value: unknown, key: string, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(k === key ? [path] : []), ...keysIn(v, key, `${path}/${k}`)]);
}

describe('the served OpenAPI document', () => {
  test('is valid OpenAPI 3.1 for a peer validator (@readme/openapi-parser)', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await validate(structuredClone(doc));
    assert.ok(result.valid, JSON.stringify(result, null, 1).slice(0, 3000));
  });

  test('every Schema Object is valid JSON Schema 2020-12 (the dialect of OpenAPI 3.1), with no 3.0-only keyword', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const invalid = schemas(doc)
      .filter(({ schema }) => !ajv.validateSchema(schema))
      .map(({ at }) => `${at}: ${ajv.errorsText(ajv.errors)}`);
    assert.deepEqual(invalid, []);
    assert.deepEqual(keysIn(doc, 'nullable'), [], 'nullable is OpenAPI 3.0; 3.1 writes type null');
    assert.ok(schemas(doc).length > 200);
  });

  test('every write documents the refusal of another origin (403) and of a non-JSON body (415)', () => {
    const writes = operations(doc).filter(({ method }) => ['post', 'put', 'patch', 'delete'].includes(method));
    const missing = writes.flatMap(({ method, path, op }) => [
      ...(String(op.responses?.['403']?.description ?? '').includes('CROSS_ORIGIN_REQUEST') ? [] : [`${method.toUpperCase()} ${path} 403`]),
      ...(path.startsWith('/api/webhook/') || op.responses?.['415'] ? [] : [`${method.toUpperCase()} ${path} 415`]),
    ]);
    assert.deepEqual(missing, []);
    assert.equal(doc.paths['/api/ssh-keys'].post.responses['415'].content['application/json'].schema.$ref, '#/components/schemas/ErrorBody');
    assert.equal(doc.paths['/api/webhook/pgone/callback'].post.responses['415'], undefined, 'the pgone callback reads a form');
  });

  test('every operation states its security; public ones say security: [] and name only declared schemes', () => {
    const declared = new Set(Object.keys(doc.components.securitySchemes));
    const ops = operations(doc);
    assert.ok(ops.length >= 80, `only ${ops.length} operations`);
    const missing = ops.filter(({ op }) => !Array.isArray(op.security)).map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    assert.deepEqual(missing, [], 'operations without security');
    for (const { method, path, op } of ops) {
      for (const requirement of op.security) {
        for (const scheme of Object.keys(requirement)) assert.ok(declared.has(scheme), `${method} ${path} names undeclared scheme ${scheme}`);
      }
    }
    const security = (method: string, path: string) => doc.paths[path][method].security;
    assert.deepEqual(security('get', '/api/lookup/city'), []);
    assert.deepEqual(security('post', '/api/auth/login'), []);
    assert.deepEqual(security('post', '/api/backoffice/auth/login'), []);
    assert.deepEqual(security('post', '/api/webhook/pgone/callback'), []);
    assert.deepEqual(security('get', '/api/inf'), [{ customerCookie: [] }, { apiToken: ['account:read'] }]);
    assert.deepEqual(security('get', '/api/auth/sessions'), [{ customerCookie: [] }], 'account security: never with a token');
    assert.deepEqual(security('get', '/api/backoffice/setting'), [{ backofficeCookie: [] }]);
  });

  test('role permissions are documented as data: [...] with the role in meta', () => {
    const schema = doc.paths['/api/backoffice/admin/roles/{role_name}/permissions'].get.responses['200'].content['application/json'].schema;
    assert.equal(schema.properties.data.type, 'array');
    assert.deepEqual(Object.keys(schema.properties.data.items.properties).sort(), ['assigned', 'description', 'name']);
    assert.deepEqual(Object.keys(schema.properties.meta.properties).sort(), ['locked', 'role']);
  });
});
