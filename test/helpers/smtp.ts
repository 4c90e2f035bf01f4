import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually } from './app.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The decoded text part (quoted-printable undone), good for reading codes and links. */
  text: string;
}

function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function textPart(raw: string): string {
  const m = /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw);
  const body = m?.[1] ?? raw;
  return /Content-Transfer-Encoding: quoted-printable/i.test(raw) ? decodeQuotedPrintable(body) : body;
}

/** A real SMTP server in the test process; the service sends to it over TCP. */
export class TestSmtpServer {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            subject,
            text: textPart(raw),
          });
          callback();
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Waits for a mail to `to` (optionally matching) and returns it. */
  waitFor(to: string, match: (m: ReceivedMail) => boolean = () => true, timeoutMs = 10_000): Promise<ReceivedMail> {
    return eventually(async () => this.mails.find((m) => m.to.some((a) => a.toLowerCase() === to.toLowerCase()) && match(m)), timeoutMs);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
