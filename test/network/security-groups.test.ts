import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildTestApp, queueDrained, type TestApp } from '../helpers/app.js';
import { adminSession } from '../helpers/admins.js';
import { customerSession } from '../helpers/customers.js';
import { createVm, fund, seededTier, simulator, vmJobsDone } from '../helpers/compute.js';
import { normalizeCidr } from '../../src/modules/security-groups/index.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const BASE = '/api/network/security-group';
const synced = () => queueDrained(t, { queues: ['resources'] });
type Req = { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: Record<string, unknown> };
const call = (cookie: string, r: Req) => t.app.inject({ ...r, headers: { cookie } });

/** A tcp type with no default port (its rules name their ports), an icmp type and the seeded SSH type (port 22). */
async function ruleTypes(): Promise<{ tcp: number; icmp: number; ssh: number }> {
  const list = await t.container.services.settings.listFirewallRuleTypes();
  const tcp = list.find((r) => r.protocol === 'tcp' && r.defaultPort === null) ?? (await t.container.services.settings.createFirewallRuleType({ type: 'system' } as never, { name: 'Custom TCP', protocol: 'tcp', description: '' }));
  const icmp = list.find((r) => r.protocol === 'icmp') ?? (await t.container.services.settings.createFirewallRuleType({ type: 'system' } as never, { name: 'ICMP', protocol: 'icmp', description: '' }));
  const ssh = list.find((r) => r.name === 'SSH');
  assert.ok(ssh, 'the seeded SSH type');
  return { tcp: tcp.id, icmp: icmp.id, ssh: ssh.id };
}

