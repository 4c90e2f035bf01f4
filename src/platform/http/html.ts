import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../errors.js';

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small self-contained HTML page (no scripts, no outside resources). `body` is HTML the caller
 * built with escapeHtml; the title is escaped here.
 */
export function htmlPage(title: string, body: string, banner?: string): string {
  const top = banner ? `<p style="background:#fef3c7;padding:6px 10px">${escapeHtml(banner)}</p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"></head><body style="font-family:sans-serif;max-width:560px;margin:3em auto">${top}${body}</body></html>`;
}

/**
 * Sends a server-rendered page: never cached (it may carry a one-time token), no scripts or
 * outside resources allowed, not framable, no Referer (the URL may carry a token).
 */
export function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    .send(html);
}

/**
 * CSRF guard for the POST of a server-rendered form: a browser names the page's origin in
 * `Origin` (or, failing that, `Referer`); a request that names another origin is refused.
 * Requests without either (curl, a test) pass: the forms' one-time tokens and SameSite=Lax
 * cookies are the other half of the defence.
 */
export function assertSameOrigin(request: FastifyRequest, publicUrl: string): void {
  const allowed = new URL(publicUrl).origin;
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  let from: string | undefined;
  if (typeof origin === 'string' && origin !== '') from = origin;
  else if (typeof referer === 'string' && referer !== '') {
    try {
      from = new URL(referer).origin;
    } catch {
      from = 'invalid';
    }
  }
  if (from !== undefined && from !== allowed) throw new ForbiddenError('This form must be sent from its own page', 'CROSS_ORIGIN_FORM');
}
