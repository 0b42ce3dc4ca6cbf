/**
 * Restores a backup archive into this configuration's database and file store (docs/operations.md, "Backups"):
 *   npm run restore -- FILE [--force]
 * The target database must be empty (or --force replaces what it holds); stop the server first.
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/connection';
import { restoreArchive } from '../src/server/modules/backups/restore';
import { openFileStore } from '../src/server/storage/open';

function parseArgs(args: string[]): { file: string; force: boolean } {
  const rest = args.filter((a) => a !== '--force');
  if (rest.length !== 1 || rest[0]!.startsWith('--')) throw new Error('usage: npm run restore -- FILE [--force]');
  return { file: rest[0]!, force: args.includes('--force') };
}

async function main(): Promise<number> {
  const { file, force } = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase(config.database);
  const store = openFileStore(config);
  try {
    await restoreArchive(file, { database, files: store.files, dataDir: config.dataDir }, { force, log: console.log });
    if (process.env.SESSION_SECRET) console.log('SESSION_SECRET is set: it is used instead of the archived secret, so sessions and second-factor keys from the backup work only if it is the same.');
    return 0;
  } finally {
    store.close();
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`restore: ${err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
