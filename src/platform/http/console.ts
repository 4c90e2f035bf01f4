import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { htmlPage, sendHtml } from './html.js';

/**
 * The web console's files (a static build of console/, see scripts/build-console.mjs). Paths that
 * name a built file are that file; any other path outside /api/ is the console's index.html, so
 * its own router shows the page (customer console at /, staff console at /backoffice). Routes the
 * server defines (/api/..., /docs, /sandbox/...) win over this catch-all.
 */
const csp = (nonce: string) =>
  [
    "default-src 'self'",
    "img-src 'self' data:",
    // the nonce is for the <style> elements a component makes at run time (the terminal of the VM console)
    `style-src 'self' 'nonce-${nonce}'`,
    "connect-src 'self'",
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

export async function registerConsole(app: FastifyInstance, opts: { dir: string }): Promise<void> {
  const root = path.resolve(opts.dir);
  const index = path.join(root, 'index.html');
  await app.register(fastifyStatic, { root, serve: false, wildcard: false, index: false, dotfiles: 'deny', cacheControl: false });

  const sendIndex = async (reply: FastifyReply) => {
    if (!existsSync(index)) {
      // the first build of the console is still running (npm start builds it beside the server)
      reply.header('retry-after', '3');
      return sendHtml(reply, 503, htmlPage('Starting', '<h1>The console is being built</h1><p>Reload this page in a few seconds.</p>'));
    }
    // a fresh nonce for each page, handed to its scripts in a <meta> (browsers hide a nonce attribute from CSS selectors)
    const nonce = randomBytes(16).toString('base64');
    const html = (await readFile(index, 'utf8')).replace('</head>', `<meta property="csp-nonce" nonce="${nonce}" /></head>`);
    return reply.header('cache-control', 'no-cache').header('content-security-policy', csp(nonce)).type('text/html; charset=utf-8').send(html);
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(request.url.split('?')[0]!);
    } catch {
      return reply.callNotFound();
    }
    if (pathname === '/api' || pathname.startsWith('/api/')) return reply.callNotFound();
    const file = path.resolve(root, `.${pathname}`);
    const inside = file === root || file.startsWith(root + path.sep);
    if (inside && path.extname(file) !== '' && existsSync(file)) {
      // file names under assets/ carry their content hash: cached for good
      const immutable = pathname.startsWith('/assets/');
      reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      return reply.sendFile(path.relative(root, file), root);
    }
    // a missing script or style is a 404, never the page in its place
    if (pathname.startsWith('/assets/') || !inside) return reply.callNotFound();
    return sendIndex(reply);
  };
  app.get('/', { schema: { hide: true } }, handler);
  app.get('/*', { schema: { hide: true } }, handler);
}
