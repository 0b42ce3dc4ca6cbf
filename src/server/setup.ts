import type { Config } from './config';
import { openDatabase, type Database } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { DEMO_PREVIEWS_JOB } from './demo/demo-previews';
import { seedDemoFiles } from './demo/demo-files';
import { seedDemoIfEmpty } from './demo/seed';
import { enqueueJob } from './jobs/queue';
import { openFileStore } from './storage/open';
import { ensureFirstAdmin, type FirstAdminResult } from './modules/auth/bootstrap';

export interface Prepared {
  database: Database;
  firstAdmin: FirstAdminResult;
}

/** Opens the database, migrates it, seeds demo content into an empty one and makes sure an admin exists. */
export async function prepareDatabase(config: Config): Promise<Prepared> {
  const database = await openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.dialect);
    if (config.seedDemo && (await seedDemoIfEmpty(database))) {
      // A few demo resources get hosted files, in the configured store.
      const store = openFileStore(config);
      try {
        await seedDemoFiles(database, store.files);
      } finally {
        store.close();
      }
      // The demo previews are made by the job worker after the start (demo/demo-previews.ts).
      await enqueueJob(database, DEMO_PREVIEWS_JOB, {});
    }
    const firstAdmin = await ensureFirstAdmin(database, config);
    return { database, firstAdmin };
  } catch (err) {
    await database.close();
    throw err;
  }
}
