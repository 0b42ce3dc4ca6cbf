import { sql } from 'kysely';
import type { AnyDb } from './helpers';

// A ZIP's listing leaves out what the packing computer added (docs/decisions/467-a-listing-leaves-out-system-files.md):
// macOS's `__MACOSX/` folder and `._` files, `.DS_Store`, `Thumbs.db`, `desktop.ini`. Downloads listed
// before held them (a Finder ZIP twice its files, each `._` twin counted under the same extension): their
// listing is cleared here, one pass over file_entries, and the `files.list` job that the next start queues
// for any download not listed (modules/listings, queueUnlisted) lists them again. Clearing listing_status
// bumps the data version and marks their resources' facets stale (migrations 035, 039 triggers).
// In LIKE, `_` is a wildcard: escaped with `!`. Nothing to relist, nothing is written: PostgreSQL's
// statement trigger would bump the data version for an update of no rows.
export async function up(db: AnyDb): Promise<void> {
  const held = sql`path like '!_!_MACOSX/%' escape '!' or path like '%/!_!_MACOSX/%' escape '!'
      or path like '.!_%' escape '!' or path like '%/.!_%' escape '!'
      or lower(path) in ('.ds_store', 'thumbs.db', 'desktop.ini')
      or lower(path) like '%/.ds!_store' escape '!' or lower(path) like '%/thumbs.db' or lower(path) like '%/desktop.ini'`;
  const { rows } = await sql`select 1 from file_entries where ${held} limit 1`.execute(db);
  if (rows.length === 0) return;
  await sql`update files set listing_status = null, listing_reason = null, listing_count = null, listing_total = null, listing_extensions = null
    where id in (select distinct file_id from file_entries where ${held})`.execute(db);
  await sql`delete from file_entries where file_id in (select id from files where listing_status is null)`.execute(db);
}
