import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Config } from '../config';
import { createTestDatabase } from '../testing/test-utils';
import { insertResource } from '../testing/resource-fixtures';
import { getPublicResource, listRelated } from '../modules/resources/queries';
import { createResourceSearch } from '../modules/resources/search';
import { computeStaleFacets } from '../modules/resources/search/facet-rows';
import { openDatabase, POOL_WARM_CONNECTIONS, type Database } from './connection';

describe('SQLite transactions keep the error that ended them', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'sqlite', file: ':memory:' });
  });
  afterAll(async () => {
    await database.close();
  });

  // SQLite rolls a transaction back by itself after SQLITE_FULL, SQLITE_IOERR or SQLITE_NOMEM;
  // Kysely's ROLLBACK then failed with "cannot rollback - no transaction is active" and threw
  // that instead. Here the transaction is ended under Kysely the same way.
  it('throws the original error when SQLite has already rolled back', async () => {
    const failing = database.db.transaction().execute(async (trx) => {
      await sql`rollback`.execute(trx);
      throw new Error('database or disk is full');
    });
    await expect(failing).rejects.toThrow('database or disk is full');
    expect(database.sqlite!.inTransaction).toBe(false);
  });

  it('still rolls back a transaction whose callback fails', async () => {
    await sql`create table t (x integer)`.execute(database.db);
    const failing = database.db.transaction().execute(async (trx) => {
      await sql`insert into t values (1)`.execute(trx);
      throw new Error('changed my mind');
    });
    await expect(failing).rejects.toThrow('changed my mind');
    expect((await sql<{ n: number }>`select count(*) as n from t`.execute(database.db)).rows[0].n).toBe(0);
  });
});

/**
 * The pool's sessions (idle connections, each session's settings and prepared statements) need a
 * PostgreSQL server: TEST_DATABASE_URL (CI sets it). PGlite is one in-process session without a pool.
 */
const withServer = it.runIf(Boolean(process.env.TEST_DATABASE_URL));

