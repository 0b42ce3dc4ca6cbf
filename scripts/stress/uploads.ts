import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { UPLOADS_PATH } from '../../src/contract/files';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/connection';
import { sweepFiles } from '../../src/server/modules/files/sweep';
import { createUploads } from '../../src/server/modules/files/uploads';
import { JobKinds } from '../../src/server/jobs/kinds';
import { openFileStore } from '../../src/server/storage/open';
import type { Row } from './table';
import { signIn, sleep, startServer, tempDir } from './server-process';

/**
 * kill -9 the server while uploads are in flight (1 MiB PATCHes, several at once, saves attaching
 * finished ones), STRESS_KILLS times (20). After every restart each upload either resumes from
 * the offset the server reports or is cleanly absent (404: its creation never committed). At the
 * end every upload is finished and attached, downloaded and compared byte for byte; no files row
 * may point at missing bytes, and after a sweep (grace period passed) nothing under uploads/ is
 * left that no row names.
 */
interface Tracked {
  data: Buffer;
  sha: string;
  id?: string;
  done: boolean;
  attached?: number;
  absent?: boolean;
}

const CHUNK = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

export async function uploadsUnderKill(cycles = Number(process.env.STRESS_KILLS ?? 20)): Promise<Row[]> {
  const dataDir = tempDir('uploads');
  const uploads: Tracked[] = [];
  let cookie = '';
  let resumed = 0;
  let absent = 0;
  let resumeFailures = 0;

  const run = async (base: string, stopAt: () => boolean) => {
    const headers = () => ({ cookie, origin: base });
    const begin = async (u: Tracked) => {
      const res = await fetch(`${base}${UPLOADS_PATH}`, {
        method: 'POST',
        headers: { ...headers(), ...TUS, 'upload-length': String(u.data.length), 'upload-metadata': `filename ${Buffer.from('stress.bin').toString('base64')}` },
      });
      if (res.status !== 201) throw new Error(`create ${res.status}`);
      u.id = res.headers.get('location')!.split('/').pop()!;
    };
    const push = async (u: Tracked) => {
      const head = await fetch(`${base}${UPLOADS_PATH}/${u.id}`, { method: 'HEAD', headers: { ...headers(), ...TUS } });
      if (head.status === 404) {
        u.absent = true;
        absent++;
        return;
      }
      let offset = Number(head.headers.get('upload-offset'));
      if (offset > 0 && offset < u.data.length) resumed++;
      while (offset < u.data.length && !stopAt()) {
        const end = Math.min(u.data.length, offset + CHUNK);
        const res = await fetch(`${base}${UPLOADS_PATH}/${u.id}`, {
          method: 'PATCH',
          headers: { ...headers(), ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          body: u.data.subarray(offset, end) as unknown as BodyInit,
        });
        if (res.status !== 204) throw new Error(`PATCH ${res.status} ${await res.text()}`);
        offset = Number(res.headers.get('upload-offset'));
      }
      if (offset === u.data.length) u.done = true;
    };
    const attach = async (u: Tracked) => {
      const res = await fetch(`${base}/api/admin/resources`, {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Stress ${u.id}`, description: 'x', category: 'typography', thumbnail_url: '/thumbnails/1.svg', download_upload_id: u.id }),
      });
      if (res.status === 201) u.attached = ((await res.json()) as { id: number }).id;
      else if (res.status === 400) {
        // Attached by a save whose answer the kill swallowed: the upload is gone, its resource must exist.
        const body = await res.text();
        if (!/not found/.test(body)) throw new Error(`attach ${res.status} ${body}`);
        const list = await fetch(`${base}/api/admin/resources?q=${encodeURIComponent(`Stress ${u.id}`)}`, { headers: headers() });
        const found = ((await list.json()) as { items: { id: number; title: string }[] }).items.find((r) => r.title === `Stress ${u.id}`);
        if (found) u.attached = found.id;
        else u.absent = true;
      } else throw new Error(`attach ${res.status}`);
    };
    const work = async (u: Tracked) => {
      try {
        if (!u.id) await begin(u);
        if (!u.done && !u.absent) await push(u);
        if (u.done && u.attached === undefined && !u.absent) await attach(u);
      } catch (err) {
        if (!stopAt()) throw err;
      }
    };
    await Promise.all(uploads.filter((u) => !u.absent && u.attached === undefined).map((u) => work(u).catch(() => undefined)));
  };

  for (let cycle = 0; cycle <= cycles; cycle++) {
    const last = cycle === cycles;
    const server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'false' });
    if (!cookie) cookie = await signIn(server.base);
    if (!last) for (let i = 0; i < 3; i++) {
      const data = randomBytes((4 + Math.floor(Math.random() * 8)) * CHUNK + Math.floor(Math.random() * 1000));
      uploads.push({ data, sha: createHash('sha256').update(data).digest('hex'), done: false });
    }
    let killed = false;
    const working = run(server.base, () => killed);
    if (last) {
      await working;
      // Every upload that resumed is now attached; download each and compare.
      for (const u of uploads.filter((x) => x.attached !== undefined)) {
        const { download_url } = (await (await fetch(`${server.base}/api/resources/${u.attached}/download`, { method: 'POST' })).json()) as { download_url: string };
        const got = Buffer.from(await (await fetch(download_url)).arrayBuffer());
        if (createHash('sha256').update(got).digest('hex') !== u.sha) resumeFailures++;
      }
      server.child.kill('SIGTERM');
      await server.exited;
    } else {
      await sleep(300 + Math.random() * 1500);
      killed = true;
      server.child.kill('SIGKILL');
      await server.exited;
      await working;
    }
  }

  // The store and database as a later start finds them.
  const config = { ...loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: undefined }), dataDir: path.resolve(dataDir) };
  const database = await openDatabase(config.database);
  const store = openFileStore(config);
  const ctx = { config, database, files: store.files, jobs: new JobKinds() };
  let missingBytes = 0;
  for (const f of await database.db.selectFrom('files').select('key').execute()) if (!(await store.files.stat(f.key))) missingBytes++;
  await sweepFiles(ctx, createUploads(ctx), { nowMs: Date.now() + 48 * 3600_000 });
  const named = new Set((await database.db.selectFrom('files').select('key').execute()).map((f) => f.key));
  let orphans = 0;
  for await (const s of store.files.list('uploads/')) if (!named.has(s.key)) orphans++;
  await database.close();
  store.close();

  const attached = uploads.filter((u) => u.attached !== undefined).length;
  const lost = uploads.filter((u) => u.attached === undefined && !u.absent).length;
  return [
    { test: 'uploads under kill -9', figure: 'uploads resumed to identical bytes', goal: 'all', result: `${attached - resumeFailures}/${attached} identical (${resumed} resumed mid-way, ${cycles} kills)`, ok: resumeFailures === 0 && attached > 0 },
    { test: 'uploads under kill -9', figure: 'uploads neither finished nor absent', goal: '0', result: `${lost} (${absent} cleanly absent)`, ok: lost === 0 },
    { test: 'uploads under kill -9', figure: 'rows pointing at missing files', goal: '0', result: String(missingBytes), ok: missingBytes === 0 },
    { test: 'uploads under kill -9', figure: 'orphans after the sweep', goal: '0', result: String(orphans), ok: orphans === 0 },
  ];
}
