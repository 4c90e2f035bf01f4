import { spawn } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A command that failed (or did not finish in time) on a hypervisor or in virsh. */
export class HostCommandError extends Error {
  constructor(
    readonly command: string,
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`${command}: ${stderr.trim().split('\n').slice(-3).join(' / ') || `exit ${code}`}`);
    this.name = 'HostCommandError';
  }
}

export interface RunOptions {
  /** what the command reads on its stdin (bytes are passed as they are) */
  input?: string | Buffer;
  timeoutMs?: number;
  /** exit codes that are not failures (default [0]) */
  okCodes?: number[];
}

export interface RunResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs argv without a shell; rejects with HostCommandError unless the exit code is accepted. */
export function runLocal(argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const [cmd, ...args] = argv;
  const label = argv.join(' ').slice(0, 200);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd!, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 60_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new HostCommandError(label, null, err.message));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new HostCommandError(label, null, `did not finish within ${opts.timeoutMs ?? 60_000} ms`));
      const c = code ?? -1;
      if (!(opts.okCodes ?? [0]).includes(c)) return reject(new HostCommandError(label, c, stderr || stdout));
      resolve({ stdout, stderr, code: c });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** POSIX shell quoting of one word (for commands sent over ssh, which joins its arguments). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The parameters of a qemu+ssh:// URI that change how ssh logs in (libvirt's own, for its ssh transport). */
export const SSH_URI_PARAMETERS = ['keyfile', 'no_verify', 'no_tty'] as const;

/**
 * The ssh command line virsh's libvirt runs for a qemu+ssh:// URI, ending before the remote
 * command: `[user@]host[:port]`, and of the query the private key (`keyfile`), no host key check
 * (`no_verify=1`) and no prompts (`no_tty=1`; always so here: nobody is there to answer). Null for
 * a local URI. Any other parameter is refused: these commands must log in exactly as virsh does.
 */
export function sshCommand(uri: string): string[] | null {
  const m = /^qemu\+ssh:\/\/([^/?]+)\/system(?:\?(.*))?$/.exec(uri);
  if (!m) return null;
  const hostPort = /^(.*?)(?::(\d+))?$/.exec(m[1]!)!;
  const options: string[] = [];
  for (const [key, value] of new URLSearchParams(m[2] ?? '')) {
    if (!(SSH_URI_PARAMETERS as readonly string[]).includes(key)) throw new Error(`${uri}: the parameter ${key} is not supported (only ${SSH_URI_PARAMETERS.join(', ')})`);
    if (key === 'keyfile' && value) options.push('-i', value);
    if (key === 'no_verify' && value !== '0') options.push('-o', 'StrictHostKeyChecking=no');
  }
  return ['ssh', '-o', 'BatchMode=yes', '-T', '-e', 'none', ...options, ...(hostPort[2] ? ['-p', hostPort[2]] : []), '--', hostPort[1]!];
}

/**
 * ssh options that keep one connection to each host open between commands (OpenSSH's
 * multiplexing, kept 60 s after the last command): a command then costs a new channel instead of
 * a new login, which is most of its time (a command past the server's MaxSessions, default 10,
 * logs in on its own). The sockets are in a directory of this user's that no one else may enter;
 * if it cannot be had, every command logs in on its own.
 */
function sharedConnection(): string[] {
  const dir = path.join(tmpdir(), `chp-ssh-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (st.uid !== process.getuid?.() || (st.mode & 0o077) !== 0) return [];
  } catch {
    return [];
  }
  return ['-o', 'ControlMaster=auto', '-o', `ControlPath=${dir}/%C`, '-o', 'ControlPersist=60'];
}

/**
 * The machine a hypervisor runs on, for what libvirt does not do for us (qemu-img, ip, nft,
 * dnsmasq, haproxy, genisoimage): the local machine for qemu:///system, ssh to the host of a
 * qemu+ssh:// URI (the same login virsh uses: user, port, key and host key check from the URI).
 */
export class Host {
  private readonly ssh: string[] | null;

  constructor(uri: string) {
    const ssh = sshCommand(uri);
    this.ssh = ssh && [ssh[0]!, ...sharedConnection(), ...ssh.slice(1)];
  }

  get remote(): boolean {
    return this.ssh !== null;
  }

  run(argv: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
    if (!this.ssh) return runLocal(argv, opts);
    return runLocal([...this.ssh, argv.map(shellQuote).join(' ')], opts);
  }

  /**
   * Runs argv on the host and yields its stdout as bytes while it comes (a disk read through ssh
   * is never held whole in memory); throws at the end unless it exited 0.
   */
  async *stream(argv: readonly string[]): AsyncIterable<Buffer> {
    const full = this.ssh ? [...this.ssh, argv.map(shellQuote).join(' ')] : argv;
    const child = spawn(full[0]!, full.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<number | null>((resolve, reject) => {
      child.on('error', (err) => reject(new HostCommandError(argv.join(' ').slice(0, 200), null, err.message)));
      child.on('close', (code) => resolve(code));
    });
    closed.catch(() => undefined); // awaited below; an early return must not leave it unhandled
    try {
      for await (const chunk of child.stdout) yield chunk as Buffer;
      const code = await closed;
      if (code !== 0) throw new HostCommandError(argv.join(' ').slice(0, 200), code, stderr);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }

  /** Runs a shell script on the host with positional arguments ($1 …). */
  sh(script: string, args: readonly string[] = [], opts: RunOptions = {}): Promise<RunResult> {
    return this.run(['sh', '-c', script, 'sh', ...args], opts);
  }

  async readFile(path: string): Promise<string | null> {
    const r = await this.sh('[ -f "$1" ] || exit 3; cat "$1"', [path], { okCodes: [0, 3] });
    return r.code === 3 ? null : r.stdout;
  }

  /** Replaces the file atomically (a reader never sees half of it). */
  async writeFile(path: string, content: string, mode = '0644'): Promise<void> {
    await this.sh('umask 022; cat >"$1.tmp.$$" && chmod "$2" "$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"', [path, mode], { input: content });
  }

  /**
   * Runs `fn` holding an exclusive lock on this host (flock on a file in `dir`), so two processes
   * of the service never interleave a read-change-write of the same host state. Calls within one
   * process queue in memory first.
   */
  async withLock<T>(dir: string, name: string, fn: () => Promise<T>): Promise<T> {
    const key = `${dir}/${name}`;
    const previous = this.queues.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const chained = previous.then(() => mine);
    this.queues.set(key, chained);
    await previous;
    try {
      return await this.withFileLock(`${key}.lock`, fn);
    } finally {
      release();
      if (this.queues.get(key) === chained) this.queues.delete(key);
    }
  }

  private readonly queues = new Map<string, Promise<void>>();

  private async withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
    const argv = ['flock', '-x', '-w', '120', file, 'sh', '-c', 'echo locked; exec cat >/dev/null'];
    const full = this.ssh ? [...this.ssh, argv.map(shellQuote).join(' ')] : argv;
    const child = spawn(full[0]!, full.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('locked')) resolve();
      });
      child.on('error', (err) => reject(new HostCommandError(`flock ${file}`, null, err.message)));
      child.on('close', (code) => reject(new HostCommandError(`flock ${file}`, code, stderr || 'the lock was not granted')));
    });
    const gone = new Promise<void>((resolve) => child.once('close', () => resolve()));
    try {
      return await fn();
    } finally {
      child.stdin.end();
      await gone;
    }
  }
}
