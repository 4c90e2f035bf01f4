import { useState } from 'react';
import { api, get } from '../../api/client';
import { keys } from '../../api/keys';
import { OPERATING_SYSTEMS } from '../../shared/operating-systems';
import { Button, Card, ConfirmButton, ErrorMessage, formValues, Input, Select, useAction } from '../../ui/kit';

interface Vm {
  id: number;
  name: string;
  os: string;
  status: string;
  pending_action: string | null;
  rescue: boolean;
}


/** Reboot, rename, rebuild and rescue of one of my VMs (the API's VM actions). */
export function VmActions({ vm }: { vm: Vm }) {
  const path = { params: { path: { id: vm.id } } };
  const invalidate = [keys.vms.all];
  const reboot = useAction(() => get(() => api.POST('/api/compute/vm/{id}/reboot', path)), { invalidate });
  const reset = useAction(() => get(() => api.POST('/api/compute/vm/{id}/reset', path)), { invalidate });
  const rename = useAction((name: string) => get(() => api.PATCH('/api/compute/vm/{id}', { ...path, body: { name } })), { invalidate });
  const rebuild = useAction((os: (typeof OPERATING_SYSTEMS)[number]) => get(() => api.POST('/api/compute/vm/{id}/rebuild', { ...path, body: { os } })), { invalidate });
  const rescue = useAction(() => get(() => api.POST('/api/compute/vm/{id}/rescue', path)), { invalidate });
  const unrescue = useAction(() => get(() => api.POST('/api/compute/vm/{id}/unrescue', path)), { invalidate });
  const [os, setOs] = useState<string>(vm.os);
  const acting = reboot.isPending || reset.isPending || rebuild.isPending || rescue.isPending || unrescue.isPending;
  const idle = !acting && !vm.pending_action;
  const running = vm.status === 'Running';
  const powered = running || vm.status === 'Stopped';
  const chosen = (OPERATING_SYSTEMS as readonly string[]).includes(os) ? (os as (typeof OPERATING_SYSTEMS)[number]) : OPERATING_SYSTEMS[0];
  return (
    <Card title="Manage">
      {vm.rescue ? <p role="status">This VM boots the rescue system: its own disk is attached as /dev/vda, and your SSH keys let you in.</p> : null}
      <ErrorMessage error={reboot.error ?? reset.error ?? rebuild.error ?? rescue.error ?? unrescue.error} />
      <div className="row">
        <ConfirmButton label="Reboot" kind="secondary" confirm={`Reboot ${vm.name}? The operating system is asked to restart (a reset if it does not within a minute).`} busy={reboot.isPending} disabled={!idle || !running} onConfirm={() => reboot.mutate(undefined)} />
        <ConfirmButton label="Hard reboot" confirm={`Hard-reboot ${vm.name}? It is reset at once, like pressing the reset button: what was not saved to disk is lost.`} busy={reset.isPending} disabled={!idle || !running} onConfirm={() => reset.mutate(undefined)} />
        {vm.rescue ? (
          <ConfirmButton label="Leave rescue" kind="secondary" confirm={`Boot ${vm.name} from its own disk again?${running ? ' The rescue system is shut down.' : ''}`} busy={unrescue.isPending} disabled={!idle || !powered} onConfirm={() => unrescue.mutate(undefined)} />
        ) : (
          <ConfirmButton
            label="Rescue"
            kind="secondary"
            confirm={`Boot ${vm.name} from the rescue system? ${running ? 'Its operating system is shut down. ' : 'It is started. '}Its disks are attached so you can repair them; sign in with your SSH keys. Leave rescue to boot its own disk again.`}
            busy={rescue.isPending}
            disabled={!idle || !powered}
            onConfirm={() => rescue.mutate(undefined)}
          />
        )}
      </div>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          const name = formValues(e.currentTarget).name?.trim();
          if (name) rename.mutate(name);
        }}
      >
        <Input label="Name" name="name" defaultValue={vm.name} required maxLength={63} />
        <Button type="submit" kind="secondary" busy={rename.isPending}>
          Rename
        </Button>
      </form>
      {rename.isSuccess ? <p role="status">Renamed.</p> : null}
      <ErrorMessage error={rename.error} />
      <div className="inline">
        <Select label="Operating system to install" name="os" value={chosen} onChange={(e) => setOs(e.currentTarget.value)} options={OPERATING_SYSTEMS.map((o) => ({ value: o, label: o }))} />
        <ConfirmButton
          label="Rebuild"
          confirm={`Reinstall ${vm.name} with ${chosen}? Everything on its boot disk is lost: files, installed software and settings. It keeps its name, addresses, SSH keys and block storage volume.${vm.status === 'Stopped' ? ' It is started.' : ''}`}
          busy={rebuild.isPending}
          disabled={!idle || !powered}
          onConfirm={() => rebuild.mutate(chosen)}
        />
      </div>
    </Card>
  );
}
