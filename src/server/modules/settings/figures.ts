import { sql } from 'kysely';
import type { LIVE_STAT_KEYS, StatSetting } from '../../../contract/settings';
import type { Stat } from '../../../contract/site';
import type { Database } from '../../db/connection';
import { dayOf } from '../../time';
import { countByCategory } from '../categories/queries';
import { isPublicSql } from '../resources/visibility';

/**
 * The live "Our Growing Community" figures (docs/decisions/381-live-figures.md), computed from the
 * database and kept between writes (`siteFigures`, decision 457):
 * - resources: the published resources (resources/visibility.ts); daily/weekly/monthly: those
 *   published in the last 1, 7 and 30 days (publishing sets created_at, decision 391);
 * - downloads: the counted downloads (the sum of the counters); daily/weekly/monthly: the per-day
 *   totals (download_days) of today, the last 7 and the last 30 UTC days, today included;
 * - growth: resources added in the last 30 days as a percentage of those there were before them
 *   (daily and weekly: the same over 1 and 7 days); 100 when there were none before and some came.
 */
export type LiveFigures = Record<(typeof LIVE_STAT_KEYS)[number], Pick<Stat, 'value' | 'daily' | 'weekly' | 'monthly'>>;

const DAY_MS = 24 * 60 * 60 * 1000;
const WINDOWS = { daily: 1, weekly: 7, monthly: 30 } as const;

/** The growth in % (one decimal) of `added` on top of `before`. */
export function growthPercent(added: number, before: number): number {
  if (before <= 0) return added > 0 ? 100 : 0;
  return Math.round((added / before) * 1000) / 10;
}

export async function liveFigures(database: Database, now = new Date()): Promise<LiveFigures> {
  const since = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const firstDay = (days: number) => dayOf(new Date(now.getTime() - (days - 1) * DAY_MS));
  // The total from the category counts (kept for the data version); the recent ones from the
  // newest-first index, read from the month's start only (one statement over every row took 0.85 s at
  // 1,000,000 on PostgreSQL). One statement after the other on one connection, and on PostgreSQL
  // without parallel workers: the sum of the counters reads every resource (0.1–0.25 s at 1M), and
  // in parallel it took both cores from the visitors' requests meanwhile (decision 457).
  const counts = await countByCategory(database);
  const { resources, downloads, perDay } = await database.db.transaction().execute(async (trx) => {
    if (database.dialect === 'postgres') await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
    return {
      resources: await trx
        .selectFrom('resources')
        .select((eb) => [
          sql<number>`coalesce(sum(case when created_at >= ${since(WINDOWS.daily)} then 1 else 0 end), 0)`.as('daily'),
          sql<number>`coalesce(sum(case when created_at >= ${since(WINDOWS.weekly)} then 1 else 0 end), 0)`.as('weekly'),
          eb.fn.countAll<number>().as('monthly'),
        ])
        .where('created_at', '>=', since(WINDOWS.monthly))
        .where(isPublicSql())
        .executeTakeFirstOrThrow(),
      downloads: await trx
        .selectFrom('resources')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('download_count'), eb.lit(0)).as('total'))
        .executeTakeFirstOrThrow(),
      perDay: await trx
        .selectFrom('download_days')
        .select((eb) => [
          sql<number>`coalesce(sum(case when day >= ${firstDay(WINDOWS.daily)} then count else 0 end), 0)`.as('daily'),
          sql<number>`coalesce(sum(case when day >= ${firstDay(WINDOWS.weekly)} then count else 0 end), 0)`.as('weekly'),
          eb.fn.coalesce(eb.fn.sum<number>('count'), eb.lit(0)).as('monthly'),
        ])
        .where('day', '>=', firstDay(WINDOWS.monthly))
        .executeTakeFirstOrThrow(),
    };
  });
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const added = { daily: Number(resources.daily), weekly: Number(resources.weekly), monthly: Number(resources.monthly) };
  return {
    resources: { value: total, ...added },
    downloads: { value: Number(downloads.total), daily: Number(perDay.daily), weekly: Number(perDay.weekly), monthly: Number(perDay.monthly) },
    growth: {
      value: growthPercent(added.monthly, total - added.monthly),
      daily: growthPercent(added.daily, total - added.daily),
      weekly: growthPercent(added.weekly, total - added.weekly),
      monthly: growthPercent(added.monthly, total - added.monthly),
    },
  };
}

/**
 * How long computed figures are served as they are. At 1,000,000 resources computing them reads every
 * resource's counter (0.1–0.5 s by database), which a visitor arriving after a quiet moment paid on
 * every page (the public answer expires after PUBLIC_CACHE_MAX_AGE_MS). Inside the minute the issue allows.
 */
export const FIGURES_MAX_AGE_MS = 30_000;
const REFRESH_DELAY_MS = 250;

interface Computed {
  version: number;
  at: number;
  value: LiveFigures;
}

/** Per database: the last figures computed, the computation under way for a data version, and whether a refresh is coming. */
const kept = new WeakMap<object, { last?: Computed; running?: { version: number; done: Promise<Computed> }; refreshing?: boolean }>();

/**
 * The live figures for the public site answer, kept per database (decision 457): after a write to
 * public data (a new data version) computed before answering, so an admin's change shows at once;
 * older than FIGURES_MAX_AGE_MS (downloads, which bump no version, and the sliding windows) answered
 * as they are while one computation refreshes them for the next reader. One computation at a time per
 * version, however many readers.
 */
export async function siteFigures(database: Database, clock: () => number = Date.now): Promise<LiveFigures> {
  const version = await database.dataVersion();
  let state = kept.get(database);
  if (!state) kept.set(database, (state = {}));
  const s = state;
  const compute = (): Promise<Computed> => {
    if (s.running?.version === version) return s.running.done;
    const at = clock();
    const done = liveFigures(database, new Date(at)).then(
      (value) => {
        if (s.running?.done === done) s.running = undefined;
        // The version was read before the data: a result can only be labelled older than it is.
        if (!s.last || version > s.last.version || (version === s.last.version && at >= s.last.at)) s.last = { version, at, value };
        return { version, at, value };
      },
      (error: unknown) => {
        if (s.running?.done === done) s.running = undefined;
        throw error;
      },
    );
    s.running = { version, done };
    return done;
  };
  const last = s.last;
  if (last && last.version === version) {
    // After this visitor's page is done (a page reads the site's answer among others, and on SQLite the
    // statements run in this thread: 0.1 s at 1M). A failed refresh leaves the figures as they were; the
    // next reader tries again.
    if (clock() - last.at >= FIGURES_MAX_AGE_MS && !s.refreshing) {
      s.refreshing = true;
      const refresh = () => compute().then(() => (s.refreshing = false), () => (s.refreshing = false));
      setTimeout(refresh, REFRESH_DELAY_MS).unref();
    }
    return last.value;
  }
  return (await compute()).value;
}

/** The four figures as visitors see them: live ones computed, fixed ones as typed. */
export function shownFigures(stats: readonly StatSetting[], live: LiveFigures | undefined): Stat[] {
  return stats.map(({ mode, ...stat }) => {
    const computed = mode === 'live' && live && stat.key !== 'members' ? live[stat.key] : undefined;
    return computed ? { ...stat, ...computed } : stat;
  });
}

/** Whether any figure is live (else nothing needs computing). */
export const anyLive = (stats: readonly StatSetting[]) => stats.some((s) => s.mode === 'live');
