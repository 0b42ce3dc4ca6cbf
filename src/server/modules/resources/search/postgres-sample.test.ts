import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertResource } from '../../../testing/resource-fixtures';
import { createTestDatabase } from '../../../testing/test-utils';
import { createResourceSearch, SEARCH_LIMITS } from '.';
import { PUBLIC_STATUS } from '../visibility';
import { searchFilter } from './planning';
import { SEARCH_JOIN } from './postgres';
import { createSampleHolder, indexableTrigrams, indexTrigrams, SAMPLE_MAX_AGE_MS, type SearchSample, shareOf, textPlan, WEIGHED_TRIGRAMS } from './postgres-sample';

function sample(rows: [category: string, text: string, copies: number][]): SearchSample {
  return { rows: rows.flatMap(([category, text, copies]) => Array.from({ length: copies }, () => ({ category, text: text.replace(/ /g, 'q') }))), plans: new Map() };
}

describe('index trigrams (PostgreSQL search plan)', () => {
  it('takes the trigrams pg_trgm indexes as they are from a folded text: a space read as q, letters and digits only', () => {
    expect(indexableTrigrams('red logo')).toEqual(['red', 'edq', 'dql', 'qlo', 'log', 'ogo']);
    expect(indexableTrigrams('c:\\path 4k')).toEqual(['pat', 'ath', 'thq', 'hq4', 'q4k']);
    expect(indexableTrigrams('aaaa')).toEqual(['aaa']);
    expect(indexableTrigrams('---')).toEqual([]);
    expect(indexableTrigrams('éclair')).toEqual(['cla', 'lai', 'air']);
  });

  it('reads the rarest trigram, and no other that leaves the same rows to check', () => {
    // Every text with the rarest of them holds all of 'transitions'; 'tio' and 'ion' are everywhere.
    const s = sample([
      ['video_editing', 'smooth transitions pack', 50],
      ['video_editing', 'motion action edition', 900],
      ['typography', 'rational fonts', 50],
    ]);
    const chosen = indexTrigrams(s, 'transitions');
    expect(chosen).toHaveLength(1);
    expect(s.rows.filter((r) => r.text.includes(chosen[0]))).toHaveLength(50);
  });

  it('adds a next-rarest trigram when it removes enough rows to check', () => {
    // 'nta' and 'tar' are each common, 'ntar' rare: one of them alone leaves 200 texts to check, both 102.
    const s = sample([
      ['video_editing', 'syntax start', 100],
      ['video_editing', 'syntax only', 100],
      ['typography', 'start only', 100],
      ['typography', 'documentary', 2],
      ['typography', 'plain sans', 698],
    ]);
    expect(indexTrigrams(s, 'ntar')).toEqual(['nta', 'tar']);
    // A trigram that removes too few rows for its posting list is not read: 'doc' alone leaves the two.
    expect(indexTrigrams(s, 'docu')).toEqual(['doc']);
  });

  it('weighs at most WEIGHED_TRIGRAMS of a long q, and chooses among q\'s own', () => {
    const s = sample([['typography', 'plain sans', 1000]]);
    const q = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(5);
    const chosen = indexTrigrams(s, q);
    expect(chosen.length).toBeGreaterThan(0);
    expect(chosen.length).toBeLessThanOrEqual(WEIGHED_TRIGRAMS);
    for (const t of chosen) expect(q).toContain(t);
  });

  it('remembers a plan per scope and text with the sample', () => {
    const s = sample([['video_editing', 'cinematic grade', 10], ['typography', 'serif', 10]]);
    const plan = textPlan(s, 'cinematic', 'video_editing');
    expect(plan).toEqual({ trigrams: indexTrigrams(s, 'cinematic'), share: 1 });
    expect(textPlan(s, 'cinematic', 'video_editing')).toBe(plan);
    expect(textPlan(s, 'cinematic', undefined).share).toBeCloseTo(0.5);
  });

  it('asks for the whole text when q has no trigram indexed as it is', () => {
    expect(indexTrigrams(sample([['typography', 'a-b-c', 10]]), '-_-')).toEqual([]);
  });

  it('tells how common q is in a scope, from the sampled rows of that scope', () => {
    const s = sample([
      ['video_editing', 'cinematic grade', 30],
      ['video_editing', 'plain cut', 70],
      ['typography', 'serif', 100],
    ]);
    expect(shareOf(s, 'cinematic', 'video_editing')).toBeCloseTo(0.3);
    expect(shareOf(s, 'cinematic', undefined)).toBeCloseTo(0.15);
    expect(shareOf(s, 'cinematic', 'typography')).toBe(0);
    expect(shareOf(s, 'cinematic', 'anime_edits')).toBe(0);
    expect(shareOf(s, 'plain cut', 'video_editing')).toBeCloseTo(0.7);
  });
});

describe('the sample held (PostgreSQL)', () => {
  it('takes a small table again after every write, and a sample of a large one once it is a minute old (decision 464)', async () => {
    const { database, drop } = await createTestDatabase('postgres');
    try {
      for (let i = 0; i < 12; i++) await insertResource(database, { title: `Sampled ${i}` });
      await sql`analyze resources`.execute(database.db);
      let clock = 0;
      const now = () => clock;
      // 12 rows: a sample of 100 reads the whole table, one of 5 a part of it.
      const whole = createSampleHolder(database.db, { now, size: 100 });
      const first = await whole(1);
      expect(first.rows).toHaveLength(12);
      expect(await whole(1)).toBe(first);
      expect(await whole(undefined)).toBe(first);
      expect(await whole(2)).not.toBe(first);

      const part = createSampleHolder(database.db, { now, size: 5 });
      const taken = await part(1);
      expect(await part(2)).toBe(taken);
      clock += SAMPLE_MAX_AGE_MS - 1;
      expect(await part(3)).toBe(taken);
      clock += 1;
      const again = await part(4);
      expect(again).not.toBe(taken);
      // The new one serves its own minute, at the version it was taken at or a later one.
      expect(await part(4)).toBe(again);
      expect(await part(5)).toBe(again);
    } finally {
      await database.close();
      await drop?.();
    }
  });
});

describe('a common text counted from the first rows (PostgreSQL)', () => {
  it('reads as many first rows as the sample says hold twice the cap before asking the index (decision 464)', async () => {
    const { database, drop } = await createTestDatabase('postgres');
    try {
      // One row in five holds the word: the first 20 rows hold 4 of its matches, under the cap's 6; the first 60, 12.
      for (let i = 0; i < 100; i++) await insertResource(database, { title: i % 5 === 0 ? `Quetzal feather ${i}` : `Plain row ${i}` });
      await sql`analyze resources`.execute(database.db);
      const statements: string[] = [];
      const db = database.db.withPlugin({
        transformQuery: ({ node }) => {
          statements.push(JSON.stringify(node));
          return node;
        },
        transformResult: async ({ result }) => result,
      });
      const cap = 5;
      const search = createResourceSearch({ db, dialect: 'postgres' }, { ...SEARCH_LIMITS, countCap: cap, sortMatchesMax: cap, denseScan: { all: 20, category: 10 } });
      const plan = await search.count(searchFilter({ q: 'quetzal', status: PUBLIC_STATUS }), 1);
      expect(plan).toMatchObject({ total: cap, exact: false });
      // Decided by the first rows alone: no statement asked the search index (its expression, SEARCH_JOIN).
      expect(statements.filter((s) => s.includes(SEARCH_JOIN))).toEqual([]);
      expect(statements.some((s) => /limit/i.test(s) && s.includes('like'))).toBe(true);
    } finally {
      await database.close();
      await drop?.();
    }
  });
});
