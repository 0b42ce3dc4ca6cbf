import { CATEGORIES, DEMO_CATEGORY_COUNTS, type CategoryValue } from '../../contract/categories';
import { DASHBOARD_DAYS } from '../../contract/constants';
import { dayOf } from '../time';
import { COMMON_EXTRAS, DEMO_ANNOUNCEMENTS, DEMO_VOCABULARY, PREMIUM_ITEMS } from './demo-catalog';
import { createRng, type Rng } from './prng';

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
  created_at: string;
  updated_at: string;
}

export interface DemoData {
  resources: DemoResource[];
  announcements: { message: string; is_active: number; created_at: string }[];
  downloadDays: { day: string; count: number }[];
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
 * The whole demo catalogue as plain rows, deterministic for a given seed and `now`.
 * Per category the newest upload batch has no downloads yet, and resources uploaded together
 * share a timestamp: both give every sort real ties, which the id tie-breaker must settle.
 */
export function buildDemoData(options: DemoOptions = {}): DemoData {
  const now = options.now ?? new Date();
  const nowMs = Math.floor(now.getTime() / 1000) * 1000;
  const rng = createRng(options.seed ?? DEMO_SEED);
  const drafts: Omit<DemoResource, 'id' | 'thumbnail_url' | 'download_url'>[] = [];

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
      const download_count = fresh ? 0 : downloadsFor(rng, ageDays);
      drafts.push({
        title: `${style} ${subject.name}${round > 0 ? ` Vol. ${round + 1}` : ''}`,
        description,
        category: info.value,
        is_premium: 0,
        download_count,
        popularity: popularityFor(rng, download_count),
        tags,
        ...timestamps(rng, nowMs, ageDays),
      });
    }
  }

  for (const [i, item] of PREMIUM_ITEMS.entries()) {
    const ageDays = 3 + i * 31 + rng.int(0, 20);
    const download_count = downloadsFor(rng, ageDays) * 3;
    drafts.push({
      title: item.title,
      description: item.description,
      category: 'premium_resources',
      is_premium: 1,
      download_count,
      popularity: Math.min(100, popularityFor(rng, download_count) + 10),
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
      thumbnail_url: `/thumbnails/${id}.svg`,
      download_url: `https://downloads.example.com/${slug}/${slugify(d.title)}-${id}.zip`,
    };
  });

  const announcements = DEMO_ANNOUNCEMENTS.map((a) => ({
    message: a.message,
    is_active: 1,
    created_at: new Date(nowMs - a.daysAgo * DAY_MS - rng.int(1, 12) * 3_600_000).toISOString(),
  }));

  const downloadDays: DemoData['downloadDays'] = [];
  for (let back = DASHBOARD_DAYS - 1; back >= 0; back--) {
    const date = new Date(nowMs - back * DAY_MS);
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
    const wave = Math.sin((DASHBOARD_DAYS - back) / 4) * 20;
    downloadDays.push({ day: dayOf(date), count: Math.round(70 + wave + (weekend ? 25 : 0) + rng.int(0, 30)) });
  }

  return { resources, announcements, downloadDays };
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
