import { describe, expect, it } from 'vitest';
import { appsFor, extensionOf } from '../../contract/apps';
import { bufferSource, claimUncompressedSize, emptyFilesZip, renameInPlace, zipOf } from '../testing/zip-writer';
import { listZip, ZIP_LIMITS } from './zip-listing';

describe('listing a ZIP without extracting it', () => {
  it('lists a pack: each file with its size, counts by extension, the total, and the apps it works in', async () => {
    const zip = await zipOf([
      { name: 'Pack/', data: '' },
      { name: 'Pack/Title.mogrt', data: 'm'.repeat(1200) },
      { name: 'Pack/Project.aep', data: 'a'.repeat(3400) },
      { name: 'Pack/Looks/Look.cube', data: 'LUT_3D_SIZE 2\n' },
      { name: 'Pack/Read me.txt', data: 'Thanks for downloading.' },
    ]);
    const listing = await listZip(bufferSource(zip));
    expect(listing).toEqual({
      status: 'listed',
      entries: [
        { path: 'Pack/Title.mogrt', size: 1200 },
        { path: 'Pack/Project.aep', size: 3400 },
        { path: 'Pack/Looks/Look.cube', size: 14 },
        { path: 'Pack/Read me.txt', size: 23 },
      ],
      total_size: 1200 + 3400 + 14 + 23,
      extensions: { mogrt: 1, aep: 1, cube: 1, txt: 1 },
    });
    if (listing.status !== 'listed') throw new Error('not listed');
    expect(appsFor(Object.keys(listing.extensions))).toEqual(['premiere-pro', 'after-effects', 'any-editor']);
  });

  it('leaves out what the packing computer added: the __MACOSX twins and ._ files, .DS_Store, Thumbs.db, desktop.ini', async () => {
    const zip = await zipOf([
      { name: 'Pack/', data: '' },
      { name: 'Pack/Title.mogrt', data: 'm'.repeat(1200) },
      { name: 'Pack/.DS_Store', data: 'd'.repeat(6148) },
      { name: 'Pack/Looks/Look.cube', data: 'LUT_3D_SIZE 2\n' },
      { name: 'Pack/Looks/Thumbs.db', data: 't'.repeat(500) },
      { name: 'Pack/Looks/DESKTOP.INI', data: '[.ShellClassInfo]' },
      { name: 'Pack/._Title.mogrt', data: 'a'.repeat(120) },
      { name: '__MACOSX/', data: '' },
      { name: '__MACOSX/Pack/._Title.mogrt', data: 'a'.repeat(120) },
      { name: '__MACOSX/Pack/Looks/._Look.cube', data: 'a'.repeat(120) },
      { name: 'Pack/Docs/__MACOSX/._Guide.pdf', data: 'a'.repeat(120) },
      // Names that only look alike are the pack's.
      { name: 'Pack/_Title.mogrt', data: 'u'.repeat(10) },
      { name: 'Pack/MACOSX/Note.txt', data: 'n' },
      { name: 'Pack/My.DS_Store.txt', data: 'n' },
    ]);
    expect(await listZip(bufferSource(zip))).toEqual({
      status: 'listed',
      entries: [
        { path: 'Pack/Title.mogrt', size: 1200 },
        { path: 'Pack/Looks/Look.cube', size: 14 },
        { path: 'Pack/_Title.mogrt', size: 10 },
        { path: 'Pack/MACOSX/Note.txt', size: 1 },
        { path: 'Pack/My.DS_Store.txt', size: 1 },
      ],
      total_size: 1200 + 14 + 10 + 1 + 1,
      extensions: { mogrt: 2, cube: 1, txt: 2 },
    });
  });

  it('never opens a nested archive: it is one entry like any other', async () => {
    const inner = await zipOf([{ name: 'deep.aep', data: 'x' }]);
    const listing = await listZip(bufferSource(await zipOf([{ name: 'inner.zip', data: inner }])));
    expect(listing).toMatchObject({ status: 'listed', entries: [{ path: 'inner.zip', size: inner.length }], extensions: { zip: 1 } });
  });

  it('calls a zip bomb too large to list, from its directory alone', async () => {
    const zip = claimUncompressedSize(await zipOf([{ name: 'a.bin', data: 'x'.repeat(1000) }, { name: 'b.bin', data: 'y'.repeat(1000) }], { compress: true }), 0xfffffff0);
    const listing = await listZip(bufferSource(zip));
    expect(listing.status).toBe('too-large');
    expect(listing).toMatchObject({ reason: expect.stringMatching(/^It would unpack to more than 4\.0 GB from \d+ KB/) });
  });

  it('refuses 100,000 entries without reading their directory', async () => {
    const zip = emptyFilesZip(100_000);
    const source = bufferSource(zip);
    const listing = await listZip(source);
    expect(listing).toEqual({ status: 'too-large', reason: 'It holds 100,000 entries, more than the 10,000 listed' });
    // The end records alone were read, not the megabytes of directory.
    expect(zip.length).toBeGreaterThan(5_000_000);
    expect(source.bytesRead).toBeLessThan(100_000);
  });

  it('lists up to 10,000 entries', async () => {
    const listing = await listZip(bufferSource(emptyFilesZip(10_000)));
    expect(listing).toMatchObject({ status: 'listed', total_size: 0, extensions: { txt: 10_000 } });
    if (listing.status === 'listed') expect(listing.entries.at(-1)).toEqual({ path: 'f9999.txt', size: 0 });
  });

  it('stops reading a directory larger than its budget', async () => {
    const zip = await zipOf(Array.from({ length: 50 }, (_, i) => ({ name: `${'long-name-'.repeat(20)}${i}.txt` })));
    const listing = await listZip(bufferSource(zip), { ...ZIP_LIMITS, maxDirectoryBytes: 4_000 });
    expect(listing).toEqual({ status: 'too-large', reason: 'Its directory is too large to list' });
  });

  it('refuses paths outside the archive, with the name', async () => {
    const base = await zipOf([{ name: 'ok.txt' }, { name: 'xx/evil.sh', data: 'rm -rf' }]);
    expect(await listZip(bufferSource(renameInPlace(base, 'xx/evil', '../evil')))).toEqual({ status: 'broken', reason: 'A file name points outside the archive: ../evil.sh' });
    expect(await listZip(bufferSource(renameInPlace(base, 'xx/evil', '/etc/ev')))).toEqual({ status: 'broken', reason: 'A file name points outside the archive: /etc/ev.sh' });
  });

  it('gives a reason for a truncated archive, and for bytes that are no ZIP at all', async () => {
    const zip = await zipOf([{ name: 'a.txt', data: 'hello' }, { name: 'b.txt', data: 'world' }]);
    expect(await listZip(bufferSource(zip.subarray(0, zip.length - 30)))).toEqual({ status: 'broken', reason: 'Not a ZIP, or an incomplete one: its directory is missing' });
    const cut = await listZip(bufferSource(Buffer.concat([zip.subarray(0, zip.length - 60), zip.subarray(zip.length - 22)])));
    expect(cut.status).toBe('broken');
    expect(await listZip(bufferSource(Buffer.from('%PDF-1.7 not a zip')))).toMatchObject({ status: 'broken' });
    expect(await listZip(bufferSource(Buffer.alloc(0)))).toMatchObject({ status: 'broken' });
  });

  it('gives up on a source that never answers, in bounded time', async () => {
    const zip = await zipOf([{ name: 'a.txt', data: 'hello' }]);
    const stuck = { size: zip.length, read: () => new Promise<never>(() => {}) };
    expect(await listZip(stuck, { ...ZIP_LIMITS, timeoutMs: 200 })).toEqual({ status: 'too-large', reason: 'Listing it took too long' });
  });
});

describe('compatible apps', () => {
  it('come from the extensions inside and from the preview kind, in a fixed order, each once', () => {
    expect(appsFor(['XMP', 'lrtemplate', 'atn', 'abr', 'asl', 'pat'])).toEqual(['lightroom', 'photoshop']);
    expect(appsFor(['drfx', 'setting', 'drp', 'motn', 'moti', 'moef', 'motr', 'prproj', 'aet', 'ffx'])).toEqual(['premiere-pro', 'after-effects', 'davinci-resolve', 'final-cut-pro']);
    expect(appsFor(['3dl', 'otf', 'ttf', 'woff2'])).toEqual(['any-editor', 'fonts']);
    expect(appsFor(['txt', 'png', ''])).toEqual([]);
    expect(appsFor([], 'font')).toEqual(['fonts']);
    expect(appsFor(['cube'], 'lut')).toEqual(['any-editor']);
    expect(appsFor([], 'video')).toEqual([]);
  });

  it('read an extension from the last dot of the file name, not of its folder', () => {
    expect(extensionOf('Pack.v2/Look.CUBE')).toBe('cube');
    expect(extensionOf('Pack.v2/README')).toBe('');
    expect(extensionOf('.hidden')).toBe('');
  });
});
