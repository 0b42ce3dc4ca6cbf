import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb, idColumn } from './helpers';

// Passkeys (WebAuthn): docs/decisions/428-a-passkey-signs-in-by-itself.md, and for the challenges
// docs/decisions/426-webauthn-challenges-in-the-database.md.
//
// passkeys: one row per registered credential, owned by an admin (gone with them). credential_id
// is the credential's id as base64url (unique: one authenticator credential belongs to one admin);
// public_key is the COSE public key as base64url; counter is the authenticator's signature counter
// (a 32-bit unsigned number: bigint on PostgreSQL, whose integer is signed 32-bit); transports is a
// JSON array of strings (the browser's hints, passed back in excludeCredentials). name is the
// admin's own label; created_at and last_used_at (null until the first sign-in) are UTC ISO-8601.
//
// webauthn_challenges: the challenge of each ceremony under way, kept in the database so that any
// instance may answer the second half of a ceremony another began. A challenge is used once (the
// verification deletes it before checking anything) and expires after a few minutes; purpose keeps
// a registration challenge from serving a sign-in and back; admin_id is who asked, for a
// registration (null for a sign-in, where nobody is known yet).
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await idColumn(db, dialect, 'passkeys')
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_admin').on('passkeys').columns(['admin_id', 'id']).execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('register', 'sign_in')`))
    .addColumn('admin_id', 'integer', (c) => c.references('admins.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expiry').on('webauthn_challenges').column('expires_at').execute();
}
