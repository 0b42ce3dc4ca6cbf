import { type Kysely, sql } from 'kysely';
import type { LIVE_STAT_KEYS, StatSetting } from '../../../contract/settings';
import type { Stat } from '../../../contract/site';
import type { Tables } from '../../db/schema';
import { dayOf } from '../../time';

/**
 * The live "Our Growing Community" figures (docs/decisions/381-live-figures.md), computed from the
 * database on each read of the public site answer (the public cache keeps that answer at most
 * PUBLIC_CACHE_MAX_AGE_MS, well inside the minute the issue allows, and a download, which does not
 * bump the data version, shows once it expires):
 * - resources: every resource (all are public: there are no drafts); daily/weekly/monthly: those
 *   added in the last 1, 7 and 30 days;
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

export async function liveFigures(db: Kysely<Tables>, now = new Date()): Promise<LiveFigures> {
  const since = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const firstDay = (days: number) => dayOf(new Date(now.getTime() - (days - 1) * DAY_MS));
  const [resources, downloads, perDay] = await Promise.all([
    db
      .selectFrom('resources')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        sql<number>`coalesce(sum(case when created_at >= ${since(WINDOWS.daily)} then 1 else 0 end), 0)`.as('daily'),
        sql<number>`coalesce(sum(case when created_at >= ${since(WINDOWS.weekly)} then 1 else 0 end), 0)`.as('weekly'),
        sql<number>`coalesce(sum(case when created_at >= ${since(WINDOWS.monthly)} then 1 else 0 end), 0)`.as('monthly'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('resources')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('download_count'), eb.lit(0)).as('total'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('download_days')
      .select((eb) => [
        sql<number>`coalesce(sum(case when day >= ${firstDay(WINDOWS.daily)} then count else 0 end), 0)`.as('daily'),
        sql<number>`coalesce(sum(case when day >= ${firstDay(WINDOWS.weekly)} then count else 0 end), 0)`.as('weekly'),
        eb.fn.coalesce(eb.fn.sum<number>('count'), eb.lit(0)).as('monthly'),
      ])
      .where('day', '>=', firstDay(WINDOWS.monthly))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(resources.total);
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

/** The four figures as visitors see them: live ones computed, fixed ones as typed. */
export function shownFigures(stats: readonly StatSetting[], live: LiveFigures | undefined): Stat[] {
  return stats.map(({ mode, ...stat }) => {
    const computed = mode === 'live' && live && stat.key !== 'members' ? live[stat.key] : undefined;
    return computed ? { ...stat, ...computed } : stat;
  });
}

/** Whether any figure is live (else nothing needs computing). */
export const anyLive = (stats: readonly StatSetting[]) => stats.some((s) => s.mode === 'live');
