import type { Clock } from '../../platform/clock.js';
import type { Database, Executor } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.js';
import type { Actor, AuditService } from '../audit/index.js';
import { tierTypeView, tierView } from './tiers.present.js';
import type { LoadbalanceConfig } from './tiers.tables.js';
import type { Tier, TierType, TiersRepository } from './tiers.repository.js';

export interface CreateTierInput {
  name: string;
  tier_type_id: number;
  cpu: number;
  memory_mb: number;
  disk_gb: number;
  cpu_limit: number;
  location_id?: number | null;
}

/** What the audit log keeps of a tier: its answer without the id, type name and timestamps. */
const snapshot = (t: Tier) => {
  const { id: _id, tier_type_name: _typeName, created_at: _created, updated_at: _updated, ...kept } = tierView(t, '');
  return kept;
};

/** Default families and sizes for a fresh database (their prices are seeded by pricing). */
export const DEFAULT_TIER_TYPES = [
  { name: 'General Purpose', description: 'Balanced vCPU and memory for most workloads' },
  { name: 'CPU Optimized', description: 'More vCPU per GB of memory, for compute-heavy work' },
];
export const DEFAULT_TIERS = [
  { name: 'gp.small', type: 'General Purpose', cpu: 1, memoryMb: 1024, diskGb: 25, cpuLimit: 100 },
  { name: 'gp.medium', type: 'General Purpose', cpu: 2, memoryMb: 4096, diskGb: 50, cpuLimit: 100 },
  { name: 'gp.large', type: 'General Purpose', cpu: 4, memoryMb: 8192, diskGb: 100, cpuLimit: 100 },
  { name: 'cpu.large', type: 'CPU Optimized', cpu: 8, memoryMb: 8192, diskGb: 80, cpuLimit: 100 },
];

/** Tier types and tiers (docs/api.md, "Catalog, prices and compute"; docs/decisions.md §8). */
export class TiersService {
  constructor(
    private readonly db: Database,
    private readonly repo: TiersRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** The name of the tier's type ('' if it is gone), which a tier's answer shows. */
  async typeNameOf(t: Tier, ex: Executor = this.db): Promise<string> {
    return (await this.repo.findType(ex, t.tierTypeId))?.name ?? '';
  }

  listTypes() {
    return this.repo.listTypes(this.db);
  }

  async createType(actor: Actor, input: { name: string; description: string }): Promise<TierType> {
    return this.unique(() =>
      this.db.transaction(async (tx) => {
        const row = await this.repo.insertType(tx, { name: input.name.trim(), description: input.description });
        await this.audit.record(tx, { actor, action: 'tier_type.created', targetType: 'tier_type', targetId: row.id, after: tierTypeView(row) });
        return row;
      }),
    );
  }

  async updateType(actor: Actor, id: number, input: { name: string; description: string }): Promise<TierType> {
    return this.unique(() =>
      this.db.transaction(async (tx) => {
        const before = await this.repo.findType(tx, id);
        if (!before) throw new NotFoundError('Tier type');
        const row = (await this.repo.updateType(tx, id, { name: input.name.trim(), description: input.description, updatedAt: this.clock.now() }))!;
        await this.audit.record(tx, { actor, action: 'tier_type.updated', targetType: 'tier_type', targetId: id, before: tierTypeView(before), after: tierTypeView(row) });
        return row;
      }),
    );
  }

  list(opts: { includeRetired: boolean }) {
    return this.repo.list(this.db, opts);
  }

  /** A tier by id, retired ones included (VMs on it, price history). */
  find(id: number, ex: Executor = this.db): Promise<Tier | undefined> {
    return this.repo.find(ex, id);
  }

  /** Tiers offered for new VMs in a location (visible, not retired). */
  offeredIn(locationId: number, ex: Executor = this.db): Promise<Tier[]> {
    return this.repo.offeredIn(ex, locationId);
  }

  async create(actor: Actor, input: CreateTierInput): Promise<Tier> {
    return this.unique(() =>
      this.db.transaction(async (tx) => {
        if (!(await this.repo.findType(tx, input.tier_type_id))) throw new BadRequestError('VALIDATION_FAILED', 'Unknown tier type', [{ field: 'tier_type_id', message: 'no such tier type' }]);
        if (input.location_id != null && !(await this.repo.locationExists(tx, input.location_id))) {
          throw new BadRequestError('VALIDATION_FAILED', 'Unknown location', [{ field: 'location_id', message: 'no such location' }]);
        }
        const row = await this.repo.insert(tx, {
          name: input.name.trim(),
          tierTypeId: input.tier_type_id,
          cpu: input.cpu,
          memoryMb: input.memory_mb,
          diskGb: input.disk_gb,
          cpuLimit: input.cpu_limit,
          locationId: input.location_id ?? null,
        });
        await this.audit.record(tx, { actor, action: 'tier.created', targetType: 'tier', targetId: row.id, after: snapshot(row) });
        return row;
      }),
    );
  }

  private async change(actor: Actor, id: number, action: string, decide: (t: Tier) => Partial<Tier>): Promise<Tier> {
    return this.db.transaction(async (tx) => {
      const before = await this.repo.find(tx, id, { forUpdate: true });
      if (!before || before.deletedAt) throw new NotFoundError('Tier');
      const row = (await this.repo.update(tx, id, { ...decide(before), updatedAt: this.clock.now() }))!;
      await this.audit.record(tx, { actor, action, targetType: 'tier', targetId: id, before: snapshot(before), after: snapshot(row) });
      return row;
    });
  }

  updateCpu(actor: Actor, id: number, cpuLimit: number) {
    return this.change(actor, id, 'tier.cpu_limit_updated', () => ({ cpuLimit }));
  }

  toggleStatus(actor: Actor, id: number) {
    return this.change(actor, id, 'tier.status_toggled', (t) => ({ isVisible: !t.isVisible }));
  }

  toggleLoadbalance(actor: Actor, id: number) {
    return this.change(actor, id, 'tier.loadbalance_toggled', (t) => ({ loadbalanceEnabled: !t.loadbalanceEnabled }));
  }

  updateLoadbalance(actor: Actor, id: number, config: LoadbalanceConfig) {
    return this.change(actor, id, 'tier.loadbalance_updated', () => ({ loadbalanceConfig: config }));
  }

  /** Retires the tier: no new VMs, left out of the lists; VMs on it and its prices stay. */
  retire(actor: Actor, id: number) {
    return this.change(actor, id, 'tier.deleted', () => ({ deletedAt: this.clock.now(), isVisible: false }));
  }

  /** Default tier types and tiers on an empty database; returns the tiers created (for their prices). */
  async seed(): Promise<Tier[]> {
    return this.db.transaction(async (tx) => {
      if ((await this.repo.countTypes(tx)) > 0) return [];
      const types = new Map<string, number>();
      for (const t of DEFAULT_TIER_TYPES) types.set(t.name, (await this.repo.insertType(tx, t)).id);
      const created: Tier[] = [];
      for (const t of DEFAULT_TIERS) {
        created.push(await this.repo.insert(tx, { name: t.name, tierTypeId: types.get(t.type)!, cpu: t.cpu, memoryMb: t.memoryMb, diskGb: t.diskGb, cpuLimit: t.cpuLimit }));
      }
      return created;
    });
  }

  private async unique<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError('The name is taken', 'NAME_TAKEN');
      throw err;
    }
  }
}