describe('security groups', () => {
  test('CIDR rule', () => {
    assert.equal(normalizeCidr('0.0.0.0/0'), '0.0.0.0/0');
    assert.equal(normalizeCidr('10.0.0.0/8'), '10.0.0.0/8');
    assert.equal(normalizeCidr('10.0.0.1/8'), undefined);
    assert.equal(normalizeCidr('10.0.0.0/33'), undefined);
    assert.equal(normalizeCidr('10.0.0.0'), undefined);
    assert.equal(normalizeCidr('::/0'), '::/0');
    assert.equal(normalizeCidr('300.0.0.0/8'), undefined);
    // one rule for both families: no host bits, no zone, plain numbers; IPv6 stored in its canonical form
    assert.equal(normalizeCidr('2001:db8::1/32'), undefined);
    assert.equal(normalizeCidr('fe80::%eth0/64'), undefined);
    assert.equal(normalizeCidr('fe80::1%eth0/128'), undefined);
    assert.equal(normalizeCidr('2001:db8::/129'), undefined);
    assert.equal(normalizeCidr('2001:db8::/032'), undefined);
    assert.equal(normalizeCidr('2001:DB8:0:0::/32'), '2001:db8::/32');
    assert.equal(normalizeCidr('fe80::/10'), 'fe80::/10');
    assert.equal(normalizeCidr('010.0.0.0/8'), undefined);
    assert.equal(normalizeCidr('10.0/8'), undefined);
    assert.equal(normalizeCidr('10.0.0.0/08'), undefined);
  });

  test('customers read the firewall rule types their rules may name; staff changes show at once; no session, no list', async () => {
    const types = await ruleTypes();
    const c = await customerSession(t);
    const res = await call(c.cookie, { method: 'GET', url: `${BASE}/rule-types` });
    assert.equal(res.statusCode, 200, res.body);
    const list = res.json().data as { id: number; name: string; protocol: string; description: string; default_port: number | null }[];
    assert.ok(list.some((r) => r.id === types.tcp && r.protocol === 'tcp'));
    assert.deepEqual(Object.keys(list[0]!).sort(), ['default_port', 'description', 'id', 'name', 'protocol']);
    // the port a type is known for comes with it, so the console need not know ports by name
    assert.equal(list.find((r) => r.id === types.ssh)?.default_port, 22);
    assert.equal(list.find((r) => r.id === types.icmp)?.default_port, null);
    const added = await t.container.services.settings.createFirewallRuleType({ type: 'system' } as never, { name: `Game ${Date.now()}`, protocol: 'udp', description: 'game servers' });
    const again = (await call(c.cookie, { method: 'GET', url: `${BASE}/rule-types` })).json().data as { id: number }[];
    assert.ok(again.some((r) => r.id === added.id));
    assert.equal((await t.app.inject({ method: 'GET', url: `${BASE}/rule-types` })).statusCode, 401);
  });

  test('lifecycle: create, rules validated by the rule type, attach to a VM, applied at the datacenter, delete refused while attached', async () => {
    const types = await ruleTypes();
    const c = await customerSession(t);
    await fund(t, c.id);
    const vm = (await createVm(t, c.cookie, { name: 'web', location_id: 1, tier_id: await seededTier(t) })).json().data;
    await vmJobsDone(t);

    const created = await call(c.cookie, { method: 'POST', url: BASE, payload: { name: 'web', location_id: 1, description: 'web tier' } });
    assert.equal(created.statusCode, 201, created.body);
    const uuid = created.json().data.uuid as string;
    assert.equal((await call(c.cookie, { method: 'POST', url: BASE, payload: { name: 'WEB', location_id: 1 } })).json().code, 'NAME_TAKEN');
    assert.equal((await call(c.cookie, { method: 'POST', url: BASE, payload: { name: 'x', location_id: 999 } })).statusCode, 400);

    const rule = (payload: Record<string, unknown>) => call(c.cookie, { method: 'POST', url: `${BASE}/${uuid}/rules`, payload });
    const ssh = await rule({ direction: 'ingress', rule_type_id: types.tcp, port_from: 22, remote_cidr: '203.0.113.0/24' });
    assert.equal(ssh.statusCode, 201, ssh.body);
    assert.equal(ssh.json().data.port_to, 22);
    assert.equal(ssh.json().data.protocol, 'tcp');
    assert.equal((await rule({ direction: 'ingress', rule_type_id: types.tcp, remote_cidr: '0.0.0.0/0' })).json().errors[0].field, 'port_from');
    // a type with a default port stands in for a missing port_from; named ports still win
    const sshDefault = await rule({ direction: 'ingress', rule_type_id: types.ssh, remote_cidr: '198.51.100.0/24' });
    assert.equal(sshDefault.statusCode, 201, sshDefault.body);
    assert.deepEqual([sshDefault.json().data.port_from, sshDefault.json().data.port_to], [22, 22]);
    const sshOther = await rule({ direction: 'ingress', rule_type_id: types.ssh, port_from: 2222, remote_cidr: '198.51.100.0/24' });
    assert.deepEqual([sshOther.json().data.port_from, sshOther.json().data.port_to], [2222, 2222]);
    assert.equal((await rule({ direction: 'ingress', rule_type_id: types.ssh, port_to: 21, remote_cidr: '0.0.0.0/0' })).json().errors[0].field, 'port_to');
    for (const r of [sshDefault, sshOther]) assert.equal((await call(c.cookie, { method: 'DELETE', url: `${BASE}/${uuid}/rules/${r.json().data.id}` })).statusCode, 200);
    assert.equal((await rule({ direction: 'ingress', rule_type_id: types.icmp, port_from: 1, remote_cidr: '0.0.0.0/0' })).json().errors[0].field, 'port_from');
    assert.equal((await rule({ direction: 'egress', rule_type_id: types.tcp, port_from: 100, port_to: 99, remote_cidr: '0.0.0.0/0' })).statusCode, 400);
    assert.equal((await rule({ direction: 'egress', rule_type_id: types.tcp, port_from: 80, remote_cidr: '10.0.0.1/8' })).json().errors[0].field, 'remote_cidr');
    for (const cidr of ['2001:db8::1/32', 'fe80::%eth0/64']) {
      const bad = await rule({ direction: 'egress', rule_type_id: types.tcp, port_from: 80, remote_cidr: cidr });
      assert.equal(bad.statusCode, 400, `${cidr}: ${bad.body}`);
      assert.equal(bad.json().errors[0].field, 'remote_cidr');
    }
    const v6 = await rule({ direction: 'ingress', rule_type_id: types.tcp, port_from: 443, remote_cidr: '2001:DB8:0:0::/32' });
    assert.equal(v6.statusCode, 201, v6.body);
    assert.equal(v6.json().data.remote_cidr, '2001:db8::/32');
    assert.equal((await call(c.cookie, { method: 'DELETE', url: `${BASE}/${uuid}/rules/${v6.json().data.id}` })).statusCode, 200);
    assert.equal((await rule({ direction: 'egress', rule_type_id: 999999, remote_cidr: '0.0.0.0/0' })).json().errors[0].field, 'rule_type_id');
    const ping = await rule({ direction: 'egress', rule_type_id: types.icmp, remote_cidr: '0.0.0.0/0' });
    assert.equal(ping.statusCode, 201);

    const attach = await call(c.cookie, { method: 'POST', url: `/api/compute/vm/${vm.id}/security-groups`, payload: { security_group_uuid: uuid } });
    assert.equal(attach.statusCode, 200, attach.body);
    assert.deepEqual(attach.json().data.vm_ids, [vm.id]);
    await synced();
    const applied = simulator(t).firewalls.securityGroupOf(`sg-${uuid}`);
    assert.ok(applied);
    assert.deepEqual(applied.spec.machines, [`vm-${vm.id}`]);
    assert.deepEqual(applied.spec.rules.map((r) => [r.direction, r.protocol, r.portFrom, r.portTo, r.remoteCidr]), [
      ['ingress', 'tcp', 22, 22, '203.0.113.0/24'],
      ['egress', 'icmp', null, null, '0.0.0.0/0'],
    ]);
    const got = await call(c.cookie, { method: 'GET', url: `${BASE}/${uuid}` });
    assert.equal(got.json().data.synced, true);
    assert.equal(got.json().data.rules.length, 2);
    const list = await call(c.cookie, { method: 'GET', url: `${BASE}?page=1&limit=10` });
    assert.equal(list.json().meta.total, 1);

    // a rule type in use cannot be deleted
    const admin = await adminSession(t);
    const delType = await t.app.inject({ method: 'DELETE', url: `/api/backoffice/setting/firewall-rule-types/${types.tcp}/delete`, headers: { cookie: admin.cookie } });
    assert.equal(delType.statusCode, 409, delType.body);
    assert.equal(delType.json().code, 'RULE_TYPE_IN_USE');

    const del = await call(c.cookie, { method: 'DELETE', url: `${BASE}/${uuid}` });
    assert.equal(del.statusCode, 409);
    assert.equal(del.json().code, 'SECURITY_GROUP_IN_USE');
    assert.equal((await call(c.cookie, { method: 'DELETE', url: `${BASE}/${uuid}/rules/${ssh.json().data.id}` })).statusCode, 200);
    assert.equal((await call(c.cookie, { method: 'DELETE', url: `/api/compute/vm/${vm.id}/security-groups/${uuid}` })).statusCode, 200);
    assert.equal((await call(c.cookie, { method: 'DELETE', url: `/api/compute/vm/${vm.id}/security-groups/${uuid}` })).statusCode, 404);
    await synced();
    assert.deepEqual(simulator(t).firewalls.securityGroupOf(`sg-${uuid}`)?.spec.machines, []);
    assert.equal(simulator(t).firewalls.securityGroupOf(`sg-${uuid}`)?.spec.rules.length, 1);
    assert.equal((await call(c.cookie, { method: 'DELETE', url: `${BASE}/${uuid}` })).statusCode, 200);
    await synced();
    assert.equal(simulator(t).firewalls.securityGroupOf(`sg-${uuid}`), undefined);
    assert.equal((await call(c.cookie, { method: 'GET', url: `${BASE}/${uuid}` })).statusCode, 404);
  });

  test("another customer's group is a 404 for every verb; a VM of another location is refused", async () => {
    const types = await ruleTypes();
    const owner = await customerSession(t);
    const uuid = (await call(owner.cookie, { method: 'POST', url: BASE, payload: { name: 'mine', location_id: 1 } })).json().data.uuid;
    const other = await customerSession(t);
    await fund(t, other.id);
    const vm = (await createVm(t, other.cookie, { name: 'o', location_id: 1, tier_id: await seededTier(t) })).json().data;
    const verbs: Req[] = [
      { method: 'GET', url: `${BASE}/${uuid}` },
      { method: 'DELETE', url: `${BASE}/${uuid}` },
      { method: 'POST', url: `${BASE}/${uuid}/rules`, payload: { direction: 'ingress', rule_type_id: types.icmp, remote_cidr: '0.0.0.0/0' } },
      { method: 'DELETE', url: `${BASE}/${uuid}/rules/1` },
      { method: 'POST', url: `/api/compute/vm/${vm.id}/security-groups`, payload: { security_group_uuid: uuid } },
      { method: 'DELETE', url: `/api/compute/vm/${vm.id}/security-groups/${uuid}` },
    ];
    for (const v of verbs) assert.equal((await call(other.cookie, v)).statusCode, 404, `${v.method} ${v.url}`);
    assert.equal((await call(other.cookie, { method: 'GET', url: BASE })).json().meta.total, 0);
    // the owner cannot attach to the other customer's VM either
    assert.equal((await call(owner.cookie, { method: 'POST', url: `/api/compute/vm/${vm.id}/security-groups`, payload: { security_group_uuid: uuid } })).statusCode, 404);
    // location mismatch
    const far = (await call(other.cookie, { method: 'POST', url: BASE, payload: { name: 'far', location_id: 2 } })).json().data.uuid;
    assert.equal((await call(other.cookie, { method: 'POST', url: `/api/compute/vm/${vm.id}/security-groups`, payload: { security_group_uuid: far } })).json().code, 'LOCATION_MISMATCH');
  });

  test('attach and delete racing: the group is never deleted while attached', async () => {
    const c = await customerSession(t);
    await fund(t, c.id);
    const vm = (await createVm(t, c.cookie, { name: 'r', location_id: 1, tier_id: await seededTier(t) })).json().data;
    for (let i = 0; i < 5; i++) {
      const uuid = (await call(c.cookie, { method: 'POST', url: BASE, payload: { name: `race-${i}`, location_id: 1 } })).json().data.uuid;
      const [a, d] = await Promise.all([
        call(c.cookie, { method: 'POST', url: `/api/compute/vm/${vm.id}/security-groups`, payload: { security_group_uuid: uuid } }),
        call(c.cookie, { method: 'DELETE', url: `${BASE}/${uuid}` }),
      ]);
      assert.ok((a.statusCode === 200) !== (d.statusCode === 200), `${a.statusCode} ${d.statusCode}`);
    }
  });
});
