import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { insertResource } from '../../testing/resource-fixtures';
import { categoryColors, renderThumbnail } from './svg';

describe('renderThumbnail', () => {
  it('is 16:9, deterministic, and differs by id and by category', () => {
    const svg = renderThumbnail(42, 'sound_effects');
    expect(svg).toMatch(/^<svg [^>]*width="640" height="360" viewBox="0 0 640 360"/);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(renderThumbnail(42, 'sound_effects')).toBe(svg);
    expect(renderThumbnail(43, 'sound_effects')).not.toBe(svg);
    expect(renderThumbnail(42, 'typography')).not.toBe(svg);
    expect(svg).toContain('SOUND EFFECTS');
    expect(svg).toContain('No. 0042');
  });

  it("uses the category's own gradient colours", () => {
    expect(categoryColors('video_editing', 1)).toEqual(['#7c3aed', '#4f46e5']);
    for (const c of ['#f59e0b', '#ea580c']) expect(renderThumbnail(7, 'sound_effects')).toContain(`stop-color="${c}"`);
  });

  it('has no script, no external reference and balanced tags', () => {
    for (let id = 1; id <= 40; id++) {
      for (const category of ['video_editing', 'photo_editing', 'anime_edits', 'premium_resources'] as const) {
        const svg = renderThumbnail(id, category);
        expect(svg).not.toMatch(/<script|href=|on[a-z]+=/i);
        const opened = (svg.match(/<[a-zA-Z]+[^>]*[^/]>/g) ?? []).length;
        const closed = (svg.match(/<\/[a-zA-Z]+>/g) ?? []).length;
        expect(opened).toBe(closed);
      }
    }
  });
});

describe.each(TEST_DATABASES)('GET /thumbnails/:id.svg on %s', (kind) => {
  let t: TestApp;
  let id: number;
  beforeAll(async () => {
    t = await createTestApp(kind);
    id = await insertResource(t.database, { category: 'motion_graphics' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the SVG for the resource, cacheable for a day', async () => {
    const res = await t.app.inject({ url: `/thumbnails/${id}.svg` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.body).toBe(renderThumbnail(id, 'motion_graphics'));
  });

  it('follows the resource category', async () => {
    await t.database.db.updateTable('resources').set({ category: 'typography' }).where('id', '=', id).execute();
    const res = await t.app.inject({ url: `/thumbnails/${id}.svg` });
    expect(res.body).toBe(renderThumbnail(id, 'typography'));
  });

  it('404s in the error shape, uncached, for an id without a resource', async () => {
    const res = await t.app.inject({ url: `/thumbnails/${id + 1}.svg` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Thumbnail not found' } });
    expect(res.headers['cache-control']).toBeUndefined();
  });
});
