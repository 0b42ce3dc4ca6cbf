import { type Config, ConfigError } from '../../config';
import type { Database } from '../../db/connection';
import { AccountInputError, createAccount } from '../admins/accounts';
import { countAdmins, DuplicateUsernameError } from '../admins/queries';

export interface FirstAdminResult {
  created: boolean;
  username?: string;
  /** Set only when a password was generated; printed once by main.ts. */
  generatedPassword?: string;
}

export const DEFAULT_ADMIN_USERNAME = 'admin';

/**
 * With no admin in the database, creates a super admin: ADMIN_USERNAME / ADMIN_PASSWORD when
 * set (a bad value stops the start with one line naming it), otherwise `admin` with a
 * generated password for main.ts to print once. Never logs the password.
 */
export async function ensureFirstAdmin(database: Database, config: Config): Promise<FirstAdminResult> {
  if ((await countAdmins(database.db)) > 0) return { created: false };
  try {
    const { admin, generatedPassword } = await createAccount(database.db, {
      username: config.adminUsername ?? DEFAULT_ADMIN_USERNAME,
      password: config.adminPassword,
      isSuperUser: true,
    });
    return { created: true, username: admin.username, generatedPassword };
  } catch (err) {
    if (err instanceof AccountInputError) {
      const variable = err.field === 'username' ? 'ADMIN_USERNAME' : 'ADMIN_PASSWORD';
      throw new ConfigError(`Invalid configuration: ${variable} ${err.message}`);
    }
    // Another instance starting on the same database created it first.
    if (err instanceof DuplicateUsernameError) return { created: false };
    throw err;
  }
}
