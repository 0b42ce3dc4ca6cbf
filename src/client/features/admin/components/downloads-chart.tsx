import * as React from 'react';
import { formatDay, formatNumber } from '../lib/format';

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 16, right: 12, bottom: 36, left: 48 };

/** A rounded-up axis maximum (1, 2, 5 × 10ⁿ) so gridlines land on readable numbers. */
function niceMax(n: number): number {
  if (n <= 4) return 4;
  const mag = 10 ** Math.floor(Math.log10(n));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * mag >= n)!;
  return step * mag;
}

/**
 * Downloads per day as a plain SVG bar chart. Screen readers get a summary as the image's
 * name and the full numbers in a table.
 */
export function DownloadsChart({ days }: { days: { day: string; count: number }[] }) {
  const id = React.useId();
  const total = days.reduce((s, d) => s + d.count, 0);
  const busiest = days.reduce<{ day: string; count: number } | null>((b, d) => (!b || d.count > b.count ? d : b), null);
  const max = niceMax(Math.max(0, ...days.map((d) => d.count)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, days.length);
  const barW = Math.max(2, slot * 0.7);
  const ticks = [0, max / 4, max / 2, (3 * max) / 4, max];
  const labelEvery = Math.max(1, Math.ceil(days.length / 6));
  const summary =
    days.length === 0
      ? 'No download data yet.'
      : `${formatNumber(total)} downloads in the last ${days.length} days, from ${formatDay(days[0].day)} to ${formatDay(days[days.length - 1].day)}.` +
        (busiest && busiest.count > 0 ? ` Busiest day: ${formatDay(busiest.day)} with ${formatNumber(busiest.count)}.` : '');

  return (
    <figure className="grid gap-3">
      <figcaption id={`${id}-summary`} className="text-sm text-muted-foreground">
        {summary}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-summary`}
        className="h-auto w-full overflow-visible text-muted-foreground"
      >
        <defs>
          <linearGradient id={`${id}-bar`} x1="0" y1="0" x2="0" y2="1">
            <stop offset="0%" stopColor="#a855f7" />
            <stop offset="100%" stopColor="#7c3aed" />
          </linearGradient>
        </defs>
        {ticks.map((t) => {
          const y = PAD.top + innerH - (t / max) * innerH;
          return (
            <g key={t}>
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} stroke="currentColor" strokeOpacity={t === 0 ? 0.5 : 0.15} />
              <text x={PAD.left - 8} y={y} dy="0.32em" textAnchor="end" fontSize="11" fill="currentColor">
                {formatNumber(Math.round(t))}
              </text>
            </g>
          );
        })}
        {days.map((d, i) => {
          const h = (d.count / max) * innerH;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={d.day}>
              <rect x={x} y={PAD.top + innerH - h} width={barW} height={Math.max(0, h)} rx={Math.min(3, barW / 2)} fill={`url(#${id}-bar)`}>
                <title>{`${formatDay(d.day)}: ${formatNumber(d.count)} downloads`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text x={x + barW / 2} y={HEIGHT - PAD.bottom + 18} textAnchor="middle" fontSize="11" fill="currentColor">
                  {formatDay(d.day)}
                </text>
              )}
            </g>
          );
        })}
        <text x={12} y={PAD.top + innerH / 2} fontSize="11" fill="currentColor" textAnchor="middle" transform={`rotate(-90 12 ${PAD.top + innerH / 2})`}>
          Downloads
        </text>
      </svg>
      <details className="text-sm">
        <summary className="w-fit cursor-pointer rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50">
          Show data table
        </summary>
        <div className="mt-2 max-h-64 overflow-y-auto rounded-md border">
          <table className="w-full text-left">
            <caption className="sr-only">Downloads per day</caption>
            <thead className="sticky top-0 bg-muted">
              <tr>
                <th scope="col" className="px-3 py-1.5 font-medium">Day</th>
                <th scope="col" className="px-3 py-1.5 text-right font-medium">Downloads</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day} className="border-t">
                  <td className="px-3 py-1">{formatDay(d.day)}</td>
                  <td className="px-3 py-1 text-right tabular-nums">{formatNumber(d.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
