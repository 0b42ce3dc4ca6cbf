import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from './test-utils';
import { insertResource } from './resource-fixtures';

const url = process.env.TEST_DATABASE_URL;
/** The schema a test database's sessions use (testSchemaUrl's search_path). */
const schemaOf = (dbUrl: string) => /search_path=([a-z0-9_]+)/.exec(decodeURIComponent(dbUrl))![1];

async function schemaExists(name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query('select 1 from pg_namespace where nspname = $1', [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

// Reuse of a closed test app's schema (decision 300) exists only on a PostgreSQL server (TEST_DATABASE_URL).
describe.runIf(Boolean(url))('test databases on PostgreSQL', () => {
  it("empty a closed one's schema back to the template for the next, and drop one whose shape a test changed", async () => {
    const first = await createTestDatabase('postgres');
    const schema = schemaOf((first.dbConfig as { url: string }).url);
    const id = await insertResource(first.database, { title: 'Left behind' });
    const version = Number((await sql<{ version: number }>`select version from data_version`.execute(first.database.db)).rows[0].version);
    expect(version).toBeGreaterThan(1);
    await first.database.close();
    await first.drop!();

    const second = await createTestDatabase('postgres');
    if (!inject('testTemplates').postgres?.resetSql) {
      // A server that refuses the reset (test-templates.ts said so at setup): every schema is dropped at close.
      expect(schemaOf((second.dbConfig as { url: string }).url)).not.toBe(schema);
      expect(await schemaExists(schema)).toBe(false);
      await second.database.close();
      await second.drop!();
      return;
    }
    expect(schemaOf((second.dbConfig as { url: string }).url)).toBe(schema);
    const db = second.database.db;
    expect(await db.selectFrom('resources').select('id').execute()).toEqual([]);
    expect((await sql<{ version: number }>`select version from data_version`.execute(db)).rows.map((r) => Number(r.version))).toEqual([1]);
    // Sequences start again: the same first id as in a new schema.
    expect(await insertResource(second.database, { title: 'Again' })).toBe(id);
    // A test that adds a trigger and fails before removing it leaves a schema no other test should get.
    await sql`create function reuse_test_noop() returns trigger language plpgsql as $$ begin return new; end $$`.execute(db);
    await sql`create trigger reuse_test_noop before insert on resources for each row execute function reuse_test_noop()`.execute(db);
    await second.database.close();
    await second.drop!();
    expect(await schemaExists(schema)).toBe(false);

    const third = await createTestDatabase('postgres');
    expect(schemaOf((third.dbConfig as { url: string }).url)).not.toBe(schema);
    await third.database.close();
    await third.drop!();
  });
});
