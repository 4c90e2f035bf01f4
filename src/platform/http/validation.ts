import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { ValidationError } from '../errors.js';

type ValidatorFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']>;
interface RouteSchema {
  schema: unknown;
  httpPart?: string;
}
type Compile = (route: RouteSchema) => unknown;

/**
 * Query strings, path parameters and headers arrive as text, so their validators coerce
 * (`?page=2` → 2). JSON bodies are typed by the client: their validators coerce nothing, so
 * `"amount": "100"`, `"amount": true` or `"name": 123` are 400, not silently converted.
 */
export function strictBodyValidators(): ValidatorFactory {
  const pool = AjvCompiler();
  const factory = (externalSchemas: Parameters<ValidatorFactory>[0], options: Parameters<ValidatorFactory>[1]) => {
    const coercing = pool(externalSchemas, options) as unknown as Compile;
    const custom = options && 'customOptions' in options ? options.customOptions : {};
    const strict = pool(externalSchemas, { ...options, customOptions: { ...custom, coerceTypes: false } } as typeof options) as unknown as Compile;
    return ((route: RouteSchema) => (route.httpPart === 'body' ? strict(route) : coercing(route))) as unknown as ReturnType<ValidatorFactory>;
  };
  return factory as ValidatorFactory;
}

/** The path of the first string holding a NUL character, or undefined. Depth-limited: bodies are small. */
function nulPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(value)' : undefined;
  if (depth > 32 || value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulPath(inner, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold NUL: refuse it at the edge (400) in bodies, query strings and
 * path parameters, before any schema or handler sees it.
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = nulPath(part, '');
      if (field) throw new ValidationError('Validation failed', [{ field, message: 'must not contain NUL characters' }]);
    }
  });
}
