import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './connection';

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
