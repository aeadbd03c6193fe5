import { useId } from 'react';

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  /** CSS class giving the bar colour (see admin.css). */
  className: string;
}

export interface BarChartProps {
  title: string;
  periods: string[];
  series: ChartSeries[];
  /** Fixed top of the scale (e.g. 5 for ratings); otherwise the largest value. */
  max?: number;
  /** A sentence a screen reader hears instead of the picture; the table below has the exact numbers. */
  summary: string;
}

const W = 720;
const H = 220;
const PAD = { left: 36, right: 8, top: 10, bottom: 40 };

/** Grouped bars drawn in plain SVG: one group per period, one bar per series. */
export function BarChart({ title, periods, series, max, summary }: BarChartProps) {
  const id = useId().replace(/:/g, '');
  const top = Math.max(max ?? 0, ...series.flatMap((s) => s.values.map((v) => v ?? 0)), 1);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const groupW = plotW / Math.max(periods.length, 1);
  const barW = Math.max(1, (groupW * 0.8) / series.length);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  // Label every period when they fit, otherwise about twelve evenly spread ones.
  const every = Math.max(1, Math.ceil(periods.length / 12));
  const ticks = [0, top / 2, top].map((v) => Math.round(v * 10) / 10);

  return (
    <figure className="chart">
      <figcaption id={`${id}-t`} className="chart__title">
        {title}
      </figcaption>
      <ul className="chart__legend" aria-hidden="true">
        {series.map((s) => (
          <li key={s.label}>
            <span className={`chart__swatch ${s.className}`} /> {s.label}
          </li>
        ))}
      </ul>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-t ${id}-d`} className="chart__svg" preserveAspectRatio="none">
        <desc id={`${id}-d`}>{summary}</desc>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="chart__grid" />
            <text x={PAD.left - 4} y={y(v) + 4} textAnchor="end" className="chart__label">
              {v}
            </text>
          </g>
        ))}
        {periods.map((p, i) => (
          <g key={p}>
            {series.map((s, j) => {
              const v = s.values[i] ?? 0;
              return (
                <rect
                  key={s.label}
                  x={PAD.left + i * groupW + groupW * 0.1 + j * barW}
                  y={y(v)}
                  width={barW}
                  height={Math.max(0, PAD.top + plotH - y(v))}
                  className={s.className}
                />
              );
            })}
            {i % every === 0 && (
              <text x={PAD.left + i * groupW + groupW / 2} y={H - PAD.bottom + 16} textAnchor="middle" className="chart__label">
                {p.length === 10 ? p.slice(5) : p.replace(/^\d{4}-/, '')}
              </text>
            )}
          </g>
        ))}
      </svg>
    </figure>
  );
}
