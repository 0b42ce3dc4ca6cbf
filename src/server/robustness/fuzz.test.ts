import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAndSignIn, login, sessionCookie, type SignedIn } from '../testing/auth-helpers';
import { createTestApp, TEST_DATABASES, type TestApp } from '../testing/test-utils';
import { checksum, type FuzzRoute, isApiPath, isErrorShape, requestFor, routesFromPrintout } from '../testing/hostile-input';

/**
 * Property-based fuzzing of every route the app registers (public and admin, the latter signed in
 * as a super admin): random and hostile paths, queries, bodies, content types and headers.
 * Properties: never a 5xx; every 4xx carries { error: { code, message } }; a refused request
 * writes nothing. The long form (100,000 requests over a socket) is in `npm run stress`.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
/** Static files, docs and HEAD twins share their handlers with others: fewer runs keep npm test quick. */
const runsFor = (r: FuzzRoute) => (r.method === 'HEAD' || !isApiPath(r.url) || r.url.startsWith('/api/docs') ? Math.ceil(RUNS / 4) : RUNS);
/** In-process PGlite (no TEST_DATABASE_URL) is several times slower per query: half the runs there. */
const scaleFor = (kind: string) => (kind === 'postgres' && !process.env.TEST_DATABASE_URL ? 0.5 : 1);

// The route list comes from the app itself, so a route added later is fuzzed without editing this file.
const probe = await createTestApp('sqlite');
const ROUTES: FuzzRoute[] = routesFromPrintout(probe.app.printRoutes({ commonPrefix: false }));
await probe.close();

it('derives the route list from the app (every API route is in it)', () => {
  const keys = ROUTES.map((r) => `${r.method} ${r.url}`);
  for (const k of ['GET /api/resources', 'POST /api/resources/:id/download', 'POST /api/auth/login', 'POST /api/admin/resources', 'DELETE /api/admin/admins/:id', 'PATCH /api/admin/announcements/:id', 'GET *']) {
    expect(keys).toContain(k);
  }
});

describe.each(TEST_DATABASES)('fuzzing every route on %s', (kind) => {
  let t: TestApp;
  let root: SignedIn;
  const username = 'fuzz_root';

  beforeAll(async () => {
    t = await createTestApp(kind);
    root = await createAndSignIn(t.app, t.database, username, { superUser: true });
    // Something to hit with valid ids: a resource, an announcement, a second admin.
    for (const req of [
      { url: '/api/admin/resources', payload: { title: 'Fuzz target', description: 'x', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_url: 'https://example.com/x.zip', tags: ['A'] } },
      { url: '/api/admin/announcements', payload: { message: 'Fuzz target' } },
      { url: '/api/admin/admins', payload: { username: 'fuzz_other', password: 'fuzz-other-password' } },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: req.url, payload: req.payload, headers: { cookie: root.cookie } });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(ROUTES.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', async (_name, route) => {
    // A fuzzed DELETE or logout may have ended the session: sign in again so admin routes stay reachable.
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: root.cookie } });
    if (me.statusCode !== 200) root = { ...root, cookie: sessionCookie(await login(t.app, username, root.password)) };
    const seen: Record<number, number> = {};
    // The database's checksum before the next request: a refused request's "after" (asserted equal to
    // its "before") serves as the next one's, so only a request that went through is followed by a
    // fresh one.
    let last: string | undefined;
    await fc.assert(
      fc.asyncProperty(requestFor(route), async (r) => {
        const before = (last ??= await checksum(t.database));
        last = undefined;
        const cookie = route.url === '/api/auth/logout' ? {} : { cookie: root.cookie };
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: r.url,
          headers: { ...r.headers, ...cookie },
          payload: r.payload,
        });
        seen[res.statusCode] = (seen[res.statusCode] ?? 0) + 1;
        expect(res.statusCode, `${r.method} ${r.url.slice(0, 200)} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          // The API answers in the error shape; a page URL answers with the site's HTML 404 page.
          // inject() resolves dot segments the way a URL parser does, so judge the path it sent.
          const api = isApiPath(new URL(r.url, 'http://localhost').pathname);
          if (r.method !== 'HEAD' && (api || !String(res.headers['content-type']).startsWith('text/html'))) {
            let body: unknown;
            try {
              body = res.json();
            } catch {
              body = res.body.slice(0, 200);
            }
            expect(isErrorShape(body), `${res.statusCode} without the error shape: ${JSON.stringify(body)}`).toBe(true);
          }
          const after = await checksum(t.database);
          expect(after, `refused ${r.method} ${r.url.slice(0, 200)} wrote`).toBe(before);
          last = after;
        }
      }),
      { numRuns: Math.ceil(runsFor(route) * scaleFor(kind)) },
    );
    expect(Object.values(seen).reduce((a, b) => a + b, 0)).toBe(Math.ceil(runsFor(route) * scaleFor(kind)));
  });
});
