import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb } from './helpers';

// A download only raises download_count: it no longer bumps the data version, so visitors'
// downloads stop emptying the response cache many times a second. Admin writes (every one
// sets updated_at) still bump it at once; the cache gives counts a short max age instead
// (PUBLIC_CACHE_MAX_AGE_MS in src/server/public-cache.ts).
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  const columns = sql.raw(
    'title, description, category, thumbnail_url, download_url, is_premium, popularity, tags, created_at, updated_at, admin_id',
  );
  if (dialect === 'postgres') {
    await sql`drop trigger resources_bumps_data_version on resources`.execute(db);
    await sql`create trigger resources_bumps_data_version after insert or delete or truncate on resources
      for each statement execute function bump_data_version()`.execute(db);
    await sql`create trigger resources_update_bumps_data_version after update of ${columns} on resources
      for each statement execute function bump_data_version()`.execute(db);
  } else {
    await sql`drop trigger resources_update_bumps_data_version`.execute(db);
    await sql`create trigger resources_update_bumps_data_version after update of ${columns} on resources
      begin update data_version set version = version + 1 where id = 1; end`.execute(db);
  }
}
