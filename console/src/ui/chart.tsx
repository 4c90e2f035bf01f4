import { useId } from 'react';

const compact = (n: number) => n.toLocaleString('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export interface Bar {
  label: string;
  value: number;
}

/**
 * A bar chart in SVG (no chart library: the bundle stays small), with the numbers also in a
 * table for screen readers and keyboard users.
 */
export function BarChart({ title, bars, format = (n) => n.toLocaleString('en-US') }: { title: string; bars: Bar[]; format?: (n: number) => string }) {
  const id = useId();
  const max = Math.max(1, ...bars.map((b) => b.value));
  const w = 640;
  const h = 220;
  const pad = 28;
  const step = bars.length ? (w - pad) / bars.length : 0;
  return (
    <figure className="chart" aria-labelledby={id}>
      <figcaption id={id}>{title}</figcaption>
      <svg viewBox={`0 0 ${w} ${h + 40}`} role="img" aria-label={`${title}: ${bars.map((b) => `${b.label} ${format(b.value)}`).join(', ')}`}>
        <line x1={pad} y1={h} x2={w} y2={h} stroke="#6b7280" />
        {bars.map((b, i) => {
          const bh = (b.value / max) * (h - 34);
          const x = pad + i * step + step * 0.15;
          return (
            <g key={b.label}>
              <rect x={x} y={h - bh} width={step * 0.7} height={bh} fill="#1d4ed8">
                <title>{`${b.label}: ${format(b.value)}`}</title>
              </rect>
              <text x={x + step * 0.35} y={h + 16} textAnchor="middle" fontSize="11" fill="#374151">
                {b.label}
              </text>
              {b.value > 0 ? (
                <text x={x + step * 0.35} y={h - bh - 4} textAnchor="middle" fontSize="10" fill="#111827">
                  {compact(b.value)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>{title}</caption>
        <tbody>
          {bars.map((b) => (
            <tr key={b.label}>
              <th scope="row">{b.label}</th>
              <td>{format(b.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
