import pg from 'pg';
import { LOGIN_IP_LIMIT } from '../../src/contract/constants';
import type { Row } from './table';
import { ADMIN, json, pool, type ServerProcess, startServer, stopServer } from './server-process';

/** A visitor's browser (isbot takes Node's own clients for bots). */
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const PG_ADMIN_URL = process.env.STRESS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Two server processes on one fresh PostgreSQL database, clients alternating between them:
 * download counts, sessions and the sign-in limit must behave as if there were one server.
 */
export async function twoInstances(downloads = Number(process.env.STRESS_DOWNLOADS ?? 10_000)): Promise<Row[]> {
  const dbName = 'rv_stress';
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${dbName}`;
  // Behind a load balancer in production: each scenario below uses its own client address.
  // Instances behind one balancer share SESSION_SECRET (cookies are signed with it), as a deployment must.
  const env = { DATABASE_URL: url.toString(), TRUST_PROXY: 'true', SESSION_SECRET: 'stress-shared-session-secret-0123456789' };
  const servers: ServerProcess[] = [];
  try {
    servers.push(await startServer(env)); // the first one migrates and seeds
    servers.push(await startServer({ ...env, SEED_DEMO: 'false' }));
    const [a, b] = servers;
    const pick = (i: number) => servers[i % 2].base;
    const rows: Row[] = [];

    // 1. Concurrent downloads across both.
    const list = JSON.parse((await json(a.base, 'GET', '/api/resources?limit=1')).body);
    const id = list.items[0].id as number;
    // Read from the database: public answers may show a count up to 5 s old (PUBLIC_CACHE_MAX_AGE_MS).
    const reader = new pg.Client({ connectionString: url.toString() });
    await reader.connect();
    const countOf = async () => {
      const r = await reader.query<{ n: string; days: string; resource_days: string }>(
        `select (select download_count from resources where id = $1) as n, (select coalesce(sum(count), 0) from download_days) as days,
           (select coalesce(sum(count), 0) from resource_download_days where resource_id = $1) as resource_days`,
        [id],
      );
      return { n: Number(r.rows[0].n), days: Number(r.rows[0].days), resourceDays: Number(r.rows[0].resource_days) };
    };
    // Each download by its own visitor (client address by X-Forwarded-For, TRUST_PROXY is on), at the default settings
    // (DOWNLOAD_COUNTING=unique, DOWNLOAD_RATE_LIMIT=30).
    const visitor = (i: number) => ({ 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'user-agent': BROWSER_UA });
    const before = await countOf();
    const t0 = Date.now();
    const statuses = await pool(downloads, 100, (i) =>
      json(pick(i), 'POST', `/api/resources/${id}/download`, undefined, visitor(i)).then((r) => r.status, () => 0),
    );
    const seconds = (Date.now() - t0) / 1000;
    const ok = statuses.filter((s) => s === 200).length;
    const after = await countOf();
    rows.push({
      test: 'Two instances: downloads',
      figure: `${downloads} concurrent downloads by ${downloads} visitors across 2 servers in ${seconds.toFixed(1)} s`,
      goal: `count +${downloads}, per-day +${downloads}, resource per-day +${downloads}`,
      result: `${ok} × 200, count +${after.n - before.n}, per-day +${after.days - before.days}, resource per-day +${after.resourceDays - before.resourceDays}`,
      ok: ok === downloads && [after.n - before.n, after.days - before.days, after.resourceDays - before.resourceDays].every((d) => d === downloads),
    });

    // 1b. One visitor pressing 200 times, alternating servers, all at once: one download, the rest refused past the limit.
    const one = visitor(downloads + 1);
    const presses = await pool(200, 100, (i) => json(pick(i), 'POST', `/api/resources/${id}/download`, undefined, one).then((r) => r.status, () => 0));
    const afterOne = await countOf();
    await reader.end();
    const ok200 = presses.filter((s) => s === 200).length;
    const limited = presses.filter((s) => s === 429).length;
    rows.push({
      test: 'Two instances: one visitor',
      figure: '200 concurrent presses by one visitor across 2 servers',
      goal: 'count +1; 30 × 200, 170 × 429 (DOWNLOAD_RATE_LIMIT=30)',
      result: `count +${afterOne.n - after.n}; ${ok200} × 200, ${limited} × 429`,
      ok: afterOne.n - after.n === 1 && afterOne.resourceDays - after.resourceDays === 1 && ok200 === 30 && limited === 170,
    });

    // 2. A session made on one server is valid on the other; sign-out on one ends it on both.
    const xff = { 'x-forwarded-for': '203.0.113.1' };
    const signIn = await json(a.base, 'POST', '/api/auth/login', ADMIN, xff);
    const cookie = ([] as string[]).concat(signIn.headers['set-cookie'] ?? []).find((c) => c.startsWith('rv_session='))?.split(';')[0] ?? '';
    const meOnB = (await json(b.base, 'GET', '/api/auth/me', undefined, { cookie })).status;
    const logoutOnB = (await json(b.base, 'POST', '/api/auth/logout', undefined, { cookie })).status;
    const meOnA = (await json(a.base, 'GET', '/api/auth/me', undefined, { cookie })).status;
    const meOnBAfter = (await json(b.base, 'GET', '/api/auth/me', undefined, { cookie })).status;
    rows.push({
      test: 'Two instances: sessions',
      figure: 'sign in on A → me on B; sign out on B → me on A and B',
      goal: '200; 401, 401',
      result: `${meOnB}; ${meOnA}, ${meOnBAfter}`,
      ok: signIn.status === 200 && meOnB === 200 && logoutOnB === 200 && meOnA === 401 && meOnBAfter === 401,
    });

    // 3. The per-address sign-in limit is shared (decision 312): LOGIN_IP_LIMIT wrong attempts with as many
    // usernames, alternating A/B, then the next two are refused on either.
    const attacker = { 'x-forwarded-for': '203.0.113.99' };
    const attempts: number[] = [];
    for (let i = 0; i < LOGIN_IP_LIMIT + 2; i++) {
      attempts.push((await json(pick(i), 'POST', '/api/auth/login', { username: `nobody${i}`, password: 'wrong-password-x' }, attacker)).status);
    }
    const counts = (list: number[]) => [...new Set(list)].map((status) => `${list.filter((s) => s === status).length} × ${status}`).join(', ');
    rows.push({
      test: 'Two instances: sign-in limit',
      figure: `${LOGIN_IP_LIMIT + 2} wrong sign-ins from one IP with as many usernames, alternating A/B`,
      goal: `${LOGIN_IP_LIMIT} × 401, then 429 on A and B`,
      result: `${counts(attempts.slice(0, LOGIN_IP_LIMIT))}, then ${attempts.slice(LOGIN_IP_LIMIT).join(' ')}`,
      ok: attempts.slice(0, LOGIN_IP_LIMIT).every((s) => s === 401) && attempts[LOGIN_IP_LIMIT] === 429 && attempts[LOGIN_IP_LIMIT + 1] === 429,
    });
    return rows;
  } finally {
    for (const s of servers) await stopServer(s);
  }
}
