import { componentKey, storageTierKey, tierKey } from '../pricing/index.js';
import type { Vm } from './compute.repository.js';

/** What a VM is billed by: its tier, its public IP, its volume (GB of its storage tier). */
export function vmPriceItems(vm: Pick<Vm, 'tierId' | 'publicIp' | 'blockStorageTierId' | 'blockStorageGb'>, publicIpComponentId: number) {
  const items = [{ priceKey: tierKey(vm.tierId), quantity: 1 }];
  if (vm.publicIp) items.push({ priceKey: componentKey(publicIpComponentId), quantity: 1 });
  if (vm.blockStorageTierId !== null && vm.blockStorageGb !== null) items.push({ priceKey: storageTierKey(vm.blockStorageTierId), quantity: vm.blockStorageGb });
  return items;
}
