/**
 * Child process: the real server (buildApp + listen) as `npm start` runs it, configured by the
 * environment it is given (DATA_DIR, DATABASE_URL, LOG_LEVEL …). Reports its port over IPC.
 */
import { sql } from 'kysely';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { prepareDatabase } from '../src/server/setup';

const config = { ...loadConfig(), port: 0, host: '127.0.0.1' };
const { database } = await prepareDatabase(config);
const app = await buildApp(config, database);
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({ port: (app.server.address() as { port: number }).port });
// CPU time answers "how much work per request" even when other processes share the cores.
process.on('message', (m: unknown) => {
  if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (m === 'rss') process.send?.({ rss: process.memoryUsage.rss() });
  // A write the server itself makes (bench/scale.ts): on its own connection, as an admin's save is.
  if (typeof m === 'object' && m !== null && 'run' in m)
    sql
      .raw(String(m.run))
      .execute(database.db)
      .then(
        () => process.send?.({ ran: true }),
        (error: unknown) => process.send?.({ ran: false, error: String(error) }),
      );
});
process.on('SIGTERM', async () => {
  await app.close();
  await database.close();
  process.exit(0);
});
