import type { AppId } from '../../contract/apps';
import { CATEGORIES, DEMO_CATEGORY_COUNTS, type CategoryValue } from '../../contract/categories';
import { dayOf } from '../time';
import { COMMON_EXTRAS, DEMO_ANNOUNCEMENTS, DEMO_VOCABULARY, PREMIUM_ITEMS } from './demo-catalog';
import { createRng, type Rng } from '../prng';

export interface DemoResource {
  id: number;
  title: string;
  description: string;
  category: CategoryValue;
  thumbnail_url: string;
  download_url: string;
  is_premium: number;
  download_count: number;
  popularity: number;
  tags: string[];
  /** resources.apps: the apps its text names, as its owner would list them (demoApps); null: deduced from its files. */
  apps: string | null;
  created_at: string;
  updated_at: string;
}

export interface DemoData {
  resources: DemoResource[];
  announcements: { message: string; is_active: number; created_at: string }[];
  /** Every download per UTC day: the sum of resourceDownloadDays for that day. */
  downloadDays: { day: string; count: number }[];
  /** Each resource's downloads per UTC day since it was added (days with downloads only); they add up to its download_count. */
  resourceDownloadDays: { resource_id: number; day: string; count: number }[];
}

export interface DemoOptions {
  /** Dates are relative to this moment so "Added 3 days ago" stays true on any day. */
  now?: Date;
  seed?: number;
  /** First id to hand out; ids follow created_at so newer resources have larger ids. */
  firstId?: number;
}

export const DEMO_SEED = 20240601;
const DAY_MS = 86_400_000;
/** How far back the demo catalogue reaches. */
const HISTORY_DAYS = 730;
/** Resources younger than this have only a handful of downloads (so equal counts are common, as in real data). */
const NEW_DAYS = 14;
/**
 * The demo's all-time counts are drawn at this many times the downloads it keeps: every kept
 * download is a row of per-day history (a resource's days add up to its count), and a twentieth keeps
 * the seed quick while the counts still rank and tie as before.
 */
const DOWNLOADS_DRAWN_PER_KEPT = 20;
/** Its own sequence: the per-day history does not change the catalogue the main seed draws. */
const HISTORY_SEED_OFFSET = 7919;
/** 1 January 1970, day 0, was a Thursday (getUTCDay 4). */
const EPOCH_WEEKDAY = 4;

/**
 * The whole demo catalogue as plain rows, deterministic for a given seed and `now`.
 * Per category the newest upload batch has no downloads yet, and resources uploaded together
 * share a timestamp: both give every sort real ties, which the id tie-breaker must settle.
 */
