import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import type { Actor, AuditService } from '../audit/index.js';
import { storageTierView } from './block-storage.present.js';
import type { BlockStorageMachine, BlockStorageRepository, StorageTier } from './block-storage.repository.js';
import { activeLocations } from '../lookups/index.js';

export const DEFAULT_STORAGE_TIERS = [
  { name: 'Standard SSD', description: 'Replicated SSD volumes for general use' },
  { name: 'Premium NVMe', description: 'Low-latency NVMe volumes for databases' },
];

/** Storage machines and storage tiers (docs/api.md, "Catalog, prices and compute"); volumes of VMs are reserved here. */
export class BlockStorageService {
  constructor(
    private readonly db: Database,
    private readonly repo: BlockStorageRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  listMachines() {
    return this.repo.listMachines(this.db);
  }

  listTiers() {
    return this.repo.listTiers(this.db);
  }

  findTier(id: number, ex: Executor = this.db) {
    return this.repo.findTier(ex, id);
  }

  async updateTier(actor: Actor, id: number, input: { name: string; description: string }): Promise<StorageTier> {
    try {
      return await this.db.transaction(async (tx) => {
        const before = await this.repo.findTier(tx, id, { forUpdate: true });
        if (!before) throw new NotFoundError('Storage tier');
        const row = (await this.repo.updateTier(tx, id, { name: input.name.trim(), description: input.description, updatedAt: this.clock.now() }))!;
        await this.audit.record(tx, { actor, action: 'storage_tier.updated', targetType: 'storage_tier', targetId: id, before: storageTierView(before), after: storageTierView(row) });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('A storage tier with this name exists', 'NAME_TAKEN');
      throw err;
    }
  }

  /** ON ⇄ OFF; an OFF tier is not offered for new VMs (existing volumes stay). */
  async toggleTier(actor: Actor, id: number): Promise<StorageTier> {
    return this.db.transaction(async (tx) => {
      const before = await this.repo.findTier(tx, id, { forUpdate: true });
      if (!before) throw new NotFoundError('Storage tier');
      const row = (await this.repo.updateTier(tx, id, { isActive: !before.isActive, updatedAt: this.clock.now() }))!;
      await this.audit.record(tx, { actor, action: 'storage_tier.status_toggled', targetType: 'storage_tier', targetId: id, before: { is_active: before.isActive }, after: { is_active: row.isActive } });
      return row;
    });
  }

  /** Reserves room for a volume in the location, in the caller's transaction. */
  reserve(tx: Executor, locationId: number, sizeGb: number): Promise<BlockStorageMachine | undefined> {
    return this.repo.reserve(tx, locationId, sizeGb);
  }

  release(tx: Executor, machineId: number, sizeGb: number): Promise<void> {
    return this.repo.release(tx, machineId, sizeGb);
  }

  /** Default tiers and two machines per active location on an empty database; returns the tiers created. */
  async seed(): Promise<StorageTier[]> {
    return this.db.transaction(async (tx) => {
      if ((await this.repo.countMachines(tx)) === 0) {
        for (const loc of await activeLocations.ids(tx)) {
          for (const n of [1, 2]) {
            await this.repo.insertMachine(tx, { locationId: loc, name: `bs-${loc}-${n}`, hypervisorIp: `10.${200 + (loc % 50)}.0.${10 + n}`, capacityGb: 10_240 });
          }
        }
      }
      if ((await this.repo.countTiers(tx)) > 0) return [];
      const created: StorageTier[] = [];
      for (const t of DEFAULT_STORAGE_TIERS) created.push(await this.repo.insertTier(tx, t));
      return created;
    });
  }
}
