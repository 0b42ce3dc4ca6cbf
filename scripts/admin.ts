/**
 * Admin accounts from the command line:
 *   npm run admin -- create <username> [--super] [--password <password>]
 *   npm run admin -- reset-password <username> [--password <password>]
 *   npm run admin -- reset-2fa <username>
 * Uses the same configuration (DATA_DIR / DATABASE_URL) as the server.
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { runAdminCli } from '../src/server/modules/admins/admin-cli';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
  const database = await openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.dialect);
    return await runAdminCli(process.argv.slice(2), database, { out: console.log, err: console.error });
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`admin: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