export function buildDemoData(options: DemoOptions = {}): DemoData {
  const now = options.now ?? new Date();
  const nowMs = Math.floor(now.getTime() / 1000) * 1000;
  const rng = createRng(options.seed ?? DEMO_SEED);
  const drafts: Omit<DemoResource, 'id' | 'thumbnail_url' | 'download_url' | 'apps'>[] = [];

  for (const info of CATEGORIES) {
    if (info.value === 'premium_resources') continue;
    const vocab = DEMO_VOCABULARY[info.value];
    const count = DEMO_CATEGORY_COUNTS[info.value];
    const combos = rng.shuffle(vocab.styles.flatMap((style) => vocab.subjects.map((subject) => ({ style, subject }))));
    const ages = batchAges(rng, count);
    for (let i = 0; i < count; i++) {
      const { style, subject } = combos[i % combos.length];
      const round = Math.floor(i / combos.length);
      const fillApp = (s: string) => s.replace('{app}', apps(rng, vocab.apps));
      const blurb = fillApp(subject.blurb)
        .replace('{n}', String(rng.int(subject.range[0], subject.range[1])))
        .replace('{style}', style.toLowerCase());
      const description = `${capitalize(blurb)}. ${fillApp(rng.pick(vocab.benefits))} ${rng.pick(COMMON_EXTRAS)}`;
      const tags = [...subject.tags];
      if (tags.length < 4 && rng.chance(0.4)) {
        const extra = rng.pick(info.tags);
        if (!tags.includes(extra)) tags.push(extra);
      }
      const { ageDays, fresh } = ages[i];
      const drawn = fresh ? 0 : downloadsFor(rng, ageDays);
      drafts.push({
        title: `${style} ${subject.name}${round > 0 ? ` Vol. ${round + 1}` : ''}`,
        description,
        category: info.value,
        is_premium: 0,
        download_count: kept(drawn),
        popularity: popularityFor(rng, drawn),
        tags,
        ...timestamps(rng, nowMs, ageDays),
      });
    }
  }

  for (const [i, item] of PREMIUM_ITEMS.entries()) {
    const ageDays = 3 + i * 31 + rng.int(0, 20);
    const drawn = downloadsFor(rng, ageDays) * 3;
    drafts.push({
      title: item.title,
      description: item.description,
      category: 'premium_resources',
      is_premium: 1,
      download_count: kept(drawn),
      popularity: Math.min(100, popularityFor(rng, drawn) + 10),
      tags: [...item.tags],
      ...timestamps(rng, nowMs, ageDays),
    });
  }

  // Stable sort: uploads that share a timestamp keep their generation order.
  drafts.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  const firstId = options.firstId ?? 1;
  const resources = drafts.map((d, i) => {
    const id = firstId + i;
    const slug = CATEGORIES.find((c) => c.value === d.category)?.slug ?? d.category;
    return {
      ...d,
      id,
      apps: demoApps(d.category, d.description),
      thumbnail_url: `/thumbnails/${id}.svg`,
      download_url: `https://downloads.example.com/${slug}/${slugify(d.title)}-${id}.zip`,
    };
  });

  const announcements = DEMO_ANNOUNCEMENTS.map((a) => ({
    message: a.message,
    is_active: 1,
    created_at: new Date(nowMs - a.daysAgo * DAY_MS - rng.int(1, 12) * 3_600_000).toISOString(),
  }));

  const { downloadDays, resourceDownloadDays } = downloadHistory(resources, nowMs, (options.seed ?? DEMO_SEED) + HISTORY_SEED_OFFSET);
  return { resources, announcements, downloadDays, resourceDownloadDays };
}

/** The app names the demo's texts use that are apps of the API (contract/apps.ts); Camera Raw is Photoshop's. */
const DEMO_APP_NAMES: readonly [RegExp, AppId][] = [
  [/\bPremiere Pro\b/, 'premiere-pro'],
  [/\bAfter Effects\b/, 'after-effects'],
  [/\bResolve\b/, 'davinci-resolve'],
  [/\bFinal Cut Pro\b/, 'final-cut-pro'],
  [/\bLightroom\b/, 'lightroom'],
  [/\b(?:Photoshop|Camera Raw)\b/, 'photoshop'],
];

/**
 * A demo resource's apps as its owner would list them (decision 466): the apps its description names,
 * and for a colour-grading pack (LUTs) any LUT-capable editor; null (deduced from its files and
 * preview) when it names none, and for fonts and sounds, which work in any app their text names.
 */
export function demoApps(category: CategoryValue, description: string): string | null {
  if (category === 'typography' || category === 'sound_effects') return null;
  const ids = DEMO_APP_NAMES.filter(([name]) => name.test(description)).map(([, id]) => id);
  if (ids.length === 0) return null;
  if (category === 'color_grading') ids.push('any-editor');
  return JSON.stringify(ids.map((id) => ({ id, min_version: null })));
}

