import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { perClientLimit, type PostgresRateLimits } from '../../platform/rate-limit/rate-limit.js';
import { errorResponses } from '../../platform/http/schemas.js';
import type { GatewayName } from '../../integrations/payment-gateways/index.js';
import { CallbackOk, RedirectParams, RedirectQuery } from './billing.schemas.js';
import type { TopupCallbacksService } from './topup-callbacks.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the body as received, kept on the callback routes for signature checks and the audit trail */
    rawBody?: string;
  }
}

const tags = ['Payments'];
const noSession = { public: true, allowInMaintenance: true };

/** The body is read as text (its signature is over the raw bytes) and parsed leniently: the adapter validates it. */
function keepRawBody(app: Parameters<FastifyPluginAsyncTypebox>[0]) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (req, body, done) => {
    req.rawBody = body as string;
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, null);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (req, body, done) => {
    req.rawBody = body as string;
    const fields: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(body as string)) {
      const prev = fields[k];
      fields[k] = prev === undefined ? v : ([] as string[]).concat(prev, v);
    }
    done(null, fields);
  });
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (req, body, done) => {
    req.rawBody = body as string;
    done(null, null);
  });
}

export interface PaymentCallbackRoutesOptions {
  payments: TopupCallbacksService;
  frontendUrl: string | undefined;
  /**
   * The console is served by this process (no FRONTEND_URL of its own): the return lands on the
   * address the browser came back on (a relative redirect), which is the one the top-up started from.
   */
  consoleHere?: boolean;
  /** WEBHOOK_RATE_LIMIT_PER_MIN, counted per client IP in PostgreSQL when `rateLimits` is given */
  rateLimitPerMin: number;
  rateLimits?: PostgresRateLimits;
}

const CALLBACK_PATH = /^\/api\/webhook\/(pgone|pgtwo)\/callback$/;

/**
 * Server-to-server callbacks of the gateways and the browser's return from the payment page (docs/api.md, "Top-ups and the wallet").
 * The per-IP limit counts every request except a callback whose signature is valid: only the
 * gateway can sign one, and counting the gateway's own burst in PostgreSQL (one row per IP, which
 * every callback would update) costs as much as handling a callback. Bad signatures, malformed
 * bodies and the return page are counted as before (docs/api.md, "Conventions").
 */
export const paymentCallbackRoutes: FastifyPluginAsyncTypebox<PaymentCallbackRoutesOptions> = async (app, { payments, frontendUrl, consoleHere, rateLimitPerMin, rateLimits }) => {
  await app.register(rateLimit, {
    ...perClientLimit('payment-webhooks', rateLimitPerMin, rateLimits),
    // after the body is read, so the signature can be checked (the check is a local HMAC)
    hook: 'preHandler',
    allowList: (req) => {
      const gateway = CALLBACK_PATH.exec(req.routeOptions.url ?? '')?.[1] as GatewayName | undefined;
      return gateway !== undefined && payments.isSigned(gateway, { rawBody: req.rawBody ?? '', body: req.body, headers: req.headers });
    },
  });
  await app.register(async (callbacks) => {
    keepRawBody(callbacks);
    for (const gateway of ['pgone', 'pgtwo'] as const satisfies GatewayName[]) {
      callbacks.post(
        `/api/webhook/${gateway}/callback`,
        {
          config: noSession,
          schema: {
            tags,
            summary: `Payment callback of ${gateway}`,
            description:
              gateway === 'pgone'
                ? 'application/x-www-form-urlencoded: merchantOrderId (invoice UUID), amount, resultCode (00 success, 01 failed), signature = hex HMAC-SHA256(PGONE_API_KEY, merchantCode + amount + merchantOrderId). Repeats answer 200.'
                : 'application/json: { id, external_id (invoice UUID), amount, status: PAID | FAILED | EXPIRED, paid_at }, header X-Callback-Signature = hex HMAC-SHA256(PGTWO_CALLBACK_SECRET, raw body). Repeats answer 200.',
            response: { 200: CallbackOk, ...errorResponses(400, 401, 404) },
          },
        },
        async (req) => {
          await payments.handleCallback(gateway, { rawBody: req.rawBody ?? '', body: req.body, headers: req.headers }, req.ip);
          return { message: 'OK', data: null };
        },
      );
    }
  });

  app.get(
    '/api/payment/redirect/:gateway',
    {
      config: noSession,
      schema: {
        tags,
        summary: 'Where the gateway sends the browser back',
        description: 'Redirects (302) to /billing/topup?status=... on the address the browser came back on when the console is served here, to FRONTEND_URL/billing/topup?status=... when a separate front end is configured; with neither, a small HTML page states the result.',
        params: RedirectParams,
        querystring: RedirectQuery,
        response: { ...errorResponses(400) },
      },
    },
    async (req, reply) => {
      const { status } = req.query;
      if (consoleHere) return reply.redirect(`/billing/topup?status=${status}`, 302);
      if (frontendUrl) return reply.redirect(`${frontendUrl}/billing/topup?status=${status}`, 302);
      return reply.type('text/html; charset=utf-8').send(resultPage(status));
    },
  );
};

const RESULT_TEXT = {
  success: ['Payment received', 'Thank you. Your wallet is credited as soon as the payment is confirmed, usually within seconds.'],
  failed: ['Payment failed', 'The payment did not go through. No money was taken; you can start a new top-up.'],
  pending: ['Payment pending', 'The payment is not confirmed yet. Your wallet is credited as soon as the gateway confirms it.'],
} as const;

function resultPage(status: keyof typeof RESULT_TEXT): string {
  const [title, text] = RESULT_TEXT[status];
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width,initial-scale=1"></head><body style="font-family:sans-serif;max-width:560px;margin:3em auto"><h1>${title}</h1><p>${text}</p><p data-status="${status}">Status: ${status}</p></body></html>`;
}
