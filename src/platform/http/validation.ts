import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

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
