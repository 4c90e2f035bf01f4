import { useEffect, useId, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { Button, Card, Loaded, Table } from './kit';

export const METRIC_RANGES = ['1h', '24h', '7d', '30d'] as const;
export type MetricRange = (typeof METRIC_RANGES)[number];

const RANGE_LABEL: Record<MetricRange, string> = { '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };

export interface MetricPoint {
  time: string;
  cpu_percent: number;
  memory_bytes: number | null;
  disk_read_bytes_per_second: number;
  disk_write_bytes_per_second: number;
  net_in_bytes_per_second: number;
  net_out_bytes_per_second: number;
}

export interface MetricSeries {
  resolution_seconds: number;
  from: string;
  to: string;
  memory_total_bytes: number;
  vcpus: number;
  points: MetricPoint[];
}

export interface TrafficMonths {
  months: { month: string; in_bytes: number; out_bytes: number; in_packets: number; out_packets: number }[];
}

const BINARY = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Bytes in binary units: 512 B, 1.5 KiB, 230 MiB, 2.0 GiB. */
export function formatBytes(n: number | null | undefined, suffix = ''): string {
  if (n === null || n === undefined) return '—';
  let v = n;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < BINARY.length - 1) {
    v /= 1024;
    i++;
  }
  const digits = i === 0 || v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${v.toFixed(digits)} ${BINARY[i]}${suffix}`;
}

const percent = (n: number | null | undefined) => (n === null || n === undefined ? '—' : `${n.toFixed(n < 10 ? 1 : 0)} %`);

interface Line {
  label: string;
  color: string;
  value: (p: MetricPoint) => number | null;
}

interface Graph {
  title: string;
  format: (n: number | null | undefined) => string;
  lines: Line[];
  /** a fixed top of the axis (100 % for CPU, the VM's memory) */
  max?: (s: MetricSeries) => number;
}

const GRAPHS: Graph[] = [
  { title: 'CPU', format: percent, lines: [{ label: 'CPU used', color: '#1d4ed8', value: (p) => p.cpu_percent }], max: () => 100 },
  { title: 'Memory in use', format: (n) => formatBytes(n), lines: [{ label: 'Memory', color: '#7c3aed', value: (p) => p.memory_bytes }], max: (s) => s.memory_total_bytes },
  {
    title: 'Disk',
    format: (n) => formatBytes(n, '/s'),
    lines: [
      { label: 'Read', color: '#047857', value: (p) => p.disk_read_bytes_per_second },
      { label: 'Write', color: '#b45309', value: (p) => p.disk_write_bytes_per_second },
    ],
  },
  {
    title: 'Network',
    format: (n) => formatBytes(n, '/s'),
    lines: [
      { label: 'In', color: '#0e7490', value: (p) => p.net_in_bytes_per_second },
      { label: 'Out', color: '#be123c', value: (p) => p.net_out_bytes_per_second },
    ],
  },
];

/** Every period of the range (seconds), with null where there is no point: a stopped VM shows a gap, not a zero. */
function columns(s: MetricSeries, g: Graph): uPlot.AlignedData {
  const step = s.resolution_seconds;
  const from = Date.parse(s.from) / 1000;
  const to = Date.parse(s.to) / 1000;
  const byTime = new Map(s.points.map((p) => [Date.parse(p.time) / 1000, p]));
  const xs: number[] = [];
  for (let x = from; x < to; x += step) xs.push(x);
  return [xs, ...g.lines.map((l) => xs.map((x) => (byTime.has(x) ? l.value(byTime.get(x)!) : null)))];
}

function timeLabel(range: MetricRange, seconds: number): string {
  const d = new Date(seconds * 1000);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  if (range === '1h' || range === '24h') return hm;
  return `${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })}${range === '7d' ? ` ${hm}` : ''}`;
}

function Chart({ series, graph, range }: { series: MetricSeries; graph: Graph; range: MetricRange }) {
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  const present = graph.lines.map((l) => series.points.map(l.value).filter((v): v is number => v !== null));
  const latest = graph.lines.map((l, i) => `${l.label} ${graph.format(present[i]!.at(-1))}`).join(', ');
  const known = present.some((p) => p.length > 0);
  useEffect(() => {
    const el = box.current;
    if (!el || !known) return;
    const top = graph.max?.(series);
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth || 600),
        height: 200,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, top ?? (max > 0 ? max * 1.1 : 1)] } },
        axes: [
          { values: (_u, splits) => splits.map((s) => timeLabel(range, s)), stroke: '#374151' },
          { values: (_u, splits) => splits.map((s) => graph.format(s)), size: 80, stroke: '#374151' },
        ],
        series: [
          { value: (_u, v) => (v === null ? '—' : new Date(v * 1000).toLocaleString('en-GB')) },
          ...graph.lines.map((l) => ({ label: l.label, stroke: l.color, width: 1.5, spanGaps: false, value: (_u: uPlot, v: number | null) => graph.format(v) })),
        ],
      },
      columns(series, graph),
      el,
    );
    return () => plot.destroy();
  }, [series, graph, range, known]);
  return (
    <figure className="metric-graph" aria-labelledby={id} data-testid={`graph-${graph.title}`} data-points={present[0]!.length}>
      <figcaption id={id}>
        {graph.title} <span className="muted">(latest: {latest})</span>
      </figcaption>
      {known ? <div ref={box} role="img" aria-label={`${graph.title}, ${RANGE_LABEL[range].toLowerCase()}: latest ${latest}`} /> : <p className="muted">No figures for this period{graph.title === 'Memory in use' ? ' (the guest does not report its memory)' : ''}.</p>}
    </figure>
  );
}

/**
 * A VM's graphs (CPU %, memory, disk and network rates) over a chosen range, drawn with uPlot,
 * and its traffic per month. `load` and `loadTraffic` read the customer's or the staff route.
 */
export function MetricGraphs({ queryKeys, load, loadTraffic }: { queryKeys: { series: (range: MetricRange) => readonly unknown[]; traffic: readonly unknown[] }; load: (range: MetricRange) => Promise<MetricSeries>; loadTraffic: () => Promise<TrafficMonths> }) {
  const [range, setRange] = useState<MetricRange>('1h');
  const series = useQuery({ queryKey: queryKeys.series(range), queryFn: () => load(range), refetchInterval: range === '1h' ? 60_000 : 300_000 });
  const traffic = useQuery({ queryKey: queryKeys.traffic, queryFn: loadTraffic, refetchInterval: 300_000 });
  return (
    <Card title="Graphs">
      <div role="tablist" aria-label="Period" className="row">
        {METRIC_RANGES.map((r) => (
          <Button key={r} role="tab" aria-selected={r === range} kind={r === range ? 'primary' : 'secondary'} onClick={() => setRange(r)}>
            {RANGE_LABEL[r]}
          </Button>
        ))}
      </div>
      <div role="tabpanel" aria-label={RANGE_LABEL[range]}>
        <Loaded query={series}>
          {(s) =>
            s.points.length === 0 ? (
              <p className="muted">No figures yet: a running VM is sampled every minute.</p>
            ) : (
              <div className="metric-graphs">
                {GRAPHS.map((g) => (
                  <Chart key={g.title} series={s} graph={g} range={range} />
                ))}
              </div>
            )
          }
        </Loaded>
      </div>
      <Loaded query={traffic}>
        {(t) => (
          <Table caption="Network traffic per month (UTC)" head={['Month', 'In', 'Out']} empty={t.months.length === 0}>
            {t.months.map((m) => (
              <tr key={m.month}>
                <td>{m.month}</td>
                <td>{formatBytes(m.in_bytes)}</td>
                <td>{formatBytes(m.out_bytes)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Loaded>
    </Card>
  );
}
