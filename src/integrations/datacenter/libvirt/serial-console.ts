import { spawn } from 'node:child_process';
import { Duplex } from 'node:stream';
import { shellQuote } from './host.js';

/** The live sessions of this process by port (URI and domain): each one's end. */
const sessions = new Map<string, () => void>();

/**
 * `virsh -c <uri> console --force <domain>` as a byte stream. libvirt joins the guest's serial port
 * (a pty on the hypervisor, also over qemu+ssh://), so this needs no access to the host beyond
 * virsh's own. virsh refuses to run `console` without a terminal on its standard input, so it runs
 * under util-linux `script`, which gives it a pseudo-terminal and copies bytes both ways
 * (`-q` no banner, `-f` flush at once, `-e` virsh's exit code, the typescript to /dev/null). No
 * native module (node-pty would build with node-gyp, which downloads Node's headers). `--force`
 * takes the port over from a reader left behind (a process that crashed mid-session).
 *
 * A session this process opened on the same port is ended here first, not left to libvirt:
 * libvirtd aborts the old reader's stream on a forced open but tells that reader only when its
 * stream is waiting for the guest's output at that instant; while a piece of output is on its way
 * to the old reader (the guest printing a prompt) the abort goes unannounced and the old virsh
 * keeps waiting. A session of another process taken over in that instant stays open without
 * output until it is closed (at the latest at the console's idle timeout).
 */
export function virshConsole(uri: string, domain: string): Duplex {
  const port = `${uri} ${domain}`;
  sessions.get(port)?.();
  const command = ['virsh', '-c', uri, 'console', '--force', domain].map(shellQuote).join(' ');
  // its own process group: ending the session ends script, virsh and ssh (for qemu+ssh) together
  const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: { ...process.env, LC_ALL: 'C', TERM: 'vt100' } });
  let ended = false;
  const kill = () => {
    if (sessions.get(port) === kill) sessions.delete(port);
    if (ended || child.pid === undefined) return;
    ended = true;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  const stream = new Duplex({
    read() {
      child.stdout.resume();
    },
    write(chunk: Buffer, _enc, done) {
      if (ended || !child.stdin.writable) return done();
      child.stdin.write(chunk, () => done());
    },
    final(done) {
      kill();
      done();
    },
    destroy(err, done) {
      kill();
      done(err);
    },
  });
  child.stdout.on('data', (d: Buffer) => {
    if (!stream.push(d)) child.stdout.pause();
  });
  child.stderr.resume();
  child.stdin.on('error', () => undefined);
  child.on('error', (err) => stream.destroy(err));
  sessions.set(port, kill);
  child.on('close', () => {
    if (sessions.get(port) === kill) sessions.delete(port);
    ended = true;
    stream.push(null);
  });
  return stream;
}
