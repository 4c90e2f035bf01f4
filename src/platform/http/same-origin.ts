import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../errors.js';

/** The methods that change something; GET and HEAD never do. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Sec-Fetch-Site values of a request the service's own pages (or the person, typing a URL) made. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * The origins whose pages may write: the one the request was addressed to (its scheme and Host,
 * X-Forwarded-* included when TRUST_PROXY trusts the proxy) and PUBLIC_URL's. Another port of the
 * same host or a sibling subdomain is another origin, though the browser calls it "same site".
 */
function ownOrigins(request: FastifyRequest, publicUrl: string): string[] {
  return [originOf(`${request.protocol}://${request.host}`), originOf(publicUrl)].filter((o) => o !== 'invalid' && o !== 'null');
}

/** The origin of a URL in the form browsers write it (lowercase host, default port left out), or 'invalid'. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid';
  }
}

/**
 * Whether a browser says the request comes from a page of another origin. The browser's own
 * statements, strongest first: `Origin` (a browser sets it on every cross-origin write and no page
 * can forge it); when it is absent or `null` (an opaque origin, or a page under
 * `Referrer-Policy: no-referrer`), `Sec-Fetch-Site`; when neither is there, `Referer`. A request
 * that carries none of the three (curl, a server-to-server call, a browser older than 2019) is
 * not from another page: every browser in use names the origin of a cross-origin write.
 */
export function isCrossOrigin(request: FastifyRequest, publicUrl: string): boolean {
  const own = ownOrigins(request, publicUrl);
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '' && origin !== 'null') return !own.includes(originOf(origin));
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== '') return !OWN_FETCH_SITES.has(site.toLowerCase());
  // `Origin: null` without fetch metadata: some opaque context of a browser, never one of our pages
  if (origin === 'null') return true;
  const referer = request.headers.referer;
  if (typeof referer === 'string' && referer !== '') return !own.includes(originOf(referer));
  return false;
}

export function crossOriginRefusal(): ForbiddenError {
  return new ForbiddenError('A write must be sent from its own page: this one came from a page of another origin (scripts use an API token)', 'CROSS_ORIGIN_REQUEST');
}

/** Refuses (403 CROSS_ORIGIN_REQUEST) a request a browser says another origin's page sent. */
export function assertOwnOrigin(request: FastifyRequest, publicUrl: string): void {
  if (isCrossOrigin(request, publicUrl)) throw crossOriginRefusal();
}

/**
 * The CSRF rule of the whole service (docs/api.md, "Conventions (all routes)", cross-origin writes): every write
 * (POST/PUT/PATCH/DELETE) a browser says a page of another origin sent is refused with 403
 * before anything reads its body or session. Cookies are sent with such a request whenever the
 * page is "same site" (another port of this host, a sibling subdomain), which SameSite=Lax does
 * not stop. A request with an `Authorization` header is exempt: no page of another origin can
 * set that header without a CORS preflight, which this service never grants, and its credential
 * is the token, not a cookie.
 */
export function refuseCrossOriginWrites(app: FastifyInstance, opts: { publicUrl: string }): void {
  app.addHook('onRequest', async (request) => {
    if (!WRITES.has(request.method) || request.headers.authorization !== undefined) return;
    assertOwnOrigin(request, opts.publicUrl);
  });
}
