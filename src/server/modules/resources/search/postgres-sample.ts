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
 * matches than the cap (postgres.ts, DENSE_SCAN).
 *
 * The sample is taken again when the data version changes. A stale or unlucky sample costs speed,
 * never a result.
 */
export const SAMPLE_ROWS = 2000;

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

/** About SAMPLE_ROWS rows (a block sample: a few hundred pages of a large table). */
async function takeSample(db: Kysely<Tables>): Promise<SearchSample> {
  const { rows: stats } = await sql<{ n: number }>`select reltuples as n from pg_class where oid = 'resources'::regclass`.execute(db);
  const estimate = Number(stats[0]?.n ?? -1);
  // Never analysed (-1) or small: the whole table (the LIMIT still bounds it).
  const percent = estimate > SAMPLE_ROWS ? Math.min(100, (100 * 2 * SAMPLE_ROWS) / estimate) : 100;
  const { rows } = await sql<SampleRow>`select category, replace(search_text, ' ', 'q') as text
    from resources tablesample system (${sql.lit(percent)}) limit ${SAMPLE_ROWS}`.execute(db);
  return { rows, plans: new Map() };
}

/** The sample of one database, taken on first use and again after the data version changes. */
export function createSampleHolder(db: Kysely<Tables>) {
  let held: { version: number | undefined; sample: Promise<SearchSample> } | undefined;
  /** The sample at this data version (undefined: whichever is held). */
  return function sampleAt(version: number | undefined): Promise<SearchSample> {
    if (held && (version === undefined || held.version === version)) return held.sample;
    const sample = takeSample(db);
    held = { version, sample };
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
