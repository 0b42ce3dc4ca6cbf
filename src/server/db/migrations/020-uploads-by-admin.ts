import { sql } from 'kysely';
import type { AnyDb } from './helpers';

// Uploads belong to the admin who created them (docs/decisions/321-an-upload-belongs-to-its-admin.md),
// and each creation adds up what that admin's pending uploads hold
// (docs/decisions/320-pending-uploads-reserve-room.md): both read uploads by admin_id.
export async function up(db: AnyDb): Promise<void> {
  await sql`create index uploads_admin on uploads (admin_id)`.execute(db);
}
