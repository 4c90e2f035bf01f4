import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import { guardedLookup, ipLiteralOf, isPublicAddress, systemResolver, type Resolver } from './outbound-guard.js';

/** How long one attempt may take, connection to last byte read. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** How much of an answer is kept for the customer to see. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface OutgoingMessage {
  url: string;
  /** the `webhook-id`: the event's id, the same on every attempt and replay */
  id: string;
  /** when this attempt is made (`webhook-timestamp`) */
  timestamp: Date;
  body: string;
  /** `whsec_…` secrets that sign it: the current one, and the previous one during a rotation's overlap */
  secrets: string[];
}

export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  /** the first KiB of the answer */
  body: string | null;
  /** why there was no answer (refused address, DNS, connection, timeout) */
  error: string | null;
}

/** Standard Webhooks headers; one `v1,` signature per secret, space separated. */
export function signedHeaders(m: Pick<OutgoingMessage, 'id' | 'timestamp' | 'body' | 'secrets'>): Record<string, string> {
  return {
    'webhook-id': m.id,
    'webhook-timestamp': String(Math.floor(m.timestamp.getTime() / 1000)),
    'webhook-signature': m.secrets.map((s) => new Webhook(s).sign(m.id, m.timestamp, m.body)).join(' '),
  };
}

/**
 * Sends one signed delivery over HTTP(S). Redirects are not followed (a 3xx is a failed attempt).
 * With the guard on, an IP-literal URL must be a public address, and a host name is resolved by
 * the connection itself through {@link guardedLookup}, so the address checked is the address used.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly opts: { allowPrivateTargets: boolean; resolver?: Resolver; timeoutMs?: number; userAgent?: string }) {
    this.agent = new Agent({
      connect: { timeout: opts.timeoutMs ?? DELIVERY_TIMEOUT_MS, ...(opts.allowPrivateTargets ? {} : { lookup: guardedLookup(opts.resolver ?? systemResolver) }) },
      keepAliveTimeout: 10_000,
      connections: 64,
    });
  }

  async send(m: OutgoingMessage): Promise<AttemptResult> {
    const started = performance.now();
    const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
    const url = new URL(m.url);
    const literal = ipLiteralOf(url);
    if (!this.opts.allowPrivateTargets && literal !== undefined && !isPublicAddress(literal)) {
      return done({ statusCode: null, body: null, error: `ADDRESS_NOT_ALLOWED: ${literal} is not a public address` });
    }
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        body: m.body,
        headers: { 'content-type': 'application/json', 'user-agent': this.opts.userAgent ?? 'CloudPlatform-Webhooks/1.0', ...signedHeaders(m) },
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? DELIVERY_TIMEOUT_MS),
      });
      return done({ statusCode: res.statusCode, body: await excerpt(res.body), error: null });
    } catch (err) {
      return done({ statusCode: null, body: null, error: describe(err, this.opts.timeoutMs ?? DELIVERY_TIMEOUT_MS) });
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The first KiB of a body as text (NUL characters dropped: PostgreSQL text cannot hold them). */
async function excerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } catch {
    // an answer cut off after its status line still counts by its status
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '');
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `TIMEOUT: no complete answer within ${timeoutMs / 1000} s`;
  const inner = e?.cause?.code ? e.cause : e;
  return `${inner?.code ?? e?.name ?? 'ERROR'}: ${inner?.message ?? String(err)}`.slice(0, 500);
}
