// One sweep converging N resources of mixed kinds against the simulated datacenter
// (docs/benchmarks.md, "One sweep over 1,000 resources").
//
//   npm run bench:lifecycle [-- <resources, default 1000> <datacenter delay ms, default 5>]
//
// On a fresh PostgreSQL database it creates the resources through the services, as the API does
// (per 10: 4 VMs, 2 private networks, 2 security groups, 1 load balancer, 1 bucket), then throws
// their queued jobs away and makes their changes overdue: every one of them is lost work. With the
// worker started it runs the sweep once and waits until every resource is applied, counting the
// calls that reach the datacenter (a wrapper around it) and the object storage. A second sweep over
// the converged rows must queue nothing and call nothing.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config/index.js';
import { buildContainer, type Container } from '../src/container.js';
import type { SimulatedDatacenter } from '../src/integrations/datacenter/index.js';
import { customers } from '../src/modules/customers/customers.tables.js';
import { BalanceLogType } from '../src/modules/wallet/index.js';
import { queryRows } from '../src/platform/db/database.js';
import { createLogger } from '../src/platform/logger.js';
import { countDatacenterCalls } from '../test/helpers/datacenter-calls.js';
import { machine, recreateDatabase } from './lib.js';

const total = Number(process.argv[2] ?? 1000);
const delayMs = Number(process.argv[3] ?? 5);
const PER_CUSTOMER = 10;

async function seedResources(c: Container): Promise<Record<string, number>> {
  const s = c.services;
  const tier = (await s.tiers.list({ includeRetired: false })).find((x) => x.name === 'gp.small');
  if (!tier) throw new Error('seeded tier gp.small missing');
  (c.datacenter as SimulatedDatacenter).setHypervisors(1, [{ name: 'bench', vcpuTotal: 1_000_000, memoryMbTotal: 1_000_000_000 }]);
  const kinds: Record<string, number> = {};
  const count = (k: string) => (kinds[k] = (kinds[k] ?? 0) + 1);
  for (let i = 0; i * PER_CUSTOMER < total; i++) {
    const [row] = await c.db
      .insert(customers)
      .values({ firstName: 'Bench', lastName: `${i}`, accountType: 'P', isRegistrationCompleted: true, emailVerifiedAt: new Date(), email: `bench-${i}-${randomBytes(3).toString('hex')}@example.test`, passwordHash: 'x', vmLimit: 10, loadbalancerLimit: 5, objectStorageLimit: 5 })
      .returning({ id: customers.id });
    const id = row!.id;
    await c.db.transaction((tx) => s.wallet.credit(tx, { customerId: id, type: BalanceLogType.AdjustAdd, amount: '10000000.00', part: 'actual', referenceType: 'bench', referenceId: `bench-${id}`, description: 'bench funding' }));
    const left = Math.min(PER_CUSTOMER, total - i * PER_CUSTOMER);
    const plan = ['vm', 'vm', 'vm', 'vm', 'network', 'network', 'security_group', 'security_group', 'load_balancer', 'bucket'].slice(0, left);
    for (const [n, kind] of plan.entries()) {
      if (kind === 'vm') await s.compute.create(id, { name: `vm-${i}-${n}`, location_id: 1, tier_id: tier.id, public_ip: false });
      if (kind === 'network') await s.networks.create(id, { name: `net-${i}-${n}`, location_id: 1, cidr: 24 });
      if (kind === 'security_group') await s.securityGroups.create(id, { name: `sg-${i}-${n}`, location_id: 1 });
      if (kind === 'load_balancer') await s.loadBalancers.create(id, { name: `lb-${i}`, location_id: 1, algorithm: 'round_robin', forwarding_rules: [{ entry_protocol: 'http', entry_port: 80, target_protocol: 'http', target_port: 8080 }] });
      if (kind === 'bucket') await s.objectStorage.createBucket(id, { name: `bench-${i}-${randomBytes(3).toString('hex')}`, location_id: 1, size: 1 });
      count(kind);
    }
  }
  return kinds;
}

async function unapplied(c: Container): Promise<number> {
  const [row] = await queryRows<{ n: number }>(c.db, sql`select count(*)::int as n from resource_lifecycle where applied_generation < desired_generation`);
  return row!.n;
}

async function main() {
  const url = await recreateDatabase('chp_bench_lifecycle');
  Object.assign(process.env, { DATABASE_URL: url, DATACENTER_DELAY_MS: String(delayMs), NODE_ENV: 'development', LOG_LEVEL: 'warn' });
  const c = await buildContainer(loadConfig(), { log: createLogger('warn'), skipBootstrapAdmin: true, jobPollingIntervalSeconds: 1 });
  try {
    const seedStarted = performance.now();
    const kinds = await seedResources(c);
    const seedMs = performance.now() - seedStarted;
    // every change is lost work: no job waits, and each change is overdue
    await c.db.execute(sql`delete from pgboss.job where name = 'resources'`);
    await c.db.execute(sql`update resource_lifecycle set due_at = now() - interval '1 minute'`);
    const pending = await unapplied(c);

    const calls = countDatacenterCalls(c.datacenter);
    await c.startWorker();
    const started = performance.now();
    const queued = await c.lifecycle.sweep();
    const sweepMs = performance.now() - started;
    const deadline = Date.now() + 30 * 60_000;
    while ((await unapplied(c)) > 0) {
      if (Date.now() > deadline) throw new Error('did not converge within 30 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const convergeMs = performance.now() - started;
    const [failed] = await queryRows<{ n: number }>(c.db, sql`select count(*)::int as n from resource_lifecycle where failed_generation is not null`);
    const datacenterCalls = calls.total();
    const byCall = calls.byCall();

    // a second sweep over converged rows: nothing to queue, nothing to call
    calls.reset();
    await c.db.execute(sql`update resource_lifecycle set due_at = now() - interval '1 minute'`);
    const again = await c.lifecycle.sweep();
    await new Promise((r) => setTimeout(r, 2000));

    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      database: 'PostgreSQL (local)',
      resources: pending,
      kinds,
      datacenterDelayMs: delayMs,
      seedMs: Math.round(seedMs),
      sweepStatementMs: Math.round(sweepMs),
      queued,
      convergeMs: Math.round(convergeMs),
      perResourceMs: Number((convergeMs / pending).toFixed(2)),
      datacenterCalls,
      byCall,
      failed: failed!.n,
      secondSweep: { queued: again, datacenterCalls: calls.total() },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await c.close();
  }
}

await main();
