import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * A real HTTP server a test points endpoints at. It records every request and answers what
 * `answer` says (200 by default); an answer may be a promise, to hold a request open.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (req: ReceivedWebhook) => Answer | Promise<Answer> = () => ({ status: 200, body: 'ok' });
  private server: Server | undefined;
  private waiters: (() => void)[] = [];

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got: ReceivedWebhook = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        this.received.push(got);
        for (const w of this.waiters.splice(0)) w();
        Promise.resolve(this.answer(got)).then(
          (a) => {
            res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
            res.end(a.body ?? '');
          },
          () => res.destroy(),
        );
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Resolves once `n` requests in all have arrived. */
  async waitFor(n: number, timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`receiver got ${this.received.length} of ${n} requests`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received.slice(0, n);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/**
 * What the `standardwebhooks` library (the receiver's side, not this project's code) makes of a
 * request with one secret: the parsed payload, or the verification error.
 */
export function verify(secret: string, req: ReceivedWebhook): { ok: true; payload: any } | { ok: false; error: string } {
  try {
    const headers = { 'webhook-id': String(req.headers['webhook-id']), 'webhook-timestamp': String(req.headers['webhook-timestamp']), 'webhook-signature': String(req.headers['webhook-signature']) };
    return { ok: true, payload: new Webhook(secret).verify(req.body, headers) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
