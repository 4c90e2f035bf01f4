import type { Duplex } from 'node:stream';
import { DatacenterError } from './shared.js';

/** The operations of Consoles, as a failure names them. */
export type ConsoleOperation = 'console';

/** A failure of Consoles. */
export class ConsoleError extends DatacenterError {
  declare readonly operation: ConsoleOperation;
  constructor(operation: ConsoleOperation, message: string, capacity = false, detail?: string) {
    super(operation, message, capacity, detail);
  }
}

/**
 * The serial consoles of machines: `open` joins the first serial port of a running machine as a
 * byte stream. What is written to the stream is typed on the port; what the guest prints is read
 * from it. The stream ends when the machine stops or goes away, and `destroy()` lets go of the
 * port (the machine keeps running). Opening takes over the port from another reader (one reader a
 * port at the hypervisor, as virsh's `--force`): the service keeps its own count of sessions.
 */
export interface Consoles {
  open(externalId: string): Promise<Duplex>;
}
