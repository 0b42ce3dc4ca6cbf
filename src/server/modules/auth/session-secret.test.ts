import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { buildApp } from '../../app';
import { type Config, ConfigError, loadConfig } from '../../config';
import type { App } from '../../context';
import type { Database } from '../../db/connection';
import { openTestDatabase } from '../../testing/pglite';
import { migrateToLatest } from '../../db/migrate';
import { routesFromPrintout } from '../../testing/hostile-input';
import { prepareDatabase } from '../../setup';
import { createAccount } from '../admins/accounts';
import { getOrCreateSecret } from './queries';
import { login, sessionCookie } from '../../testing/auth-helpers';

/**
 * The key that session tokens are hashed with, when SESSION_SECRET is not set: generated once
 * and shared by every instance on one PostgreSQL (each with a data folder of its own, as
 * containers have), kept in DATA_DIR on SQLite. Started the way main.ts starts the server.
 */

const PASSWORD = 'secret-test-password-1';
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'rv-secret-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const baseEnv = { SEED_DEMO: 'false', LOG_LEVEL: 'silent', LOG_FORMAT: 'json' };

interface Instance {
  app: App;
  database: Database;
  config: Config;
}

/** One PostgreSQL schema (TEST_DATABASE_URL) or, without it, one in-process PGlite shared by the instances. */
async function freshPostgres(): Promise<{ url?: string; shared?: Database; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const shared = await openTestDatabase({ kind: 'pglite' });
    await migrateToLatest(shared.db, shared.dialect);
    return { shared, drop: () => shared.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await run(`create schema ${schema}`);
  const sep = base.includes('?') ? '&' : '?';
  return {
    url: `${base}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => run(`drop schema if exists ${schema} cascade`),
  };
}

/** Config from the environment, database opened and migrated, app built: as main.ts does. */
async function start(env: Record<string, string>, shared?: Database): Promise<Instance> {
  if (shared) {
    // PGlite stands in for the PostgreSQL the configuration names (it cannot be reached by URL).
    const config = { ...loadConfig({ ...baseEnv, DATABASE_URL: 'postgres://pglite.invalid/rv', ...env }), database: { kind: 'pglite' as const } };
    return { app: await buildApp(config, shared), database: shared, config };
  }
  const config = loadConfig({ ...baseEnv, ...env });
  const { database } = await prepareDatabase(config);
  try {
    return { app: await buildApp(config, database), database, config };
  } catch (err) {
    await database.close();
    throw err;
  }
}

const running: Instance[] = [];
async function stopAll(shared?: Database) {
  for (const i of running.splice(0)) {
    await i.app.close();
    if (i.database !== shared) await i.database.close();
  }
}

const me = (app: App, cookie: string) => app.inject({ url: API.me, headers: { cookie } });
const tokenOf = (cookie: string) => cookie.split('=')[1];
const hashWith = (secret: string, cookie: string) => createHmac('sha256', secret).update(tokenOf(cookie)).digest('hex');

describe('generated session secret on PostgreSQL', () => {
  let pgdb: Awaited<ReturnType<typeof freshPostgres>>;

  afterEach(async () => {
    await stopAll(pgdb?.shared);
    await pgdb?.drop();
  });

  const envFor = (dataDir: string): Record<string, string> => ({ DATA_DIR: dataDir, ...(pgdb.url ? { DATABASE_URL: pgdb.url } : {}) });

  it('is shared by two instances with data folders of their own: a session made on one is accepted by the other', async () => {
    pgdb = await freshPostgres();
    const a = await start(envFor(tempDir()), pgdb.shared);
    running.push(a);
    const b = await start(envFor(tempDir()), pgdb.shared);
    running.push(b);
    await createAccount(a.database.db, { username: 'twin_admin', password: PASSWORD, isSuperUser: true });

    const onA = sessionCookie(await login(a.app, 'twin_admin', PASSWORD));
    const onB = sessionCookie(await login(b.app, 'twin_admin', PASSWORD));
    expect((await me(b.app, onA)).statusCode).toBe(200);
    expect((await me(a.app, onB)).statusCode).toBe(200);
    expect((await b.app.inject({ method: 'POST', url: API.logout, headers: { cookie: onA } })).statusCode).toBe(200);
    expect((await me(a.app, onA)).statusCode).toBe(401);

    // Kept in the database, not in either data folder, and in no table the API serves.
    const rows = await a.database.db.selectFrom('server_secrets').selectAll().execute();
    expect(rows).toHaveLength(1);
    const secret = rows[0].value;
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const session = await a.database.db.selectFrom('sessions').select('id').executeTakeFirstOrThrow();
    expect(session.id).toBe(hashWith(secret, onB));
    for (const i of [a, b]) expect(() => statSync(path.join(i.config.dataDir, 'session-secret'))).toThrow();
    const settings = await a.database.db.selectFrom('settings').selectAll().execute();
    expect(JSON.stringify(settings)).not.toContain(secret);

    // No answer of any GET route carries it, signed in as a super admin.
    const routes = routesFromPrintout(a.app.printRoutes({ commonPrefix: false })).filter((r) => r.method === 'GET');
    expect(routes.length).toBeGreaterThan(10);
    for (const r of routes) {
      const url = r.url.replace(/:[a-zA-Z_]+/g, '1').replace('*', 'x');
      const res = await a.app.inject({ url, headers: { cookie: onB } });
      expect(res.body, url).not.toContain(secret);
    }
  });

  it('is created once when instances start at the same moment: all end with the same secret', async () => {
    pgdb = await freshPostgres();
    const started = await Promise.all(Array.from({ length: 4 }, () => start(envFor(tempDir()), pgdb.shared)));
    running.push(...started);
    await createAccount(started[0].database.db, { username: 'race_admin', password: PASSWORD, isSuperUser: true });
    expect(await started[0].database.db.selectFrom('server_secrets').selectAll().execute()).toHaveLength(1);
    // The same race, tighter: many creators at once over the instances' connections.
    const raced = await Promise.all(
      started.flatMap((i, n) => Array.from({ length: 5 }, (_, k) => getOrCreateSecret(i.database.db, 'race-probe', `candidate-${n}-${k}`, new Date().toISOString()))),
    );
    expect(new Set(raced).size).toBe(1);
    for (const from of started) {
      const cookie = sessionCookie(await login(from.app, 'race_admin', PASSWORD));
      for (const to of started) expect((await me(to.app, cookie)).statusCode).toBe(200);
    }
  });

  it('refuses a stored secret without entropy: the start stops with one line naming the row', async () => {
    pgdb = await freshPostgres();
    const first = await start(envFor(tempDir()), pgdb.shared);
    running.push(first);
    // Someone "rotates" the key by hand to a value that keys nothing: 32 zero bytes, written in hex.
    await first.database.db.updateTable('server_secrets').set({ value: '00'.repeat(32) }).where('name', '=', 'session').execute();
    const failed = await start(envFor(tempDir()), pgdb.shared).then(
      (i) => {
        running.push(i);
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(ConfigError);
    expect((failed as Error).message).toMatch(/^Invalid configuration: the session secret in server_secrets row "session" is not random \(one byte repeated\)/);
    expect((failed as Error).message).not.toContain('\n');
  });

  it('gives way to SESSION_SECRET, which is then the only key used', async () => {
    pgdb = await freshPostgres();
    const secret = 'operator-chosen-session-secret-0123456789';
    const a = await start({ ...envFor(tempDir()), SESSION_SECRET: secret }, pgdb.shared);
    running.push(a);
    await createAccount(a.database.db, { username: 'env_admin', password: PASSWORD, isSuperUser: true });
    const cookie = sessionCookie(await login(a.app, 'env_admin', PASSWORD));
    const session = await a.database.db.selectFrom('sessions').select('id').executeTakeFirstOrThrow();
    expect(session.id).toBe(hashWith(secret, cookie));
    expect(await a.database.db.selectFrom('server_secrets').selectAll().execute()).toHaveLength(0);
  });
});

describe('generated session secret on SQLite', () => {
  afterEach(() => stopAll());

  it('is kept in a file in DATA_DIR (owner-only) and survives a restart; the database holds none', async () => {
    const dataDir = tempDir();
    const first = await start({ DATA_DIR: dataDir });
    running.push(first);
    await createAccount(first.database.db, { username: 'file_admin', password: PASSWORD, isSuperUser: true });
    const cookie = sessionCookie(await login(first.app, 'file_admin', PASSWORD));
    const file = path.join(dataDir, 'session-secret');
    const secret = readFileSync(file, 'utf8').trim();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await first.database.db.selectFrom('server_secrets').selectAll().execute()).toHaveLength(0);
    await stopAll();

    const again = await start({ DATA_DIR: dataDir });
    running.push(again);
    expect((await me(again.app, cookie)).statusCode).toBe(200);
    expect(readFileSync(file, 'utf8').trim()).toBe(secret);
  });

  it.each([
    ['empty', ''],
    ['whitespace', '  \n\t \n'],
    ['too short', 'abc'],
    ['31 characters', 'x'.repeat(31)],
  ])('refuses a secret file that is %s: the start stops with one line naming the file', async (_name, content) => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'session-secret');
    writeFileSync(file, content);
    const failed = await start({ DATA_DIR: dataDir }).then(
      (i) => {
        running.push(i);
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(ConfigError);
    const message = (failed as Error).message;
    expect(message).toContain(file);
    expect(message).toMatch(/at least 32 characters/);
    expect(message).not.toContain('\n');
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it.each([
    ['64 NUL bytes', '\0'.repeat(64), 'one byte repeated'],
    ['one character repeated', 'x'.repeat(64), 'one byte repeated'],
    ['15 distinct characters', 'abcdefghijklmno'.repeat(3), 'only 15 distinct bytes'],
    ['hex of 32 zero bytes', '0'.repeat(64), 'one byte repeated'],
    ['hex of a short repeating pattern', '0123456789abcdef'.repeat(4), 'only 8 distinct bytes'],
  ])('refuses a secret file of %s: the start stops with one line naming the file', async (_name, content, reason) => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'session-secret');
    writeFileSync(file, content);
    const failed = await start({ DATA_DIR: dataDir }).then(
      (i) => {
        running.push(i);
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(ConfigError);
    const message = (failed as Error).message;
    expect(message).toContain(file);
    expect(message).toContain(`is not random (${reason})`);
    expect(message).not.toContain('\n');
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('uses a valid secret file as it is (surrounding whitespace aside)', async () => {
    const dataDir = tempDir();
    const secret = 'a-secret-the-operator-wrote-0123456789';
    writeFileSync(path.join(dataDir, 'session-secret'), `${secret}\n`);
    const i = await start({ DATA_DIR: dataDir });
    running.push(i);
    await createAccount(i.database.db, { username: 'kept_admin', password: PASSWORD, isSuperUser: true });
    const cookie = sessionCookie(await login(i.app, 'kept_admin', PASSWORD));
    const session = await i.database.db.selectFrom('sessions').select('id').executeTakeFirstOrThrow();
    expect(session.id).toBe(hashWith(secret, cookie));
  });
});

describe('SESSION_SECRET from the environment', () => {
  const load = (secret: string) => () => loadConfig({ ...baseEnv, SESSION_SECRET: secret });

  it.each([
    ['64 NUL bytes', '\0'.repeat(64), 'one byte repeated'],
    ['one character repeated', 'x'.repeat(32), 'one byte repeated'],
    ['15 distinct characters', 'abcdefghijklmno'.repeat(3), 'only 15 distinct bytes'],
    ['hex of 32 zero bytes', '0'.repeat(64), 'one byte repeated'],
  ])('refuses %s with one line naming the variable', (_name, secret, reason) => {
    expect(load(secret)).toThrow(ConfigError);
    expect(load(secret)).toThrow(new RegExp(`^Invalid configuration: SESSION_SECRET is not random \\(${reason}\\); use a random value`));
  });

  it('still refuses a short one for its length', () => {
    expect(load('short')).toThrow('Invalid configuration: SESSION_SECRET must be at least 32 characters');
  });

  it.each([
    ['random hex of the shortest length', randomBytes(16).toString('hex')],
    ['random hex', randomBytes(32).toString('hex')],
    ['random base64', randomBytes(24).toString('base64')],
    ['a passphrase', 'operator-chosen-session-secret-0123456789'],
  ])('accepts %s', (_name, secret) => {
    expect(loadConfig({ ...baseEnv, SESSION_SECRET: secret }).sessionSecret).toBe(secret);
  });
});
