import { randomBytes } from 'node:crypto';
import { checkedSecret, type Config, loadOrCreateSecret } from '../../config';
import type { Database } from '../../db/connection';
import { nowIso } from '../../time';
import { getOrCreateSecret } from './queries';

/**
 * The key session tokens are hashed with: SESSION_SECRET when set; otherwise generated once and
 * kept where every instance on the same data finds it. On PostgreSQL that is the database
 * (instances there have data folders of their own, as containers do); on SQLite, DATA_DIR
 * (loadConfig has normally read that file already).
 */
export async function resolveSessionSecret(config: Config, database: Database): Promise<string> {
  if (config.sessionSecret) return config.sessionSecret;
  if (database.dialect === 'sqlite') return loadOrCreateSecret(config.dataDir);
  const stored = await getOrCreateSecret(database.db, 'session', randomBytes(32).toString('hex'), nowIso());
  return checkedSecret(stored, 'server_secrets row "session"');
}