/** Ages (days) for `count` uploads in batches of 1–4 sharing a timestamp; the first batch is brand new. */
function batchAges(rng: Rng, count: number): { ageDays: number; fresh: boolean }[] {
  const out: { ageDays: number; fresh: boolean }[] = [];
  let first = true;
  while (out.length < count) {
    const size = Math.min(count - out.length, first ? rng.int(2, 4) : rng.int(1, 4));
    // Skewed towards recent uploads, as a growing site has.
    const ageDays = first ? 0.1 + rng.next() * 1.5 : 0.5 + HISTORY_DAYS * Math.pow(rng.next(), 1.25);
    for (let j = 0; j < size; j++) out.push({ ageDays, fresh: first });
    first = false;
  }
  return rng.shuffle(out);
}

/** The downloads the demo keeps of those drawn (see DOWNLOADS_DRAWN_PER_KEPT); a resource with any keeps at least one. */
function kept(drawn: number): number {
  return drawn === 0 ? 0 : Math.max(1, Math.round(drawn / DOWNLOADS_DRAWN_PER_KEPT));
}

/**
 * When each resource's downloads happened: each on a day from the one it was added to today, more
 * at weekends, so its days add up to its download_count; the site's days are their sums (what the
 * dashboard and the statistics read, decision 372).
 */
function downloadHistory(resources: DemoResource[], nowMs: number, seed: number): Pick<DemoData, 'downloadDays' | 'resourceDownloadDays'> {
  const rng = createRng(seed);
  const today = Math.floor(nowMs / DAY_MS);
  const dayNames = new Map<number, string>();
  const name = (day: number) => dayNames.get(day) ?? dayNames.set(day, dayOf(new Date(day * DAY_MS))).get(day)!;
  const resourceDownloadDays: DemoData['resourceDownloadDays'] = [];
  const perDay = new Map<number, number>();
  for (const r of resources) {
    const first = Math.floor(Date.parse(r.created_at) / DAY_MS);
    const counts = new Map<number, number>();
    for (let i = 0; i < r.download_count; i++) {
      let day = first + Math.floor(rng.next() * (today - first + 1));
      // Weekends are busier: now and then a weekday's download moves to that week's Saturday (never into the future).
      const toSaturday = (13 - ((day + EPOCH_WEEKDAY) % 7)) % 7;
      if (toSaturday >= 1 && toSaturday <= 5 && rng.chance(0.08) && day + toSaturday <= today) day += toSaturday;
      counts.set(day, (counts.get(day) ?? 0) + 1);
    }
    for (const [day, count] of [...counts].sort((a, b) => a[0] - b[0])) {
      resourceDownloadDays.push({ resource_id: r.id, day: name(day), count });
      perDay.set(day, (perDay.get(day) ?? 0) + count);
    }
  }
  const downloadDays = [...perDay].sort((a, b) => a[0] - b[0]).map(([day, count]) => ({ day: name(day), count }));
  return { downloadDays, resourceDownloadDays };
}

function downloadsFor(rng: Rng, ageDays: number): number {
  if (ageDays < NEW_DAYS) return rng.int(0, 9);
  const perDay = Math.exp(gaussian(rng) * 0.8) * 2.5;
  return Math.round(perDay * Math.pow(ageDays, 0.9));
}

/** 0–100, mostly following downloads, so many resources share a value. */
function popularityFor(rng: Rng, downloads: number): number {
  if (downloads === 0) return 0;
  return Math.max(1, Math.min(100, Math.round((Math.log10(downloads + 1) / 4.3) * 85 + rng.int(0, 15))));
}

function timestamps(rng: Rng, nowMs: number, ageDays: number): { created_at: string; updated_at: string } {
  const created = Math.floor((nowMs - ageDays * DAY_MS) / 1000) * 1000;
  const updated = rng.chance(0.3) ? created + Math.floor((rng.next() * (nowMs - created)) / 1000) * 1000 : created;
  return { created_at: new Date(created).toISOString(), updated_at: new Date(updated).toISOString() };
}

function gaussian(rng: Rng): number {
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function apps(rng: Rng, list: readonly string[]): string {
  const first = rng.pick(list);
  const second = rng.pick(list);
  return rng.chance(0.5) && second !== first ? `${first} and ${second}` : first;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
