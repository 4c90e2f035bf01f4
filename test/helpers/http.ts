import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who asks: a cookie, or the headers to send (a `cookie` among them or not). */
export type As = string | Record<string, string>;

export interface ClientDefaults {
  /** Sent with every request; `as` of a call adds to them (a cookie given as a string replaces theirs). */
  headers?: Record<string, string>;
  /** Put in front of every url. */
  prefix?: string;
}

export interface Client {
  request(method: Method, url: string, payload?: unknown, as?: As): Promise<LightMyRequestResponse>;
  get(url: string, as?: As): Promise<LightMyRequestResponse>;
  delete(url: string, as?: As): Promise<LightMyRequestResponse>;
  post(url: string, payload?: unknown, as?: As): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown, as?: As): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown, as?: As): Promise<LightMyRequestResponse>;
}

/**
 * Requests to a test app through `app.inject`, the one way test files send them:
 * `const { get, post } = client(() => t, () => ({ headers: { cookie: admin.cookie } }))`, then
 * `post('/api/x', body)`, `post('/api/x', body, otherCookie)` or `get('/api/x', { 'user-agent': 'a' })`.
 * Both arguments are functions, read at each request: the app and the cookies are usually made in
 * a `before` hook, after the file's top level has run.
 */
export function client(app: () => TestApp, defaults: () => ClientDefaults = () => ({})): Client {
  const request = (method: Method, url: string, payload?: unknown, as?: As) => {
    const { headers = {}, prefix = '' } = defaults();
    const options: InjectOptions = {
      method,
      url: `${prefix}${url}`,
      headers: typeof as === 'string' ? { ...headers, cookie: as } : { ...headers, ...as },
      ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}),
    };
    return app().app.inject(options);
  };
  return {
    request,
    get: (url, as) => request('GET', url, undefined, as),
    delete: (url, as) => request('DELETE', url, undefined, as),
    post: (url, payload, as) => request('POST', url, payload, as),
    put: (url, payload, as) => request('PUT', url, payload, as),
    patch: (url, payload, as) => request('PATCH', url, payload, as),
  };
}

/**
 * POSTs `payload` as `cookie` and returns the answer's `data`: for a test's set-up, where any answer
 * but a 2xx fails the test, naming the url and the answer.
 */
export async function postData(app: TestApp, cookie: string, url: string, payload: object): Promise<any> {
  const res = await app.app.inject({ method: 'POST', url, headers: { cookie }, payload });
  assert.ok(res.statusCode < 300, `POST ${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
