/**
 * A backup of the site's database and hosted files into one archive (docs/operations.md, "Backups"):
 *   npm run backup -- [--out FILE]
 * Uses the same configuration (DATA_DIR / DATABASE_URL / STORAGE …) as the server, which may keep running.
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/connection';
import { resolveSessionSecret } from '../src/server/modules/auth/secret';
import { backupToFile } from '../src/server/modules/backups/backup';
import { openFileStore } from '../src/server/storage/open';

function parseArgs(args: string[]): { out: string } {
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' && args[i + 1]) out = args[++i];
    else throw new Error(`unknown argument ${args[i]} (usage: npm run backup -- [--out FILE])`);
  }
  return { out: out ?? `resource-vault-${new Date().toISOString().replace(/[:.]/g, '-')}.tar` };
}

/** Missing files named on the terminal; the rest are counted. */
const MISSING_SHOWN = 10;

async function main(): Promise<number> {
  const { out } = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase(config.database);
  const store = openFileStore(config);
  try {
    const sessionSecret = await resolveSessionSecret(config, database);
    const summary = await backupToFile({ database, files: store.files, sessionSecret }, out);
    const rows = Object.values(summary.rows).reduce((a, b) => a + b, 0);
    console.log(`Backed up ${rows} rows (migration ${summary.migration}) and ${summary.files} files (${summary.fileBytes} bytes) to ${out} (${summary.bytes} bytes).`);
    if (summary.missingFileCount > 0) {
      // The archive's manifest lists the first thousand; the terminal gets a line, not one entry per file (593,720 at 1M generated rows).
      const shown = summary.missingFiles.slice(0, MISSING_SHOWN).join(', ');
      const more = summary.missingFileCount - Math.min(MISSING_SHOWN, summary.missingFiles.length);
      console.log(`${summary.missingFileCount} files not in the store, so not in the archive (the first ${summary.missingFiles.length} listed in its manifest.json): ${shown}${more > 0 ? `, and ${more} more` : ''}`);
    }
    return 0;
  } finally {
    store.close();
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`backup: ${err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
