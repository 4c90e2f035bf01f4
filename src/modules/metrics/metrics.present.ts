import type { Static } from 'typebox';
import type { SeriesRow, TrafficMonth } from './metrics.repository.js';
import type { MetricPoint, TrafficMonth as TrafficMonthSchema } from './metrics.schemas.js';

const perSecond = (amount: number, minutes: number): number => (minutes > 0 ? Math.round((amount / (minutes * 60)) * 100) / 100 : 0);

export function metricPointView(r: SeriesRow): Static<typeof MetricPoint> {
  const m = r.samples;
  return {
    time: r.time.toISOString(),
    cpu_percent: Math.round(r.cpuPercent * 100) / 100,
    cpu_percent_max: Math.round(r.cpuPercentMax * 100) / 100,
    memory_bytes: r.memoryBytes,
    memory_bytes_max: r.memoryBytesMax,
    disk_read_bytes_per_second: perSecond(r.diskReadBytes, m),
    disk_write_bytes_per_second: perSecond(r.diskWriteBytes, m),
    disk_read_ops_per_second: perSecond(r.diskReadOps, m),
    disk_write_ops_per_second: perSecond(r.diskWriteOps, m),
    net_in_bytes_per_second: perSecond(r.netInBytes, m),
    net_out_bytes_per_second: perSecond(r.netOutBytes, m),
    net_in_packets_per_second: perSecond(r.netInPackets, m),
    net_out_packets_per_second: perSecond(r.netOutPackets, m),
    net_in_bytes: r.netInBytes,
    net_out_bytes: r.netOutBytes,
    minutes: m,
  };
}

export function trafficMonthView(t: TrafficMonth): Static<typeof TrafficMonthSchema> {
  return { month: t.month.toISOString().slice(0, 7), in_bytes: t.inBytes, out_bytes: t.outBytes, in_packets: t.inPackets, out_packets: t.outPackets };
}