describe('PostgreSQL introspection (what the migrator reads)', () => {
  let database: Database;
  let dbConfig: Config['database'];
  let drop: (() => Promise<void>) | undefined;
  const other = `other_${randomBytes(4).toString('hex')}`;
  /**
   * What Node warns of meanwhile: node-postgres deprecates a statement sent while its connection runs
   * another (each kind of warning is printed once a process, so this listens before the first connection).
   */
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  beforeAll(async () => {
    process.on('warning', onWarning);
    ({ database, dbConfig, drop } = await createTestDatabase('postgres'));
    // Another install's tables on the same database, in a schema of their own.
    await sql`create schema ${sql.id(other)}`.execute(database.db);
    await sql`create table ${sql.id(other, 'kysely_migration')} (name text primary key)`.execute(database.db);
    await sql`create table ${sql.id(other, 'elsewhere')} (id serial primary key)`.execute(database.db);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await sql`drop schema if exists ${sql.id(other)} cascade`.execute(database.db);
    await database.close();
    await drop?.();
  });

  // A sparse site's next visitor found every connection closed by the pool's idle timeout and paid new
  // sessions on the page (connection.ts says what it cost).
  withServer(`keeps ${POOL_WARM_CONNECTIONS} connections open through a quiet moment and lets the others go`, async () => {
    // The pool's idle timers only: sockets and the server's pg_sleep keep real time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fresh = await openDatabase(dbConfig);
    try {
      const busy = POOL_WARM_CONNECTIONS + 2;
      const pids = await Promise.all(
        Array.from({ length: busy }, () =>
          fresh.db.transaction().execute(async (trx) => (await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(trx)).rows[0].pid),
        ),
      );
      expect(new Set(pids).size).toBe(busy);
      const open = async () =>
        Number((await sql<{ n: number }>`select count(*) as n from pg_stat_activity where pid in (${sql.join(pids)})`.execute(database.db)).rows[0].n);
      expect(await open()).toBe(busy);
      // A minute without a request.
      vi.advanceTimersByTime(60_000);
      // The connections let go close on their own time: wait (bounded) until the server has seen them go.
      let left = await open();
      for (let i = 0; i < 200 && left > POOL_WARM_CONNECTIONS; i++) {
        await new Promise((resolve) => setImmediate(resolve));
        left = await open();
      }
      expect(left).toBe(POOL_WARM_CONNECTIONS);
    } finally {
      vi.useRealTimers();
      await fresh.close();
    }
  });

  // JIT compiled a walk's plan, estimated at the whole walk, for longer than the walk took (decision 454).
  // The pool's own `options` were lost to a URL with ?options= (the tests' search_path, or an owner's).
  withServer('runs every session with JIT off, also when its URL carries options of its own', async () => {
    // A new pool's first connection, asked through the pool (the data version), then four at once.
    const fresh = await openDatabase(dbConfig);
    expect(await fresh.dataVersion({ fresh: true })).toBeGreaterThanOrEqual(0);
    const sessions = await Promise.all(
      Array.from({ length: 4 }, () =>
        fresh.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ jit: string; pid: number }>`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05)`.execute(trx);
          return rows[0];
        }),
      ),
    );
    await fresh.close();
    expect(new Set(sessions.map((s) => s.pid)).size).toBe(4);
    expect(sessions.map((s) => s.jit)).toEqual(['off', 'off', 'off', 'off']);
    // The setting is made before a new connection is handed out, not queued beside its first statement.
    expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
  });

  // Planning the related resources' statement took longer than running it at 1,000,000 resources (decision 456).
  withServer('sends the statements marked PREPARED by name, each parsed once per connection and then planned once', async () => {
    const id = await insertResource(database, { title: 'Prepared', category: 'typography', tags: ['Display', 'Fonts'] });
    const other = await insertResource(database, { title: 'Sharing a tag', category: 'typography', tags: ['Fonts'] });
    // The fixture's resources get their facet rows now, as their writer would, so that the search below has none to compute.
    await computeStaleFacets(database.db);
    const fresh = await openDatabase(dbConfig);
    try {
      // One connection throughout (a transaction), as a pool connection serves page after page.
      const { statements, found, related, facets } = await fresh.db.transaction().execute(async (trx) => {
        let found;
        let related;
        let facets;
        for (let i = 0; i < 8; i++) {
          found = await getPublicResource(trx, id);
          related = await listRelated({ ...fresh, db: trx }, { id, category: 'typography', tagKeys: ['display', 'fonts'] }, 6);
          // A search with nothing remembered: the fact filters' scans of the category's and the site's newest rows (decision 464).
          facets = await createResourceSearch({ db: trx, dialect: fresh.dialect }).facets({ filters: { category: 'typography' } });
          await sql`select ${i}::int as unmarked`.execute(trx);
        }
        const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
          select statement, generic_plans, custom_plans from pg_prepared_statements order by statement`.execute(trx);
        return { statements: rows, found, related, facets };
      });
      expect(found?.title).toBe('Prepared');
      expect(related?.map((r) => Number(r.id))).toEqual([other]);
      expect(facets?.category).toEqual([{ value: 'typography', count: 2 }]);
      // The resource read, the walk of two tags, the category's most popular (the top-up), and the scans of a
      // category's and the site's newest rows: nothing else.
      expect(statements.length).toBe(5);
      for (const s of statements) {
        expect(s.statement).toMatch(/^select \/\* prepared \*\/ /);
        // A LIMIT sent as a parameter is guessed at a tenth of the rows in the plan made once, which at
        // scale (125,000 resources a category) then never wins over a plan made for each run.
        expect(s.statement).not.toMatch(/limit \$\d/i);
        expect(Number(s.custom_plans) + Number(s.generic_plans)).toBe(8);
        // A plan made once serves the later runs.
        expect(Number(s.generic_plans), s.statement).toBeGreaterThan(0);
      }
    } finally {
      await fresh.close();
    }
  });

  // At scale each candidate's heap page was a read of its own (migration 042).
  it("looks the related resources' candidates up in resources_related, the index holding what their ranking reads", async () => {
    const id = await insertResource(database, { title: 'Related to', category: 'photo_editing', tags: ['Grain', 'Film'] });
    const others = [];
    for (const tags of [['Grain'], ['Film', 'Grain'], ['Film']]) others.push(await insertResource(database, { title: `Shares ${tags.join(' and ')}`, category: 'photo_editing', tags }));
    // All visible, as autovacuum keeps a table: an index-only lookup then needs no row.
    await sql`vacuum analyze resources`.execute(database.db);
    const { related, scans } = await database.db.transaction().execute(async (trx) => {
      // Few rows here, so the planner would rightly hash them all; priced out, it must look each candidate up, as at scale.
      // Plain index scans too: the primary key's costs the same on a few pages, and while another session's transaction
      // is open the vacuum cannot mark the rows visible to all, which an index-only lookup counts on.
      for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_hashjoin', 'enable_mergejoin', 'enable_indexscan']) await sql`set local ${sql.raw(setting)} = off`.execute(trx);
      const related = await listRelated({ ...database, db: trx }, { id, category: 'photo_editing', tagKeys: ['grain', 'film'] }, 6);
      const { rows } = await sql<{ n: string }>`select pg_stat_get_xact_numscans('resources_related'::regclass) as n`.execute(trx);
      return { related, scans: Number(rows[0].n) };
    });
    expect(related.map((r) => Number(r.id))).toEqual([others[1], others[2], others[0]]);
    expect(scans).toBeGreaterThan(0);
  });

  // Kysely's own introspector read every schema's tables, resolving each column's sequence by name:
  // a schema dropped by another session meanwhile failed a migration starting on this one.
  it('sees the tables of the current schema only, with their columns', async () => {
    const current = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0].schema;
    const tables = await database.db.introspection.getTables();
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([current]));
    expect(tables.map((t) => t.name)).toContain('kysely_migration');
    expect(tables.map((t) => t.name)).not.toContain('elsewhere');
    const resources = tables.find((t) => t.name === 'resources')!;
    expect(resources.isView).toBe(false);
    expect(resources.columns[0]).toMatchObject({ name: 'id', isAutoIncrementing: true, isNullable: false, hasDefaultValue: true });
    expect(resources.columns.find((c) => c.name === 'title')).toMatchObject({ dataType: 'text', isNullable: false, isAutoIncrementing: false });
  });
});
