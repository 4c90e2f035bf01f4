import { mount, type BuiltModule, type Platform } from '../../platform/module.js';
import { SshKeysRepository } from './ssh-keys.repository.js';
import { sshKeysRoutes } from './ssh-keys.routes.js';
import { SshKeysService } from './ssh-keys.service.js';
import { sshKeysConstraintMeanings } from './ssh-keys.tables.js';

/** The customer's SSH public keys, put on VMs at creation. */
export function createSshKeysModule(p: Platform) {
  const sshKeys = new SshKeysService(p.db, new SshKeysRepository(), p.clock);
  return {
    services: { sshKeys },
    routes: [mount('customer', sshKeysRoutes, { prefix: '/api/ssh-keys', keys: sshKeys })],
    constraints: sshKeysConstraintMeanings,
  } satisfies BuiltModule;
}
