import { api, get } from '../../api/client';
import { SerialConsole } from '../../ui/serial-console';

/** The serial console of one of my VMs. */
export function VmConsole({ vm }: { vm: { id: number; name: string; status: string; pending_action: string | null } }) {
  const running = vm.status === 'Running' && (vm.pending_action === null || vm.pending_action === 'start');
  return <SerialConsole name={vm.name} running={running} ticket={() => get(() => api.POST('/api/compute/vm/{id}/console', { params: { path: { id: vm.id } } }))} />;
}
