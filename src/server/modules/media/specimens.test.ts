import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import type { ReadyPreview } from '../../../contract/previews';
import type { PublicResource } from '../../../contract/resources';
import { buildTtf } from '../../testing/test-fonts';
import { LocalFileStore } from '../../storage/local';
import { createAndSignIn } from '../../testing/auth-helpers';
import { createTestApp, tampered, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { insertResource } from '../../testing/resource-fixtures';
import { queueResourcePreview } from './resource-previews';

/** A font resource's title as an SVG of the font's outlines: made on first request, for the current title only. */
describe.each(TEST_DATABASES)('font title specimens on %s', (kind) => {
  let t: TestApp;
  let files: LocalFileStore;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rv-specimens-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  beforeAll(async () => {
    t = await createTestApp(kind, { dataDir });
    files = new LocalFileStore(path.join(dataDir, 'files'));
  });
  afterAll(() => t?.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const publicOne = async (id: number) => (await get(API.resource(id))).json<PublicResource>();
  const fontPreview = async (id: number) => {
    const end = Date.now() + 60_000;
    for (;;) {
      const preview = (await publicOne(id)).preview;
      if (preview) return preview as Extract<ReadyPreview, { kind: 'font' }>;
      if (Date.now() > end) throw new Error('the font preview did not become ready');
      await delay(50);
    }
  };
  const rename = (id: number, title: string) => t.database.db.updateTable('resources').set({ title }).where('id', '=', id).execute();
  const specimensStored = async () => {
    const keys: string[] = [];
    for await (const f of files.list('media/')) if (f.key.endsWith('.svg')) keys.push(f.key);
    return keys.length;
  };

  let id: number;
  let url: string;
  beforeAll(async () => {
    const source = `sources/${kind}/font.ttf`;
    await files.put(source, Readable.from([buildTtf({ familyName: 'Block Sans' })]), { maxBytes: 1 << 20 });
    id = await insertResource(t.database, { category: 'typography', title: 'Block Party' });
    await queueResourcePreview(t.database, id, { kind: 'font', source });
    url = (await fontPreview(id)).specimen.url;
  });

  it('serves the title as an immutable SVG of outlines, and draws it once for many at once', async () => {
    expect(url).toMatch(new RegExp(`^/media/specimens/${id}/[0-9a-f]{32}\\.svg$`));
    const before = await specimensStored();
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(url)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await specimensStored()).toBe(before + 1);
    const [res] = answers;
    expect(res!.headers['content-type']).toBe('image/svg+xml');
    expect(res!.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res!.headers['x-content-type-options']).toBe('nosniff');
    const svg = res!.body;
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="-?\d+ -?\d+ \d+ \d+" width="\d+" height="\d+"><path fill="#1c1917" d="M[^"]+Z"\/><\/svg>$/);
    // Ten letters of a block font: outlines, not text (nothing for a browser to fetch a font for).
    expect(svg).not.toMatch(/<text|font|href|script/i);
    expect((svg.match(/M/g) ?? []).length).toBeGreaterThanOrEqual(9);

  });

  it('sets a long title on two lines, compressed when asked', async () => {
    const size = (body: string) => body.match(/width="(\d+)" height="(\d+)"/)!.slice(1).map(Number) as [number, number];
    const [, oneLine] = size((await get(url)).body);
    await rename(id, 'Block Party Headline Collection For Posters');
    const long = await get((await fontPreview(id)).specimen.url);
    expect(long.statusCode).toBe(200);
    const [w, h] = size(long.body);
    expect(h).toBeGreaterThan(oneLine * 1.8);
    expect(w).toBeLessThan(h * 12);
    // Past the compression threshold (app.ts): outlines are text, and compress.
    expect(long.body.length).toBeGreaterThan(1024);
    const gzip = await get((await fontPreview(id)).specimen.url, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.rawPayload.length).toBeLessThan(long.body.length / 2);
    await rename(id, 'Block Party');
  });

  it('follows a rename: the new title gets a new URL, the old URL is gone', async () => {
    await rename(id, 'Renamed Blocks');
    const renamed = (await fontPreview(id)).specimen.url;
    expect(renamed).not.toBe(url);
    expect((await get(renamed)).statusCode).toBe(200);
    const old = await get(url);
    expect(old.statusCode).toBe(404);
    expect(old.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    await rename(id, 'Block Party');
    expect((await get(url)).statusCode).toBe(200);
  });

  it('is a 404 in the error shape when the font lacks a character of the title (the card then loads the font)', async () => {
    await rename(id, 'Block → Party ✓');
    const missing = (await fontPreview(id)).specimen.url;
    for (let i = 0; i < 2; i++) {
      const res = await get(missing);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    await rename(id, 'Block Party');
  });

  it('draws nothing a visitor chooses: any other resource, hash or name is a 404', async () => {
    const other = await insertResource(t.database, { category: 'sound_effects', title: 'Not a font' });
    const hash = url.split('/').pop()!;
    for (const bad of [
      `/media/specimens/${other}/${hash}`,
      `/media/specimens/999999/${hash}`,
      `/media/specimens/${id}/${'0'.repeat(32)}.svg`,
      `/media/specimens/${id}/${hash.replace('.svg', '.png')}`,
      `/media/specimens/0${id}/${hash}`,
      `/media/specimens/-1/${hash}`,
      `/media/specimens/${'9'.repeat(40)}/${hash}`,
      `/media/specimens/2147483648/${hash}`,
      `/media/specimens/9999999999999999/${hash}`,
      `/media/specimens/${id}/..%2f..%2fetc%2fpasswd`,
    ]) {
      const res = await get(bad);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json(), bad).toMatchObject({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    }
  });

  it('a draft’s specimen is drawn for its preview link and for a signed-in admin, never cached; one in the trash for an admin only', async () => {
    const setStatus = (status: string) => t.database.db.updateTable('resources').set({ status }).where('id', '=', id).execute();
    const admin = await createAndSignIn(t.app, t.database, 'specimen_admin');
    const linkOf = async (resourceId: number) =>
      new URL((await t.app.inject({ method: 'POST', url: API.adminResourcePreviewLink(resourceId), headers: { cookie: admin.cookie } })).json<{ url: string }>().url, 'http://x').searchParams.get('preview')!;
    const other = await insertResource(t.database, { category: 'typography', title: 'Another' });
    await setStatus('draft');
    try {
      expect((await get(url)).statusCode).toBe(404);
      const token = await linkOf(id);
      const viaLink = await get(`${url}?preview=${token}`);
      expect(viaLink.statusCode, viaLink.body).toBe(200);
      expect(viaLink.headers['cache-control']).toBe('private, no-store');
      expect(viaLink.body).toMatch(/^<svg /);
      // Another resource's link, a tampered one: not this draft's.
      expect((await get(`${url}?preview=${await linkOf(other)}`)).statusCode).toBe(404);
      expect((await get(`${url}?preview=${tampered(token)}`)).statusCode).toBe(404);
      const asAdmin = await get(url, { cookie: admin.cookie });
      expect(asAdmin.statusCode).toBe(200);
      expect(asAdmin.headers['cache-control']).toBe('private, no-store');

      await setStatus('trashed');
      expect((await get(`${url}?preview=${token}`)).statusCode).toBe(404);
      expect((await get(url, { cookie: admin.cookie })).statusCode).toBe(200);
    } finally {
      await setStatus('published');
    }
    expect((await get(url)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
