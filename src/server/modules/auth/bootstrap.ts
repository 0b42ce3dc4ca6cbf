import type { Config } from '../../config';
import type { Db } from '../../db/connection';

export interface FirstAdminResult {
  created: boolean;
  username?: string;
  /** Set only when a password was generated; printed once by main.ts. */
  generatedPassword?: string;
}

/** Placeholder until the admin accounts issue lands. */
export async function ensureFirstAdmin(_database: Db, _config: Config): Promise<FirstAdminResult> {
  return { created: false };
}
