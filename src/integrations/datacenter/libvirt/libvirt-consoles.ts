import type { Duplex } from 'node:stream';
import { ConsoleError, type Consoles } from '../consoles.js';
import type { HostAccess } from './host-access.js';
import { virshConsole } from './serial-console.js';

/** Serial consoles of libvirt domains, joined through libvirt (serial-console.ts). */
export class LibvirtConsoles implements Consoles {
  constructor(private readonly access: HostAccess) {}

  open(externalId: string): Promise<Duplex> {
    return this.access.wrap('console', async () => {
      const reference = this.access.referenceOf(externalId);
      const found = await this.access.findDomain(reference);
      if (!found) throw new ConsoleError('console', 'the machine does not exist at the datacenter');
      if (found.state !== 'running') throw new ConsoleError('console', 'the machine is not running');
      return virshConsole(found.hv.virsh.uri, this.access.names.domain(reference));
    });
  }
}
