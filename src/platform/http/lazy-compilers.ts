import type { FastifyServerOptions } from 'fastify';

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
export type ValidatorFactory = NonNullable<Compilers['buildValidator']>;
export type SerializerFactory = NonNullable<Compilers['buildSerializer']>;

type Fn = ((...args: unknown[]) => unknown) & { errors?: unknown };

/**
 * A function that is compiled the first time it is called. Fastify compiles a validator per
 * request part and a serializer per response status of every route when the server starts; with a
 * few hundred routes that was the largest piece of start-up after the database (about a fifth of
 * the CPU). A route now pays its own compile (a millisecond or two) at its first request.
 * `errors` (where ajv leaves a failed validation's errors) reads through to the compiled function.
 */
function lazy(compile: () => Fn): Fn {
  let compiled: Fn | undefined;
  const run = ((...args: unknown[]) => (compiled ??= compile())(...args)) as Fn;
  Object.defineProperty(run, 'errors', { get: () => compiled?.errors, enumerable: true });
  return run;
}

/** `factory`'s compilers (validators or serializers), each compiling at its first use. */
export function compiledOnFirstUse<F extends ValidatorFactory | SerializerFactory>(factory: F): F {
  return ((externalSchemas: unknown, options: unknown) => {
    const build = (factory as unknown as (s: unknown, o: unknown) => (route: unknown) => Fn)(externalSchemas, options);
    return (route: unknown) => lazy(() => build(route));
  }) as unknown as F;
}
