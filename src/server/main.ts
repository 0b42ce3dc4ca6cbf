import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { prepareDatabase } from './setup';

/** Reads config, migrates, seeds, listens, and shuts down gracefully on SIGTERM/SIGINT. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const { database, firstAdmin } = await prepareDatabase(config);
  const app = await buildApp(config, database);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown did not finish within 10 s: exiting 1');
      process.exit(1);
    }, 10_000);
    force.unref();
    // app.close() closes the connections idle at that moment; one whose request finishes later stays
    // open as keep-alive and would hold the close until the force timeout. Keep closing them.
    const idle = setInterval(() => app.server.closeIdleConnections(), 50);
    idle.unref();
    try {
      await app.close(); // stops accepting, finishes in-flight requests
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '::' ? `http://localhost:${(app.server.address() as { port: number }).port}` : address;
  const db = config.database.kind === 'postgres' ? 'PostgreSQL' : `SQLite (${config.database.kind === 'sqlite' ? config.database.file : ''})`;
  console.log(`\n  ${config.siteName} is running at ${shown}\n  Database: ${db}\n`);
  if (firstAdmin.generatedPassword) {
    const line = '='.repeat(64);
    console.log(
      `${line}\n  First start: created super admin\n    username: ${firstAdmin.username}\n    password: ${firstAdmin.generatedPassword}\n  Sign in at ${shown}/admin/login and keep this password safe;\n  it is shown only once. Reset it with: npm run admin -- reset-password ${firstAdmin.username}\n${line}\n`,
    );
  }
}

main().catch((err) => {
  console.error(`Failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
