import { type Kysely, sql } from 'kysely';
import type { CategoryValue } from '../../../../contract/categories';
import type { Tables } from '../../../db/schema';

/**
 * PostgreSQL: a sample of the search texts, to plan a text search before running it.
 *
 * Which trigrams the index reads (`indexTrigrams`): pg_trgm turns `like '%q%'` into every trigram
 * of q, and its GIN index reads the posting list of each in full, so a common trigram costs as
 * much as every row holding it (`transitions` has nine trigrams, `tio` and `ion` in two thirds of
 * the rows; its rarest alone gives the same candidate rows for a fraction of the index reads).
 * The index is asked for the few that narrow the rows down — any row containing q contains each
 * of them, so nothing is missed — and every candidate row is checked against the whole of q.
 *
 * How common q is (`shareOf`): whether reading the first rows of the scope will likely find more
 * matches than the cap (postgres.ts, limits.denseScan).
 *
 * The sample is taken again when the data version changes; a sample of a large table (SAMPLE_ROWS
 * of it) serves for SAMPLE_MAX_AGE_MS whatever is written meanwhile, as PostgreSQL's own statistics
 * do: a few writes do not change how many of a million rows hold a trigram, and taking it again read
 * a few hundred pages (~10–45 ms at 1,000,000 resources) on the first search after every write
 * (decision 464). A stale or unlucky sample costs speed, never a result.
 */
export const SAMPLE_ROWS = 2000;

/** How long a sample of a large table serves across writes. */
export const SAMPLE_MAX_AGE_MS = 60_000;

/**
 * Posting list entries the index reads in the time one candidate row is read and checked (measured
 * at 1M, docs/performance.md, "Lists and search at 1,000,000 resources"; taken lower, so a trigram that
 * narrows little is left out).
 */
export const RECHECK_COST = 100;

/**
 * Trigrams of q weighed against the sample, at most (spread over q): each costs a pass over the
 * sample, and a 200-character q has ~200 of them (the event loop held for each such text).
 * Any of q's trigrams is a safe choice, so leaving some unweighed costs speed at most.
 */
export const WEIGHED_TRIGRAMS = 12;

interface SampleRow {
  category: string;
  /** The search text with spaces read as 'q', as the index reads it. */
  text: string;
}

export interface SearchSample {
  rows: SampleRow[];
  /** Category and q → their plan, remembered for this sample (bounded). */
  plans: Map<string, TextPlan>;
}

/** What the sample says of a text in a scope: the trigrams the index is asked for, and the share of the scope's rows holding it. */
export interface TextPlan {
  trigrams: string[];
  share: number;
}

/** About `size` rows (a block sample: a few hundred pages of a large table); `partial` unless the table is small. */
async function takeSample(db: Kysely<Tables>, size: number): Promise<{ sample: SearchSample; partial: boolean }> {
  const { rows: stats } = await sql<{ n: number }>`select reltuples as n from pg_class where oid = 'resources'::regclass`.execute(db);
  const estimate = Number(stats[0]?.n ?? -1);
  // Never analysed (-1) or small: the whole table (the LIMIT still bounds it).
  const percent = estimate > size ? Math.min(100, (100 * 2 * size) / estimate) : 100;
  const { rows } = await sql<SampleRow>`select category, replace(search_text, ' ', 'q') as text
    from resources tablesample system (${sql.lit(percent)}) limit ${size}`.execute(db);
  return { sample: { rows, plans: new Map() }, partial: percent < 100 };
}

/**
 * The sample of one database, taken on first use and again after the data version changes: at once
 * when it read the whole table (a small one, cheap to read again), else once it is SAMPLE_MAX_AGE_MS old.
 */
export function createSampleHolder(db: Kysely<Tables>, { now = Date.now, size = SAMPLE_ROWS }: { now?: () => number; size?: number } = {}) {
  type Held = { version: number | undefined; at: number; sample: Promise<SearchSample>; partial?: boolean };
  let held: Held | undefined;
  /** The sample at this data version (undefined: whichever is held). */
  return function sampleAt(version: number | undefined): Promise<SearchSample> {
    if (held && (version === undefined || held.version === version || (held.partial && now() - held.at < SAMPLE_MAX_AGE_MS))) return held.sample;
    const taken = takeSample(db, size);
    const sample = taken.then((t) => t.sample);
    const taking: Held = { version, at: now(), sample };
    held = taking;
    taken.then((t) => (taking.partial = t.partial), () => {});
    sample.catch(() => {
      if (held?.sample === sample) held = undefined;
    });
    return sample;
  };
}

/** A folded text (foldForSearch) as the index reads it: spaces as 'q'. */
function joined(text: string): string {
  return text.replace(/ /g, 'q');
}

/** The distinct trigrams of q that pg_trgm indexes as they are of a folded q (letters a–z and digits; spaces read as 'q'). */
export function indexableTrigrams(q: string): string[] {
  const text = joined(q);
  const found = new Set<string>();
  for (let i = 0; i + 3 <= text.length; i++) {
    const t = text.slice(i, i + 3);
    if (/^[a-z0-9]{3}$/.test(t)) found.add(t);
  }
  return [...found];
}

/** The plan of q in a scope (a category, or all), remembered with the sample. */
export function textPlan(sample: SearchSample, q: string, category: CategoryValue | undefined): TextPlan {
  const key = `${category ?? ''}\n${q}`;
  let plan = sample.plans.get(key);
  if (!plan) {
    plan = { trigrams: indexTrigrams(sample, q), share: shareOf(sample, q, category) };
    if (sample.plans.size >= 1000) sample.plans.delete(sample.plans.keys().next().value!);
    sample.plans.set(key, plan);
  }
  return plan;
}

/**
 * The trigrams of q for the index to read: the rarest in the sample first, then each next-rarest
 * that narrows the sampled candidates (texts holding every trigram chosen so far) by more than its
 * posting list costs — RECHECK_COST entries per candidate it removes. `transitions`: `nsi` alone
 * (every text with it holds the rest); `red logo`: `ogo`, `dql`, `red` (`logo` alone leaves tens of
 * thousands of rows to check for the two words). Empty when q has no trigram pg_trgm indexes as it
 * is (the whole text is then asked).
 */
export function indexTrigrams(sample: SearchSample, q: string): string[] {
  const all = indexableTrigrams(q);
  const weighed = all.length <= WEIGHED_TRIGRAMS ? all : Array.from({ length: WEIGHED_TRIGRAMS }, (_, i) => all[Math.floor((i * all.length) / WEIGHED_TRIGRAMS)]);
  const texts = sample.rows.map((r) => r.text);
  const holding = new Map(weighed.map((t) => [t, texts.reduce((n, text) => (text.includes(t) ? n + 1 : n), 0)]));
  const byRarity = [...weighed].sort((a, b) => holding.get(a)! - holding.get(b)!);
  const chosen: string[] = [];
  let candidates = texts;
  for (const t of byRarity) {
    const narrowed = candidates.filter((text) => text.includes(t));
    if (chosen.length === 0 || (candidates.length - narrowed.length) * RECHECK_COST > holding.get(t)!) {
      chosen.push(t);
      candidates = narrowed;
    }
  }
  return chosen;
}
/** The share of the sampled rows of the scope (a category, or all) whose text holds q (0 when none were sampled). */
export function shareOf(sample: SearchSample, q: string, category: CategoryValue | undefined): number {
  const text = joined(q);
  const scope = category ? sample.rows.filter((r) => r.category === category) : sample.rows;
  return scope.length === 0 ? 0 : scope.filter((r) => r.text.includes(text)).length / scope.length;
}
