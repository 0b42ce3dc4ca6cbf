import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract/api-paths';
import { type FilesTestApp, sha256, startFilesApp, STORES } from '../testing/files-helpers';
import { openFileStore } from '../storage/open';
import { DEMO_HOSTED_COUNT, DEMO_PACKS, seedDemoFiles } from './demo-files';
import type { ContentsPage } from '../../contract/contents';
import type { PublicResource } from '../../contract/resources';
import { seedDemoIfEmpty } from './seed';

/** The entries of a ZIP, read by their local headers, each inflated and checked against its CRC. */
function unzip(zip: Buffer): { name: string; data: Buffer }[] {
  const out: { name: string; data: Buffer }[] = [];
  let at = 0;
  while (zip.readUInt32LE(at) === 0x04034b50) {
    const method = zip.readUInt16LE(at + 8);
    const crc = zip.readUInt32LE(at + 14);
    const packed = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extra;
    const raw = zip.subarray(start, start + packed);
    const data = method === 8 ? zlib.inflateRawSync(raw) : raw;
    expect(zlib.crc32(data), name).toBe(crc);
    out.push({ name, data });
    at = start + packed;
  }
  expect(zip.readUInt32LE(at)).toBe(0x02014b50);
  return out;
}

describe.each(STORES)('demo hosted files in the %s store', (store) => {
  let t: FilesTestApp;
  beforeAll(async () => {
    t = await startFilesApp('sqlite', store);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a fresh install has a few resources with hosted ZIPs of LUTs beside linked ones, downloadable and intact', async () => {
    expect(await seedDemoIfEmpty(t.database)).toBe(true);
    const opened = openFileStore(t.config);
    try {
      expect(await seedDemoFiles(t.database, opened.files)).toBe(DEMO_HOSTED_COUNT + DEMO_PACKS.length);
    } finally {
      opened.close();
    }
    const hosted = await t.database.db.selectFrom('resources').select('id').where('download_file_id', 'is not', null).where('category', '=', 'color_grading').execute();
    expect(hosted).toHaveLength(DEMO_HOSTED_COUNT);
    const linked = await t.database.db.selectFrom('resources').select('id').where('download_file_id', 'is', null).execute();
    expect(linked.length).toBeGreaterThan(DEMO_HOSTED_COUNT);

    for (const { id } of hosted) {
      const pub = (await t.app.inject({ url: API.resource(id) })).json();
      expect(pub.file).toMatchObject({ content_type: 'application/zip' });
      expect(pub.file.name).toMatch(/\.zip$/);
      const { download_url } = (await (await fetch(`${t.base}${API.download(id)}`, { method: 'POST' })).json()) as { download_url: string };
      const zip = Buffer.from(await (await fetch(download_url)).arrayBuffer());
      expect(sha256(zip)).toBe(pub.file.sha256);
      const entries = unzip(zip);
      expect(entries.map((e) => e.name)).toEqual(['README.txt', expect.stringMatching(/\.cube$/), expect.stringMatching(/\.cube$/)]);
      expect(entries[1].data.toString()).toContain('LUT_3D_SIZE 17');
    }
  });

  it('the demo packs are real ZIPs of templates: listed, with the apps they are for', async () => {
    const packs = await t.database.db.selectFrom('resources').select('id').where('download_file_id', 'is not', null).where('category', '<>', 'color_grading').orderBy('id').execute();
    expect(packs).toHaveLength(DEMO_PACKS.length);
    // The app was started before these files were seeded: the listing job is queued as a start would queue it.
    const { queueUnlisted } = await import('../modules/listings/listings');
    await queueUnlisted(t.database);
    const apps: string[][] = [];
    for (const { id } of packs) {
      await expect.poll(async () => (await t.app.inject({ url: API.resource(id) })).json<PublicResource>().contents?.status, { timeout: 30_000 }).toBe('listed');
      const pack = (await t.app.inject({ url: API.resource(id) })).json<PublicResource>();
      apps.push(pack.apps.map((a) => a.id));
      // Its page names the app the pack is for: never "for Premiere Pro" over an After Effects project.
      expect(`${pack.title} ${pack.description}`).toContain(pack.apps[0]!.label);
      const page = (await t.app.inject({ url: API.resourceContents(id) })).json<ContentsPage>();
      expect(page.entries.length).toBeGreaterThanOrEqual(5);
    }
    expect(apps.map((a) => a.join(' ')).sort()).toEqual(['after-effects', 'davinci-resolve any-editor', 'premiere-pro']);
  });
});
