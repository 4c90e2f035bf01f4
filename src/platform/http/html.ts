import type { FastifyReply, FastifyRequest } from 'fastify';
import { assertOwnOrigin } from './same-origin.js';

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
 * CSRF guard for the POST of a server-rendered form: the service's one cross-origin rule
 * (same-origin.ts), which app.ts also applies to every write before the route runs.
 */
export function assertSameOrigin(request: FastifyRequest, publicUrl: string): void {
  assertOwnOrigin(request, publicUrl);
}
