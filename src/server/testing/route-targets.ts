import type { Kysely } from 'kysely';
import { UPLOADS_PATH } from '../../contract/files';
import type { App } from '../context';
import type { Tables } from '../db/schema';
import { nowIso } from '../time';
import type { SettingsVersionsTable } from '../modules/settings/queries';

/**
 * Rows for route-table tests (the access matrix, the audit log's write routes) to aim a route at:
 * each written straight into the database, so that only the route under test goes through the app.
 */
let unique = 0;

/** A resource's form fields, valid, with a title no other call repeats. */
export const validResource = (label = 'Route target') => ({
  title: `${label} ${unique++}`,
  description: 'Made for a route test',
  category: 'typography',
  thumbnail_url: '/thumbnails/route-target.svg',
  download_url: 'https://example.com/route-target.zip',
  tags: ['Fonts'],
});

export const TUS = { 'tus-resumable': '1.0.0' };
/** Headers that begin a 10-byte upload. */
export const tusCreation = () => ({ ...TUS, 'upload-length': '10', 'upload-metadata': `filename ${Buffer.from('route-target.zip').toString('base64')}` });

export async function insertResource(db: Kysely<Tables>, trashed = false): Promise<number> {
  const now = nowIso();
  const r = await db
    .insertInto('resources')
    .values({
      ...validResource(),
      tags: '["Fonts"]',
      is_premium: 0,
      created_at: now,
      updated_at: now,
      admin_id: null,
      ...(trashed ? { status: 'trashed' as const, status_before_trash: 'published' as const, trashed_at: now } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function insertAnnouncement(db: Kysely<Tables>): Promise<number> {
  const r = await db.insertInto('announcements').values({ message: 'Route target', is_active: 1, admin_id: null, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** An admin row to act on: nobody signs in as it, so it needs no real hash. */
export async function insertPlainAdmin(db: Kysely<Tables>): Promise<number> {
  const name = `target_${unique++}`;
  const r = await db
    .insertInto('admins')
    .values({ username: name, username_key: name, password_hash: '$argon2id$v=19$m=19456,t=2,p=1$x$y', is_super_user: 0, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** A kept settings version of no sections (restoring it brings the defaults back). */
export async function insertSettingsVersion(db: Kysely<Tables>): Promise<number> {
  const r = await db
    .withTables<{ settings_versions: SettingsVersionsTable }>()
    .insertInto('settings_versions')
    .values({ saved_at: nowIso(), admin_id: null, changed: '[]', restored_from: null, sections: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

/** Begins an upload as the admin of `cookie`: its id. */
export async function beginUpload(app: App, cookie: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: UPLOADS_PATH, headers: { ...tusCreation(), cookie } });
  if (res.statusCode !== 201) throw new Error(`could not begin an upload: ${res.statusCode} ${res.body}`);
  return String(res.headers.location).split('/').pop()!;
}
