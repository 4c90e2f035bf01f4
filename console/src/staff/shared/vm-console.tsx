import { api, get } from '../../api/client';
import { SerialConsole } from '../../ui/serial-console';
import { useCan } from '../access';

/** A customer's VM console for staff with operate_compute (the customer is told by mail). */
export function StaffVmConsole({ vm }: { vm: { id: number; name: string; status: string; pending_action: string | null } }) {
  const can = useCan();
  if (!can('POST /api/backoffice/compute/vm/{id}/console')) return null;
  const running = vm.status === 'Running' && (vm.pending_action === null || vm.pending_action === 'start');
  return <SerialConsole name={vm.name} running={running} ticket={() => get(() => api.POST('/api/backoffice/compute/vm/{id}/console', { params: { path: { id: vm.id } } }))} />;
}
