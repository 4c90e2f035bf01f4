import { Link } from 'react-router';
import type { paths } from '../../api/schema';
import { Card, CopyButton, Notice } from '../../ui/kit';

type Vm = paths['/api/compute/vm/{id}']['get']['responses'][200]['content']['application/json']['data'];
type Group = paths['/api/network/security-group/']['get']['responses'][200]['content']['application/json']['data'][number];

/** Whether a group lets SSH in: an inbound rule for TCP 22 or for all traffic. */
const letsSshIn = (g: Group) =>
  g.rules.some((r) => r.direction === 'ingress' && (r.protocol === 'any' || (r.protocol === 'tcp' && (r.port_from === null || (r.port_from <= 22 && 22 <= (r.port_to ?? r.port_from))))));

/** How to log in to a VM: its user, the ssh command, its addresses, the groups guarding it and its keys. */
export function VmConnect({ vm, groups }: { vm: Vm; groups: Group[] }) {
  const user = vm.login_user ?? 'root';
  const command = vm.public_ip ? `ssh ${user}@${vm.public_ip}` : null;
  const mine = groups.filter((g) => g.vm_ids.includes(vm.id));
  const blocked = mine.length > 0 && !mine.some(letsSshIn);
  return (
    <Card title="Connect">
      {vm.ssh_keys.length === 0 ? (
        <Notice tone="warning">This VM was created without SSH keys: nobody can log in to it over SSH. Create a new VM with a key, or use its user data to set up access.</Notice>
      ) : null}
      <dl>
        <dt>Login user</dt>
        <dd>
          <code>{user}</code> <span className="muted">(the default user of {vm.os}, with sudo)</span>
        </dd>
        <dt>SSH command</dt>
        <dd>
          {command ? (
            <span className="row">
              <code data-testid="ssh-command">{command}</code>
              <CopyButton text={command} label="Copy the SSH command" />
            </span>
          ) : (
            <span className="muted">No public IP: connect from another of your VMs on a private network, to one of the addresses below.</span>
          )}
        </dd>
        <dt>Private addresses</dt>
        <dd>
          {vm.private_addresses.length === 0 ? (
            '—'
          ) : (
            <ul className="plain">
              {vm.private_addresses.map((a) => (
                <li key={a.network_uuid}>
                  <code>{a.ip}</code> on <Link to={`/networks/${a.network_uuid}`}>{a.network_name}</Link>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Security groups</dt>
        <dd>
          {mine.length === 0 ? (
            <span className="muted">None: every port is open.</span>
          ) : (
            <ul className="plain">
              {mine.map((g) => (
                <li key={g.uuid}>
                  <Link to={`/security-groups/${g.uuid}`}>{g.name}</Link>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>SSH keys</dt>
        <dd>
          {vm.ssh_keys.length === 0 ? (
            '—'
          ) : (
            <ul className="plain">
              {vm.ssh_keys.map((k) => (
                <li key={k.id}>
                  {k.name} <code className="muted">{k.fingerprint}</code>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>User data</dt>
        <dd>{vm.has_user_data ? 'Given at creation: cloud-init runs it at the first boot.' : '—'}</dd>
      </dl>
      {blocked ? <Notice tone="warning">None of its security groups lets SSH in: add an inbound rule for TCP port 22.</Notice> : null}
    </Card>
  );
}
