import { Duplex } from 'node:stream';
import { ConsoleError, type Consoles } from '../consoles.js';
import type { SimulatedHosts } from './simulated-hosts.js';

/**
 * Serial consoles of the simulated datacenter: a tiny line shell per session, so the console can be
 * tried with `npm start`. It echoes what is typed like a terminal does and answers `hostname`,
 * `uname [-a]`, `echo …`, `whoami`, `uptime`, `help` and `exit`; anything else is "not found".
 * A machine that stops or is deleted ends its consoles.
 */
export class SimulatedConsoles implements Consoles {
  constructor(private readonly hosts: SimulatedHosts) {}

  async open(externalId: string): Promise<Duplex> {
    await this.hosts.call('console');
    const m = this.hosts.machines.get(externalId);
    if (m && !m.running) throw new ConsoleError('console', 'the machine is not running');
    // a machine forgotten on restart is adopted, as its other calls do: named by the id's reference
    const name = m?.reference ?? externalId.replace(/^sim-\d+-\d+-/, '');
    const shell = new LineShell(name, () => this.hosts.machines.get(externalId)?.running === false || (m !== undefined && !this.hosts.machines.has(externalId)));
    const off = this.hosts.onMachineChange(() => shell.checkMachine());
    shell.once('close', off);
    return shell;
  }
}

const CR = '\r\n';

class LineShell extends Duplex {
  private line = '';
  private ending = false;

  constructor(
    private readonly name: string,
    private readonly machineGone: () => boolean,
  ) {
    super();
    setImmediate(() => this.push(`${CR}Debian GNU/Linux 12 ${name} ttyS0 (simulated)${CR}${CR}${this.prompt()}`));
  }

  private prompt(): string {
    return `root@${this.name}:~# `;
  }

  checkMachine(): void {
    if (this.machineGone() && !this.destroyed) {
      this.push(`${CR}[machine stopped]${CR}`);
      this.push(null);
      this.destroy();
    }
  }

  override _read(): void {}

  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    let out = '';
    for (const ch of chunk.toString()) {
      if (ch === '\r' || ch === '\n') {
        out += CR + this.run(this.line.trim());
        this.line = '';
        if (this.ending) break;
        out += this.prompt();
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.line.length > 0) {
          this.line = this.line.slice(0, -1);
          out += '\b \b';
        }
      } else if (ch === '\x03') {
        this.line = '';
        out += `^C${CR}${this.prompt()}`;
      } else if (ch >= ' ') {
        this.line += ch;
        out += ch;
      }
    }
    if (out) this.push(out);
    done();
  }

  private run(line: string): string {
    const [cmd, ...args] = line.split(/\s+/);
    switch (cmd) {
      case '':
      case undefined:
        return '';
      case 'hostname':
        return this.name + CR;
      case 'uname':
        return (args.includes('-a') ? `Linux ${this.name} 6.1.0-simulated SMP x86_64 GNU/Linux` : 'Linux') + CR;
      case 'echo':
        return args.join(' ') + CR;
      case 'whoami':
        return 'root' + CR;
      case 'uptime':
        return ` up ${Math.floor(process.uptime())} s, load average: 0.00, 0.00, 0.00${CR}`;
      case 'help':
        return `a simulated machine: hostname, uname [-a], echo, whoami, uptime, exit${CR}`;
      case 'exit':
        this.ending = true;
        setImmediate(() => {
          this.push(null);
          this.destroy();
        });
        return 'logout' + CR;
      default:
        return `sh: ${cmd}: not found${CR}`;
    }
  }
}
