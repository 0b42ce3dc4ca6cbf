import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { SORT_OPTIONS } from '../../../contract/constants';
import { errorBodySchema } from '../../../contract/errors';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { createAndSignIn, type SignedIn } from '../../testing/auth-helpers';
import { insertResource } from '../../testing/resource-fixtures';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** The largest value of an `integer` column on PostgreSQL (int4), which every cursor number is checked against. */
const INT_MAX = 2_147_483_647;
const DATE = '2024-06-01T00:00:00.000Z';

/** Numbers no integer column holds: each must be refused before it reaches the database. */
const OUT_OF_RANGE = [INT_MAX + 1, 2 ** 53 - 1, -1, 1.5, 1e300];

/** Forged public cursors for a sort: every number of it, in turn, out of range. */
function forgedPublic(sort: (typeof SORT_OPTIONS)[number]): unknown[] {
  const keys = { popular: [3, 2], newest: [DATE], downloads: [2] }[sort];
  const out: unknown[] = [];
  for (const bad of OUT_OF_RANGE) {
    out.push({ sort, keys, id: bad });
    keys.forEach((k, i) => {
      if (typeof k === 'number') out.push({ sort, keys: keys.map((v, j) => (j === i ? bad : v)), id: 1 });
    });
  }
  return out;
}

describe.each(TEST_DATABASES)('forged list cursors on %s', (kind) => {
  let t: TestApp;
  let admin: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await createAndSignIn(t.app, t.database, 'cursor_admin');
    for (let i = 0; i < 3; i++) await insertResource(t.database, { title: `Cursor row ${i}`, popularity: i, download_count: i });
  });
  afterAll(async () => {
    await t.close();
  });

  function expectInvalidCursor(res: { statusCode: number; body: string; json(): unknown }, label: string) {
    expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
    const body = errorBodySchema.strict().parse(res.json());
    expect(body.error, label).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Invalid cursor', fields: { cursor: 'Invalid cursor' } });
  }

  it.each(SORT_OPTIONS)('public list, sort=%s: a number out of its column range is 400 "Invalid cursor", never a 500', async (sort) => {
    for (const forged of forgedPublic(sort)) {
      for (const extra of ['', '&q=cursor', '&q=ro', '&category=video-editing']) {
        const url = `/api/resources?sort=${sort}${extra}&cursor=${b64(forged)}`;
        expectInvalidCursor(await t.app.inject({ url }), url);
      }
    }
  });

  it.each(SORT_OPTIONS)('public list, sort=%s: the largest values the columns hold are a valid position', async (sort) => {
    const keys = { popular: [INT_MAX, INT_MAX], newest: [DATE], downloads: [INT_MAX] }[sort];
    const res = await t.app.inject({ url: `/api/resources?sort=${sort}&cursor=${b64({ sort, keys, id: INT_MAX })}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.length).toBe(3);
  });

  it('admin list: a number out of range, or anything else forged, is 400 "Invalid cursor"', async () => {
    const forged: unknown[] = [
      ...OUT_OF_RANGE.map((bad) => ({ direction: 'older', createdAt: DATE, id: bad, offset: 0 })),
      ...OUT_OF_RANGE.filter((bad) => bad < 0 || !Number.isSafeInteger(bad)).map((bad) => ({ direction: 'newer', createdAt: DATE, id: 1, offset: bad })),
      { direction: 'older', createdAt: DATE, id: 1 },
      { direction: 'x', createdAt: DATE, id: 1, offset: 0 },
      { direction: 'older', createdAt: "x' or 1=1 --", id: 1, offset: 0 },
      [1, 2],
    ];
    for (const c of forged) {
      for (const extra of ['', '&q=cursor', '&q=ro', '&category=video-editing']) {
        const url = `${API.adminResources}?cursor=${b64(c)}${extra}`;
        expectInvalidCursor(await t.app.inject({ url, headers: { cookie: admin.cookie } }), url);
      }
    }
    const edge = await t.app.inject({ url: `${API.adminResources}?cursor=${b64({ direction: 'older', createdAt: DATE, id: INT_MAX, offset: 0 })}`, headers: { cookie: admin.cookie } });
    expect(edge.statusCode, edge.body).toBe(200);
  });
});
