import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A receiver that takes every request and never answers: the worst endpoint a customer can
 * point deliveries at. It counts, per path and in all, the requests it holds open at each moment
 * and the most it ever held at once (a request stops being open when the sender drops it).
 */
export class BlackHole {
  private server: Server | undefined;
  private readonly open = new Map<string, number>();
  readonly maxOpen = new Map<string, number>();
  maxOpenInAll = 0;
  received = 0;

  async start(): Promise<this> {
    this.server = createServer((req) => {
      const path = req.url ?? '';
      this.received++;
      this.open.set(path, (this.open.get(path) ?? 0) + 1);
      this.maxOpen.set(path, Math.max(this.maxOpen.get(path) ?? 0, this.open.get(path)!));
      this.maxOpenInAll = Math.max(this.maxOpenInAll, this.openInAll());
      req.resume();
      req.socket.once('close', () => this.open.set(path, this.open.get(path)! - 1));
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  openInAll(): number {
    return [...this.open.values()].reduce((a, b) => a + b, 0);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
