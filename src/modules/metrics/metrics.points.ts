import type { MachineCounters } from '../../integrations/datacenter/index.js';

/** The counters kept of a VM's last sample. */
export interface StoredCounters {
  sampledAt: Date;
  cpuTimeNs: number;
  diskReadBytes: number;
  diskWriteBytes: number;
  diskReadOps: number;
  diskWriteOps: number;
  netInBytes: number;
  netOutBytes: number;
  netInPackets: number;
  netOutPackets: number;
}

/** What one minute's point holds: amounts since the previous sample, CPU and memory as measured. */
export interface MinuteAmounts {
  cpuPercent: number;
  memoryBytes: number | null;
  diskReadBytes: number;
  diskWriteBytes: number;
  diskReadOps: number;
  diskWriteOps: number;
  netInBytes: number;
  netOutBytes: number;
  netInPackets: number;
  netOutPackets: number;
}

const COUNTERS = ['diskReadBytes', 'diskWriteBytes', 'diskReadOps', 'diskWriteOps', 'netInBytes', 'netOutBytes', 'netInPackets', 'netOutPackets'] as const;

/** A restarted guest process counts from zero again: any counter lower than before says so. */
export function restarted(prev: StoredCounters, cur: MachineCounters): boolean {
  return cur.cpuTimeNs < prev.cpuTimeNs || COUNTERS.some((k) => cur[k] < prev[k]);
}

/**
 * The amounts between two reads of a VM's counters `elapsedMs` apart, or null when there is no
 * time between them. After a restart (a counter went down) every counter counts from zero, so the
 * amount is the new value, and the CPU share is taken over at most one minute (the guest ran only
 * since its boot). CPU is a percent of all its vCPUs, within 0–100.
 */
export function amountsBetween(prev: StoredCounters, cur: MachineCounters, elapsedMs: number): MinuteAmounts | null {
  if (elapsedMs <= 0) return null;
  const reset = restarted(prev, cur);
  const delta = (k: (typeof COUNTERS)[number] | 'cpuTimeNs') => (reset ? cur[k] : cur[k] - prev[k]);
  const seconds = (reset ? Math.min(elapsedMs, 60_000) : elapsedMs) / 1000;
  const cpu = (delta('cpuTimeNs') / (seconds * 1e9 * Math.max(1, cur.vcpus))) * 100;
  return {
    cpuPercent: Math.round(Math.min(100, Math.max(0, cpu)) * 100) / 100,
    memoryBytes: cur.memoryUsedBytes,
    diskReadBytes: delta('diskReadBytes'),
    diskWriteBytes: delta('diskWriteBytes'),
    diskReadOps: delta('diskReadOps'),
    diskWriteOps: delta('diskWriteOps'),
    netInBytes: delta('netInBytes'),
    netOutBytes: delta('netOutBytes'),
    netInPackets: delta('netInPackets'),
    netOutPackets: delta('netOutPackets'),
  };
}

export const MINUTE_MS = 60_000;
export const floorTo = (at: Date, ms: number): Date => new Date(Math.floor(at.getTime() / ms) * ms);
export const utcDay = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
export const utcMonth = (at: Date, n = 0): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + n, 1));
