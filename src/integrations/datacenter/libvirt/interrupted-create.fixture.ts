/**
 * Test fixture (run as its own process by guests.test.ts): starts a create and kills this process
 * with SIGKILL at the given step, as a crash of the worker would.
 *   node --import tsx interrupted-create.fixture.ts CONFIG_JSON SPEC_JSON STEP
 */
import { readFileSync } from 'node:fs';
import { parseLibvirtConfig } from './config.js';
import { LibvirtDatacenter } from './libvirt-datacenter.js';
import type { VmSpec } from '../index.js';

const [configFile, specJson, step] = process.argv.slice(2);
const dc = new LibvirtDatacenter(parseLibvirtConfig(JSON.parse(readFileSync(configFile!, 'utf8'))), {
  onCreateStep: (s) => {
    if (s === step) process.kill(process.pid, 'SIGKILL');
  },
});
await dc.vmHosts.createVm(JSON.parse(specJson!) as VmSpec);
console.log('the create finished without being interrupted');
process.exit(3);
