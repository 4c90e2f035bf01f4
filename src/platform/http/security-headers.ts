import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's header set, worked out once. Every response gets the same security headers, so
 * running helmet's middlewares per request (as @fastify/helmet does) only repeats the same work;
 * helmet stays the one that decides what the headers are.
 */
export function securityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}
