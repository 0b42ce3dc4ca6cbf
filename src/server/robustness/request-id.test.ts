import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-utils';

/** A client's X-Request-Id is echoed and logged only when it is a short id of safe characters. */
describe('X-Request-Id', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const idFor = async (sent: string) => (await t.app.inject({ url: '/api/site', headers: { 'x-request-id': sent } })).headers['x-request-id'];
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it('keeps a short id of safe characters', async () => {
    expect(await idFor('abc-123_X.y')).toBe('abc-123_X.y');
    expect(await idFor('a'.repeat(64))).toBe('a'.repeat(64));
  });

  it.each([
    ['15 KB', 'r'.repeat(15_000)],
    ['65 characters', 'a'.repeat(65)],
    ['spaces and markup', 'a b<script>'],
    ['a CRLF-looking value', 'id%0d%0aSet-Cookie:x'],
    ['non-ASCII', 'idé'],
  ])('replaces %s with a generated id', async (_name, sent) => {
    const got = await idFor(sent);
    expect(got).toMatch(UUID);
  });

  it('generates one when none is sent', async () => {
    const res = await t.app.inject({ url: '/api/site' });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });
});
