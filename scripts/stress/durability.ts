import path from 'node:path';
import Database from 'better-sqlite3';
import type { Row } from './table';
import { json, signIn, sleep, startServer, tempDir } from './server-process';

/**
 * kill -9 at random moments while writes are in flight, 20 times. After each crash the SQLite file
 * must pass integrity_check and hold every write the server acknowledged with a 2xx.
 */
export async function durability(cycles = Number(process.env.STRESS_KILLS ?? 20)): Promise<Row[]> {
  const dataDir = tempDir('durability');
  const file = path.join(dataDir, 'resource-vault.db');
  const acknowledged = new Set<number>();
  let downloadsAcked = 0;
  let targetId = 0;
  let cookie = '';
  let integrityFailures = 0;
  let missing = 0;
  let countShort = 0;
  let writes = 0;

  for (let cycle = 0; cycle < cycles; cycle++) {
    // Every acknowledged download must be kept: each one counts here (one client, no limit).
    const server = await startServer({ DATA_DIR: dataDir, SEED_DEMO: 'false', DOWNLOAD_COUNTING: 'every', DOWNLOAD_RATE_LIMIT: '0' });
    // The session lives in the database and the secret in DATA_DIR: one sign-in serves every restart.
    if (!cookie) {
      cookie = await signIn(server.base);
      const r = await json(server.base, 'POST', '/api/admin/resources', resource('download target'), { cookie });
      if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.body}`);
      targetId = JSON.parse(r.body).id;
      acknowledged.add(targetId);
    }
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          if ((w + i) % 2 === 0) {
            const r = await json(server.base, 'POST', '/api/admin/resources', resource(`crash ${cycle}-${w}-${i}`), { cookie });
            if (r.status === 201) acknowledged.add(JSON.parse(r.body).id);
          } else {
            const r = await json(server.base, 'POST', `/api/resources/${targetId}/download`);
            if (r.status === 200) downloadsAcked++;
          }
          writes++;
        } catch {
          return; // the server died under us: that request was never acknowledged
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    await sleep(100 + Math.random() * 900);
    server.child.kill('SIGKILL');
    await server.exited;
    stop = true;
    await Promise.all(workers);

    // Opening the file replays the WAL, as the next start would.
    const db = new Database(file);
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') integrityFailures++;
    const ids = new Set((db.prepare('select id from resources').all() as { id: number }[]).map((r) => r.id));
    for (const id of acknowledged) if (!ids.has(id)) missing++;
    const count = (db.prepare('select download_count from resources where id = ?').get(targetId) as { download_count: number }).download_count;
    if (count < downloadsAcked) countShort++;
    db.close();
  }
  return [
    {
      test: 'Durability (kill -9)',
      figure: `${cycles} kills, ${writes} writes acked (${acknowledged.size} creates, ${downloadsAcked} downloads)`,
      goal: 'integrity ok, no acked write lost',
      result: `${integrityFailures} integrity failures, ${missing} missing ids, ${countShort} short counts`,
      ok: integrityFailures === 0 && missing === 0 && countShort === 0,
    },
  ];
}

const resource = (title: string) => ({
  title,
  description: 'Written while the server may be killed',
  category: 'typography',
  thumbnail_url: '/thumbnails/1.svg',
  download_url: 'https://example.com/x.zip',
  tags: ['Crash'],
});
