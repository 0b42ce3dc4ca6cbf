import type { Db } from '../connection';

/** Placeholder until the demo seed lands (server foundation issue). */
export async function seedDemoIfEmpty(_database: Db): Promise<void> {}
