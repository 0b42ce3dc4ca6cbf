import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb, idColumn } from './helpers';

// Two-step sign-in with TOTP (docs/decisions/410-totp-and-recovery-codes.md, 411, 412).
// - admin_totp: one authenticator key per admin, AES-256-GCM encrypted with a key derived from the
//   session secret (modules/auth/totp.ts); confirmed_at is null while enrolment is unconfirmed;
//   last_step is the last accepted 30-second time step, so a code is accepted once.
// - admin_recovery_codes: argon2id hashes, used_at set when one is spent.
// - sign_in_challenges: the step between a right password and a session; only a keyed hash of the
//   challenge is stored. purpose 'second_factor' (a code to give) or 'enrol' (policy `required`,
//   no factor yet: enrolment only). Dead after 5 wrong codes or at expires_at.
// - security_settings: site-wide security choices (the second-factor policy), apart from the
//   owner's settings on purpose: those are public, versioned and restorable.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('admin_totp')
    .addColumn('admin_id', 'integer', (c) => c.primaryKey().references('admins.id').onDelete('cascade'))
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('last_step', 'integer')
    .execute();

  await idColumn(db, dialect, 'admin_recovery_codes')
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('admin_recovery_codes_admin').on('admin_recovery_codes').column('admin_id').execute();

  await db.schema
    .createTable('sign_in_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('second_factor', 'enrol')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sign_in_challenges_expiry').on('sign_in_challenges').column('expires_at').execute();

  await db.schema
    .createTable('security_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.references('admins.id').onDelete('set null'))
    .execute();
}
