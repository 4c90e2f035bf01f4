import type { WebhookEvent } from '../webhooks/index.js';
import type { Vm } from './compute.repository.js';
import type { VmStatus } from './compute.tables.js';

/** The `vm.state_changed` webhook event of a VM moving from one status to another (null: it was just created). */
export function vmStateChanged(vm: Pick<Vm, 'id' | 'name' | 'customerId'>, from: VmStatus | null, to: VmStatus): WebhookEvent {
  return { customerId: vm.customerId, type: 'vm.state_changed', data: { vm_id: vm.id, name: vm.name, from, to } };
}
