import { useState } from 'react';
import { api, get } from '../../api/client';
import { keys } from '../../api/keys';
import { Card, ConfirmButton, ErrorMessage, Select, useAction } from '../../ui/kit';
import { OPERATING_SYSTEMS } from '../../shared/operating-systems';

interface Vm {
  id: number;
  name: string;
  os: string;
  status: string;
  pending_action: string | null;
  rescue: boolean;
  customer: { name: string; email: string };
}

type Os = (typeof OPERATING_SYSTEMS)[number];

/** Power actions, rebuild and rescue of a customer's VM, for staff holding operate_compute; the customer is told of each. */
export function StaffVmActions({ vm }: { vm: Vm }) {
  const path = { params: { path: { id: vm.id } } };
  const invalidate = [keys.staff.vm(vm.id)];
  const owner = vm.customer.name || vm.customer.email;
  const told = `${owner} is told in the app and by e-mail, and the action is in the audit log.`;
  const start = useAction(() => get(() => api.POST('/api/backoffice/compute/vm/{id}/start', path)), { invalidate });
  const stop = useAction(() => get(() => api.POST('/api/backoffice/compute/vm/{id}/stop', path)), { invalidate });
  const reboot = useAction(() => get(() => api.POST('/api/backoffice/compute/vm/{id}/reboot', path)), { invalidate });
  const reset = useAction(() => get(() => api.POST('/api/backoffice/compute/vm/{id}/reset', path)), { invalidate });
  const rebuild = useAction((os: Os) => get(() => api.POST('/api/backoffice/compute/vm/{id}/rebuild', { ...path, body: { os } })), { invalidate });
  const rescue = useAction(() => get(() => api.POST('/api/backoffice/compute/vm/{id}/rescue', path)), { invalidate });
  const unrescue = useAction(() => get(() => api.POST('/api/backoffice/compute/vm/{id}/unrescue', path)), { invalidate });
  const [os, setOs] = useState<string>(vm.os);
  const chosen: Os = (OPERATING_SYSTEMS as readonly string[]).includes(os) ? (os as Os) : OPERATING_SYSTEMS[0];
  const all = [start, stop, reboot, reset, rebuild, rescue, unrescue];
  const idle = !vm.pending_action && !all.some((a) => a.isPending);
  const running = vm.status === 'Running';
  const powered = running || vm.status === 'Stopped';
  return (
    <Card title="Act on this VM">
      <ErrorMessage error={all.find((a) => a.error)?.error ?? null} />
      <div className="row">
        <ConfirmButton label="Start" kind="primary" confirm={`Start ${owner}'s VM ${vm.name}? ${told}`} busy={start.isPending} disabled={!idle || vm.status !== 'Stopped'} onConfirm={() => start.mutate(undefined)} />
        <ConfirmButton label="Stop" kind="secondary" confirm={`Stop ${owner}'s VM ${vm.name}? ${told}`} busy={stop.isPending} disabled={!idle || !running} onConfirm={() => stop.mutate(undefined)} />
        <ConfirmButton label="Reboot" kind="secondary" confirm={`Reboot ${owner}'s VM ${vm.name} (ACPI)? ${told}`} busy={reboot.isPending} disabled={!idle || !running} onConfirm={() => reboot.mutate(undefined)} />
        <ConfirmButton label="Hard reboot" confirm={`Reset ${owner}'s VM ${vm.name} at once? What it had not saved to disk is lost. ${told}`} busy={reset.isPending} disabled={!idle || !running} onConfirm={() => reset.mutate(undefined)} />
        {vm.rescue ? (
          <ConfirmButton label="Leave rescue" kind="secondary" confirm={`Boot ${owner}'s VM ${vm.name} from its own disk again? ${told}`} busy={unrescue.isPending} disabled={!idle || !powered} onConfirm={() => unrescue.mutate(undefined)} />
        ) : (
          <ConfirmButton label="Rescue" kind="secondary" confirm={`Boot ${owner}'s VM ${vm.name} from the rescue system, its disks attached? ${told}`} busy={rescue.isPending} disabled={!idle || !powered} onConfirm={() => rescue.mutate(undefined)} />
        )}
      </div>
      <div className="inline">
        <Select label="Operating system to install" name="os" value={chosen} onChange={(e) => setOs(e.currentTarget.value)} options={OPERATING_SYSTEMS.map((o) => ({ value: o, label: o }))} />
        <ConfirmButton
          label="Rebuild"
          confirm={`Reinstall ${owner}'s VM ${vm.name} with ${chosen}? Everything on its boot disk is lost: the customer's files, software and settings. It keeps its addresses, SSH keys and volume. ${told}`}
          busy={rebuild.isPending}
          disabled={!idle || !powered}
          onConfirm={() => rebuild.mutate(chosen)}
        />
      </div>
    </Card>
  );
}
