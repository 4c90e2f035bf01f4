import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { NotFoundError, QuotaExceededError, ValidationError } from '../../platform/errors.js';
import type { Page, PageRequest } from '../../platform/http/pagination.js';
import { parseSshPublicKey } from './ssh-key-format.js';
import type { SshKeyRow, SshKeysRepository } from './ssh-keys.repository.js';

/** How many SSH keys one customer may keep. */
export const MAX_SSH_KEYS = 50;
/** How many keys one VM may be created with. */
export const MAX_KEYS_PER_VM = 10;

/** What a VM is given of a key: enough to install it and to show which one it was. */
export interface VmSshKey {
  id: number;
  name: string;
  publicKey: string;
  fingerprint: string;
}

/** A customer's SSH public keys, to be put on the VMs they create. */
export class SshKeysService {
  constructor(
    private readonly db: Database,
    private readonly repo: SshKeysRepository,
    private readonly clock: Clock,
  ) {}

  async create(customerId: number, input: { name: string; public_key: string }): Promise<SshKeyRow> {
    const parsed = parseSshPublicKey(input.public_key);
    return this.db.transaction(async (tx) => {
      await this.repo.lockCustomer(tx, customerId);
      if ((await this.repo.countOf(tx, customerId)) >= MAX_SSH_KEYS) throw new QuotaExceededError(`At most ${MAX_SSH_KEYS} SSH keys per account`);
      const at = this.clock.now();
      return this.repo.insert(tx, {
        customerId,
        name: input.name.trim(),
        publicKey: parsed.publicKey,
        keyType: parsed.keyType,
        bits: parsed.bits,
        fingerprint: parsed.fingerprint,
        createdAt: at,
        updatedAt: at,
      });
    });
  }

  list(customerId: number, p: PageRequest): Promise<Page<SshKeyRow>> {
    return this.repo.list(this.db, customerId, p);
  }

  async get(customerId: number, id: number): Promise<SshKeyRow> {
    const key = await this.repo.find(this.db, customerId, id);
    if (!key) throw new NotFoundError('SSH key');
    return key;
  }

  async rename(customerId: number, id: number, name: string): Promise<SshKeyRow> {
    const key = await this.repo.rename(this.db, customerId, id, name.trim(), this.clock.now());
    if (!key) throw new NotFoundError('SSH key');
    return key;
  }

  /** VMs created with the key keep it: they were given a copy. */
  async delete(customerId: number, id: number): Promise<void> {
    if (!(await this.repo.delete(this.db, customerId, id))) throw new NotFoundError('SSH key');
  }

  /**
   * The keys a VM is created with, in the order asked, inside the create's transaction. Each id
   * must be one of the customer's keys (another customer's id is refused like an unknown one).
   */
  async forVm(ex: Executor, customerId: number, ids: readonly number[]): Promise<VmSshKey[]> {
    const unique = [...new Set(ids)];
    if (unique.length > MAX_KEYS_PER_VM) throw new ValidationError('Too many SSH keys', [{ field: 'ssh_key_ids', message: `at most ${MAX_KEYS_PER_VM}` }]);
    const found = new Map((await this.repo.findMany(ex, customerId, unique)).map((k) => [k.id, k]));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new ValidationError('Unknown SSH key', [{ field: 'ssh_key_ids', message: `no SSH key ${missing.join(', ')} in your account` }]);
    }
    return unique.map((id) => {
      const k = found.get(id)!;
      return { id: k.id, name: k.name, publicKey: k.publicKey, fingerprint: k.fingerprint };
    });
  }
}
