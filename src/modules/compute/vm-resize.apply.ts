import type { Clock } from '../../platform/clock.js';
import type { Executor } from '../../platform/db/database.js';
import type { Applied } from '../../platform/lifecycle/index.js';
import type { Metering } from '../../platform/metering.js';
import { VmHostError, type VmHosts } from '../../integrations/datacenter/index.js';
import { tierComponentKey, tierKey, type PricingService } from '../pricing/index.js';
import type { TiersService } from '../tiers/index.js';
import type { ComputeRepository, Vm } from './compute.repository.js';
import { vmMeterItems } from './compute.pricing.js';

/** Told when a VM took its new tier (in the transaction of the resize's finish): what is priced by the VM's tier follows it from that instant. */
export interface VmResizedListener {
  vmResized(tx: Executor, vm: Vm, at: Date): Promise<void>;
}

interface MeterDeps {
  pricing: PricingService;
  tiers: TiersService;
  metering: Metering;
}

/** Opens the VM's meters (its tier, public IP and volume) from `at`; an open one stays as it is. */
export async function openVmMeters(tx: Executor, deps: MeterDeps, vm: Vm, at: Date): Promise<void> {
  const ip = await deps.pricing.componentByCode('public_ip', tx);
  const tierName = (await deps.tiers.find(vm.tierId, tx))?.name ?? `tier ${vm.tierId}`;
  for (const item of vmMeterItems(vm, ip.id, tierName)) {
    await deps.metering.open(
      {
        customerId: vm.customerId,
        resourceType: 'vm',
        resourceId: vm.id,
        description: item.description,
        priceKey: item.priceKey,
        ...(item.fallbackKey ? { fallbackPriceKey: item.fallbackKey } : {}),
        locationId: vm.locationId,
        quantity: item.quantity,
        at,
      },
      tx,
    );
  }
}

/**
 * The resize task of the VM lifecycle: the machine gets the size of the VM's new tier (a running
 * one is restarted, a stopped one stays stopped), then, in the transaction of the conditional
 * finish, the VM takes the tier and its meters switch at that instant: the meters priced by the old
 * tier (its package, its own price of the public IP, its backups' share) close and those of the new
 * one open, so the hour of the change is charged as two parts, each to the second.
 */
export async function applyResize(deps: MeterDeps & { repo: ComputeRepository; vmHosts: VmHosts; clock: Clock; resized: VmResizedListener }, vm: Vm): Promise<Applied> {
  const tier = vm.resizeTierId === null ? undefined : await deps.tiers.find(vm.resizeTierId);
  if (!tier) throw new VmHostError('resize', 'the VM has no tier to resize to');
  const running = (vm.resizeFromStatus ?? vm.status) === 'Running';
  const diskGb = Math.max(vm.diskGb, tier.diskGb);
  await deps.vmHosts.resizeVm(vm.externalId ?? `vm-${vm.id}`, { cpu: tier.cpu, memoryMb: tier.memoryMb, diskGb, cpuLimit: tier.cpuLimit }, running);
  return {
    record: async (tx) => {
      const now = deps.clock.now();
      const done = await deps.repo.finishTask(tx, vm.id, 'resize', {
        tierId: tier.id,
        cpu: tier.cpu,
        memoryMb: tier.memoryMb,
        diskGb,
        status: running ? 'Running' : 'Stopped',
        ...(running ? { startedAt: now } : {}),
        task: null,
        failedTask: null,
        resizeTierId: null,
        resizeFromStatus: null,
        updatedAt: now,
      });
      if (!done) return;
      const ip = await deps.pricing.componentByCode('public_ip', tx);
      const closed =
        (await deps.metering.close('vm', vm.id, now, { tx, priceKey: tierKey(vm.tierId) })) +
        (await deps.metering.close('vm', vm.id, now, { tx, priceKey: tierComponentKey(vm.tierId, ip.id) }));
      // a VM pays from its first Running: one whose meters never opened opens none here
      if (closed > 0) await openVmMeters(tx, deps, done, now);
      // what else is priced by the VM's tier (its backups) switches at the same instant
      if (done.tierId !== vm.tierId) await deps.resized.vmResized(tx, done, now);
    },
  };
}
