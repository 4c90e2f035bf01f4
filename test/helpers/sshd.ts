import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './money.js';

/**
 * A private OpenSSH server on a loopback port, for tests that reach this machine as a remote host
 * (a `qemu+ssh://` hypervisor): its own host key, one client key allowed to log in as root, no
 * passwords. Every command a client runs is recorded (`commands()`), so a test can show what went
 * over ssh. It runs in the foreground as a child of this process; `stop()` ends it (and the
 * connections it serves) and removes its files and its line in root's known_hosts.
 */
export interface Sshd {
  port: number;
  /** the private key that logs in as root */
  keyFile: string;
  /** the commands clients asked for, in the order they came */
  commands(): string[];
  stop(): Promise<void>;
}

export function sshdInstalled(): boolean {
  return spawnSync('sh', ['-c', 'command -v /usr/sbin/sshd && command -v ssh && command -v ssh-keygen']).status === 0;
}

let running: ChildProcess | undefined;
process.once('exit', () => running?.kill('SIGKILL'));

export async function startSshd(): Promise<Sshd> {
  const dir = mkdtempSync(path.join(tmpdir(), 'chp-sshd-'));
  const port = await freePort();
  const keyFile = path.join(dir, 'client_key');
  const log = path.join(dir, 'commands.log');
  // a client with no host key check (no_verify=1) adds this server to root's known_hosts: taken out again at the end
  const knownHosts = path.join(homedir(), '.ssh', 'known_hosts');
  const hadKnownHosts = existsSync(knownHosts);
  const hadBackup = existsSync(`${knownHosts}.old`);
  const forget = () => {
    if (!existsSync(knownHosts)) return;
    // the lines are hashed (Debian's HashKnownHosts): ssh-keygen finds them, and keeps the old file as .old
    spawnSync('ssh-keygen', ['-R', `[127.0.0.1]:${port}`, '-f', knownHosts], { stdio: 'ignore' });
    if (!hadBackup) rmSync(`${knownHosts}.old`, { force: true });
    if (!hadKnownHosts && readFileSync(knownHosts, 'utf8').trim() === '') rmSync(knownHosts);
  };
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'tests', '-f', keyFile]);
  writeFileSync(path.join(dir, 'authorized_keys'), readFileSync(`${keyFile}.pub`));
  // records the command, then runs it as sshd would have (the login shell with -c)
  writeFileSync(path.join(dir, 'run-command'), `#!/bin/sh\nprintf '%s\\0' "$SSH_ORIGINAL_COMMAND" >>${log}\nexec "$SHELL" -c "$SSH_ORIGINAL_COMMAND"\n`, { mode: 0o755 });
  writeFileSync(
    path.join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${dir}/host_key`,
      `PidFile ${dir}/sshd.pid`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      'AuthenticationMethods publickey',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'UsePAM no',
      // the files are in a temporary directory, not a home directory sshd would check
      'StrictModes no',
      `ForceCommand ${dir}/run-command`,
      // many host commands start at once (a VM's create), each one connection
      'MaxStartups 200',
      'LogLevel INFO',
      '',
    ].join('\n'),
  );
  // sshd's privilege separation directory (a package's service start would make it)
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  running = child;
  let output = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output = (output + d).slice(-4000)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // the connections it serves (ssh clients keep theirs open between commands) end with it
      const sessions = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
      for (const pid of sessions) spawnSync('kill', [pid]);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
    running = undefined;
    forget();
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`sshd did not start: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    keyFile,
    commands: () => {
      try {
        return readFileSync(log, 'utf8').split('\0').slice(0, -1);
      } catch {
        return [];
      }
    },
    stop,
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
