import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb } from './helpers';

// PostgreSQL: each bump is also announced, on commit, to every instance listening on
// DATA_VERSION_CHANNEL (payload: the table's schema, a space, the new version), so instances keep
// the version in memory instead of reading it for every cached answer (connection.ts).
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create or replace function bump_data_version() returns trigger language plpgsql as $$
    declare v bigint;
    begin
      update data_version set version = version + 1 where id = 1 returning version into v;
      perform pg_notify(${sql.lit('rv_data_version')}, tg_table_schema || ' ' || v);
      return null;
    end $$`.execute(db);
}
