import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { MetricsReader } from '../../src/modules/metrics/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
before(async () => {
  t = await buildTestApp({ worker: false });
});
after(() => t.close());

test('minutePoints answers one metric of the VMs asked, in [from, to), by VM and minute', async () => {
  const db = t.container.db;
  await db.execute(sql`select ensure_metrics_partition('vm_metrics_minute', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', '20260301')`);
  for (const [vm, minute, cpu, mem, inBytes] of [
    [1, '2026-03-01T10:00:00Z', 12.5, 1000, 60],
    [1, '2026-03-01T10:01:00Z', 50, null, 120],
    [1, '2026-03-01T10:02:00Z', 75, 3000, 180],
    [2, '2026-03-01T10:01:00Z', 5, 2000, 600],
    [3, '2026-03-01T10:01:00Z', 99, 2000, 6000],
  ] as const) {
    await db.execute(sql`insert into vm_metrics_minute (vm_id, customer_id, samples, cpu_percent, cpu_percent_max, memory_samples, memory_bytes, memory_bytes_max,
      disk_read_bytes, disk_write_bytes, disk_read_ops, disk_write_ops, net_in_bytes, net_out_bytes, net_in_packets, net_out_packets, minute)
      values (${vm}, 1, 1, ${cpu}, ${cpu}, ${mem === null ? 0 : 1}, ${mem}, ${mem}, 0, 0, 0, 0, ${inBytes}, 0, 0, 0, ${minute}::timestamptz)`);
  }
  const reader = new MetricsReader(db);
  const from = new Date('2026-03-01T10:00:00Z');
  const to = new Date('2026-03-01T10:02:00Z');
  assert.deepEqual(await reader.minutePoints([2, 1], 'cpu_percent', from, to), [
    { vmId: 1, minute: new Date('2026-03-01T10:00:00Z'), value: 12.5 },
    { vmId: 1, minute: new Date('2026-03-01T10:01:00Z'), value: 50 },
    { vmId: 2, minute: new Date('2026-03-01T10:01:00Z'), value: 5 },
  ]);
  assert.deepEqual(
    (await reader.minutePoints([1], 'memory_bytes', from, to)).map((p) => p.value),
    [1000, null],
  );
  assert.deepEqual(
    (await reader.minutePoints([3], 'net_in_bytes', from, to)).map((p) => p.value),
    [6000],
  );
  assert.deepEqual(await reader.minutePoints([], 'net_in_bytes', from, to), []);
});
