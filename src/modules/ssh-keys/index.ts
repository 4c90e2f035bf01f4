export { SshKeysService, MAX_SSH_KEYS, MAX_KEYS_PER_VM, type VmSshKey } from './ssh-keys.service.js';
export { SshKeysRepository } from './ssh-keys.repository.js';
export { sshKeysRoutes } from './ssh-keys.routes.js';
export { sshKeysConstraintMeanings } from './ssh-keys.tables.js';
export { parseSshPublicKey } from './ssh-key-format.js';
export { createSshKeysModule } from './ssh-keys.module.js';
