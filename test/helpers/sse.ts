import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface SseMessage {
  id?: string;
  event?: string;
  data?: any;
  /** comment lines (": heartbeat") */
  comment?: string;
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** every message and comment received so far, in order */
  messages: SseMessage[];
  /** the body of a non-200 answer */
  body: string;
  /** resolves with the first message (already received or to come) that matches */
  waitFor(match: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  /** resolves when the server ends the stream */
  ended: Promise<void>;
  close(): void;
}

/** The base URL of an app, listening on a free port of 127.0.0.1 first if it is not yet. */
export async function listening(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Opens a Server-Sent Events stream like a browser's EventSource would (one connection, no auto-reconnect). */
export function openSse(url: string, headers: Record<string, string>): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const messages: SseMessage[] = [];
      const waiters: { match: (m: SseMessage) => boolean; resolve: (m: SseMessage) => void }[] = [];
      let buffer = '';
      let body = '';
      let endResolve: () => void = () => undefined;
      const ended = new Promise<void>((r) => (endResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (res.statusCode !== 200) {
          body += chunk;
          return;
        }
        buffer += chunk;
        let i: number;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const m: SseMessage = {};
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) m.comment = (m.comment ? `${m.comment}\n` : '') + line.slice(1).trim();
            else if (line.startsWith('id:')) m.id = line.slice(3).trim();
            else if (line.startsWith('event:')) m.event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length > 0) m.data = JSON.parse(data.join('\n'));
          messages.push(m);
          for (const w of [...waiters]) {
            if (w.match(m)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(m);
            }
          }
        }
      });
      res.on('end', () => endResolve());
      res.on('close', () => endResolve());
      const client: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        get body() {
          return body;
        },
        ended,
        waitFor(match, timeoutMs = 5000) {
          const found = messages.find(match);
          if (found) return Promise.resolve(found);
          return new Promise((ok, fail) => {
            const timer = setTimeout(() => fail(new Error(`no matching SSE message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`)), timeoutMs);
            waiters.push({
              match,
              resolve: (m) => {
                clearTimeout(timer);
                ok(m);
              },
            });
          });
        },
        close() {
          req.destroy();
        },
      };
      if (res.statusCode !== 200) res.on('end', () => resolve(client));
      else resolve(client);
    });
    req.on('error', reject);
  });
}
