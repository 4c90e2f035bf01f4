import { componentKey, storageTierKey, tierComponentKey, tierKey } from '../pricing/index.js';
import type { Vm } from './compute.repository.js';

/**
 * What a VM is billed by: its tier, its public IP, its volume (GB of its storage tier). The public
 * IP is priced by the tier's own price of the component while one is in force, else by the
 * location's (`fallbackKey`).
 */
export function vmPriceItems(vm: Pick<Vm, 'tierId' | 'publicIp' | 'blockStorageTierId' | 'blockStorageGb'>, publicIpComponentId: number) {
  const items: { priceKey: string; fallbackKey?: string; quantity: number }[] = [{ priceKey: tierKey(vm.tierId), quantity: 1 }];
  if (vm.publicIp) items.push({ priceKey: tierComponentKey(vm.tierId, publicIpComponentId), fallbackKey: componentKey(publicIpComponentId), quantity: 1 });
  if (vm.blockStorageTierId !== null && vm.blockStorageGb !== null) items.push({ priceKey: storageTierKey(vm.blockStorageTierId), quantity: vm.blockStorageGb });
  return items;
}

/** The meters of a VM: one per price item, each with the description the customer reads on the hour's charge. */
export function vmMeterItems(vm: Pick<Vm, 'name' | 'tierId' | 'publicIp' | 'blockStorageTierId' | 'blockStorageGb'>, publicIpComponentId: number, tierName: string) {
  return vmPriceItems(vm, publicIpComponentId).map((item) => ({
    ...item,
    description:
      item.priceKey === tierKey(vm.tierId)
        ? `VM ${vm.name} (${tierName})`
        : item.priceKey === storageTierKey(vm.blockStorageTierId ?? -1)
          ? `VM ${vm.name} volume ${item.quantity} GB`
          : `VM ${vm.name} public IP ${vm.publicIp ?? ''}`.trimEnd(),
  }));
}
