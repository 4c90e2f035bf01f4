import { spawn } from 'node:child_process';
import { Duplex } from 'node:stream';
import { shellQuote } from './host.js';

/**
 * `virsh -c <uri> console --force <domain>` as a byte stream. libvirt joins the guest's serial port
 * (a pty on the hypervisor, also over qemu+ssh://), so this needs no access to the host beyond
 * virsh's own. virsh refuses to run `console` without a terminal on its standard input, so it runs
 * under util-linux `script`, which gives it a pseudo-terminal and copies bytes both ways
 * (`-q` no banner, `-f` flush at once, `-e` virsh's exit code, the typescript to /dev/null). No
 * native module (node-pty would build with node-gyp, which downloads Node's headers). `--force`
 * takes the port over from a reader left behind (a process that crashed mid-session).
 */
export function virshConsole(uri: string, domain: string): Duplex {
  const command = ['virsh', '-c', uri, 'console', '--force', domain].map(shellQuote).join(' ');
  // its own process group: ending the session ends script, virsh and ssh (for qemu+ssh) together
  const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: { ...process.env, LC_ALL: 'C', TERM: 'vt100' } });
  let ended = false;
  const kill = () => {
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
  child.on('close', () => {
    ended = true;
    stream.push(null);
  });
  return stream;
}
