import type { Config } from './config';
import { openDatabase, type Db } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { DEMO_PREVIEWS_JOB } from './db/seed/demo-previews';
import { seedDemoIfEmpty } from './db/seed/seed';
import { enqueueJob } from './modules/media/jobs';
import { ensureFirstAdmin, type FirstAdminResult } from './modules/auth/bootstrap';

export interface Prepared {
  database: Db;
  firstAdmin: FirstAdminResult;
}

/** Opens the database, migrates it, seeds demo content into an empty one and makes sure an admin exists. */
export async function prepareDatabase(config: Config): Promise<Prepared> {
  const database = await openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.dialect);
    // The demo previews are made by the job worker after the start (db/seed/demo-previews.ts).
    if (config.seedDemo && (await seedDemoIfEmpty(database))) await enqueueJob(database, DEMO_PREVIEWS_JOB, {});
    const firstAdmin = await ensureFirstAdmin(database, config);
    return { database, firstAdmin };
  } catch (err) {
    await database.close();
    throw err;
  }
}
