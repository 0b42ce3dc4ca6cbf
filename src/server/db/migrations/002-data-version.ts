import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb } from './helpers';

// One counter that every write to publicly served data bumps, in the writing statement's own
// transaction (triggers), so an in-memory response cache can tell with one cheap read whether
// it is still current, whichever process or instance wrote.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await sql`create table data_version (id integer primary key check (id = 1), version bigint not null)`.execute(db);
  await sql`insert into data_version (id, version) values (1, 0)`.execute(db);
  const tables = ['resources', 'resource_tags', 'announcements', 'settings'];
  if (dialect === 'postgres') {
    await sql`create function bump_data_version() returns trigger language plpgsql as $$
      begin update data_version set version = version + 1 where id = 1; return null; end $$`.execute(db);
    for (const t of tables) {
      // Per statement: a bulk insert bumps once, not once per row.
      await sql`create trigger ${sql.raw(`${t}_bumps_data_version`)} after insert or update or delete or truncate on ${sql.table(t)}
        for each statement execute function bump_data_version()`.execute(db);
    }
  } else {
    for (const t of tables) {
      for (const op of ['insert', 'update', 'delete']) {
        await sql`create trigger ${sql.raw(`${t}_${op}_bumps_data_version`)} after ${sql.raw(op)} on ${sql.table(t)}
          begin update data_version set version = version + 1 where id = 1; end`.execute(db);
      }
    }
  }
}
