import * as React from 'react';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { type DownloadDay, downloadsSummary, formatDay, formatNumber } from '../lib/format';

type PerDay = DownloadDay[];

const AXIS = { fontSize: 11, fill: 'currentColor' };
const TOOLTIP = {
  contentStyle: { background: 'var(--popover)', color: 'var(--popover-foreground)', border: '1px solid var(--border)', borderRadius: 8, fontSize: 12 },
  labelStyle: { color: 'var(--popover-foreground)' },
  cursor: { fill: 'currentColor', fillOpacity: 0.08 },
};

/**
 * Downloads per day (recharts): bars up to a month, an area for longer ranges. Screen readers
 * get a summary as the chart's name and every number in the data table below it.
 */
export default function DownloadsChart({ days, label = 'Downloads per day' }: { days: PerDay; label?: string }) {
  const id = React.useId();
  const summary = downloadsSummary(days);
  const data = days.map((d) => ({ ...d, label: formatDay(d.day) }));
  const common = { data, margin: { top: 8, right: 8, bottom: 0, left: 0 } };
  const axes = (
    <>
      <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.15} />
      <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: 'currentColor', strokeOpacity: 0.5 }} minTickGap={24} />
      <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} width={44} tickFormatter={(v: number) => formatNumber(v)} />
      <Tooltip {...TOOLTIP} formatter={(v) => [formatNumber(Number(v)), 'Downloads']} />
    </>
  );

  return (
    <figure className="grid gap-3" data-chart="downloads-per-day" data-days={days.length}>
      <figcaption id={`${id}-summary`} className="text-sm text-muted-foreground">
        {summary}
      </figcaption>
      <div role="img" aria-labelledby={`${id}-summary`} className="h-60 w-full text-muted-foreground">
        <ResponsiveContainer width="100%" height="100%">
          {days.length > 31 ? (
            <AreaChart {...common}>
              <defs>
                <linearGradient id={`${id}-area`} x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor="#a855f7" stopOpacity={0.6} />
                  <stop offset="100%" stopColor="#7c3aed" stopOpacity={0.05} />
                </linearGradient>
              </defs>
              {axes}
              <Area type="monotone" dataKey="count" name="Downloads" stroke="#7c3aed" strokeWidth={2} fill={`url(#${id}-area)`} isAnimationActive={false} />
            </AreaChart>
          ) : (
            <BarChart {...common}>
              <defs>
                <linearGradient id={`${id}-bar`} x1="0" y1="0" x2="0" y2="1">
                  <stop offset="0%" stopColor="#a855f7" />
                  <stop offset="100%" stopColor="#7c3aed" />
                </linearGradient>
              </defs>
              {axes}
              <Bar dataKey="count" name="Downloads" fill={`url(#${id}-bar)`} radius={[3, 3, 0, 0]} maxBarSize={40} isAnimationActive={false} />
            </BarChart>
          )}
        </ResponsiveContainer>
      </div>
      <DataTable caption={label} head={['Day', 'Downloads']} rows={days.map((d) => [formatDay(d.day), d.count])} />
    </figure>
  );
}

/** Downloads by category over the range, as horizontal bars, with its data table. */
export function CategoryChart({ categories }: { categories: { title: string; count: number }[] }) {
  const id = React.useId();
  const total = categories.reduce((s, c) => s + c.count, 0);
  const sorted = [...categories].sort((a, b) => b.count - a.count);
  const summary =
    total === 0
      ? 'No downloads by category in this range yet.'
      : `Downloads by category: ${sorted
          .filter((c) => c.count > 0)
          .map((c) => `${c.title} ${formatNumber(c.count)}`)
          .join(', ')}.`;
  return (
    <figure className="grid gap-3" data-chart="downloads-by-category">
      <figcaption id={`${id}-summary`} className="sr-only">
        {summary}
      </figcaption>
      <div role="img" aria-labelledby={`${id}-summary`} className="w-full text-muted-foreground" style={{ height: sorted.length * 32 + 16 }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={sorted} layout="vertical" margin={{ top: 0, right: 40, bottom: 0, left: 0 }}>
            <XAxis type="number" hide allowDecimals={false} />
            <YAxis type="category" dataKey="title" tick={AXIS} tickLine={false} axisLine={false} width={128} />
            <Tooltip {...TOOLTIP} formatter={(v) => [formatNumber(Number(v)), 'Downloads']} />
            <Bar
              dataKey="count"
              name="Downloads"
              fill="#8b5cf6"
              radius={[0, 3, 3, 0]}
              maxBarSize={20}
              isAnimationActive={false}
              label={{ position: 'right', fontSize: 11, fill: 'currentColor', formatter: (v: unknown) => formatNumber(Number(v)) }}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <DataTable caption="Downloads by category" head={['Category', 'Downloads']} rows={sorted.map((c) => [c.title, c.count])} />
    </figure>
  );
}

/**
 * The numbers behind a chart. The table is always in the page for assistive technology (visually
 * hidden, not folded away: a closed <details> hides its content from screen readers too); the
 * button only shows or hides it for sighted users.
 */
function DataTable({ caption, head, rows }: { caption: string; head: [string, string]; rows: [string, number][] }) {
  const [shown, setShown] = React.useState(false);
  const id = React.useId();
  return (
    <div className="text-sm">
      <button
        type="button"
        aria-expanded={shown}
        aria-controls={id}
        onClick={() => setShown((v) => !v)}
        className="w-fit cursor-pointer rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {shown ? 'Hide data table' : 'Show data table'}
      </button>
      {/* Shown, it scrolls: then it takes the focus too, so the keyboard can scroll it. */}
      <div
        id={id}
        role={shown ? 'region' : undefined}
        aria-label={shown ? caption : undefined}
        tabIndex={shown ? 0 : undefined}
        className={shown ? 'mt-2 max-h-64 overflow-y-auto rounded-md border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50' : 'sr-only'}
      >
        <table className="w-full text-left">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-muted">
            <tr>
              <th scope="col" className="px-3 py-1.5 font-medium">
                {head[0]}
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-medium">
                {head[1]}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, n]) => (
              <tr key={name} className="border-t">
                <td className="px-3 py-1">{name}</td>
                <td className="px-3 py-1 text-right tabular-nums">{formatNumber(n)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
