import type { WebSocket } from 'ws';
import type { Actor } from '../../platform/audit-log.js';
import type { OpenConsole, VmConsoleService } from './vm-console.service.js';

/** Close codes a console client sees (1000 normal, 1001 server going away, 1009 message too large are WebSocket's own). */
export const CONSOLE_CLOSE = {
  /** the VM stopped, is stopping, was suspended or deleted */
  vmStopped: 4000,
  /** nothing was typed for the idle timeout */
  idle: 4001,
  /** the guest's serial port went away (the hypervisor ended it, or another session took it over) */
  ended: 4002,
  /** whoever opened it lost access: their session ended, their account or API token no longer works, or staff lost the permission */
  accessEnded: 4003,
} as const;

/**
 * Joins a client's WebSocket to an open console: what the client sends is typed on the serial
 * port, what the guest prints is sent back as binary messages. Ends at the first of: the client
 * closing, the port ending, the VM no longer running or its holder losing access (both checked at
 * every heartbeat), the idle timeout (checked at every heartbeat too),
 * the server closing; the session is closed and audited once.
 */
export function pipeConsole(socket: WebSocket, open: OpenConsole, service: VmConsoleService, actor: Actor): void {
  const { stream, session } = open;
  const { idleSeconds, heartbeatSeconds } = service.limits;
  let ended = false;
  const end = (code: number, reason: string, why: string) => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    stream.destroy();
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, reason);
    void service.close(session, actor, why).catch(() => undefined);
  };
  // the idle time is read on the service's clock at each heartbeat, so it ends at the first one after
  let lastInput = service.clock.now().getTime();
  const heartbeat = setInterval(() => {
    if (service.clock.now().getTime() - lastInput >= idleSeconds * 1000) return end(CONSOLE_CLOSE.idle, 'idle timeout', 'idle');
    service.stillOpen(session).then(
      (state) => {
        if (state === 'vm_stopped') end(CONSOLE_CLOSE.vmStopped, 'the VM is not running', 'vm_stopped');
        else if (state === 'access_ended') end(CONSOLE_CLOSE.accessEnded, 'your access ended', 'access_ended');
      },
      () => undefined,
    );
  }, heartbeatSeconds * 1000);

  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    if (ended) return;
    lastInput = service.clock.now().getTime();
    stream.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
  });
  socket.on('close', () => end(1000, '', 'client_closed'));
  socket.on('error', () => end(1011, '', 'client_error'));
  stream.on('data', (chunk: Buffer) => {
    if (!ended && socket.readyState === socket.OPEN) socket.send(chunk, { binary: true });
  });
  stream.on('error', () => end(CONSOLE_CLOSE.ended, 'the console ended', 'console_error'));
  stream.on('end', () => {
    // a port that ends because its VM stopped says so; else the hypervisor let go of it
    service.stillOpen(session).then(
      (state) => (state === 'vm_stopped' ? end(CONSOLE_CLOSE.vmStopped, 'the VM is not running', 'vm_stopped') : end(CONSOLE_CLOSE.ended, 'the console ended', 'console_ended')),
      () => end(CONSOLE_CLOSE.ended, 'the console ended', 'console_ended'),
    );
  });
}
