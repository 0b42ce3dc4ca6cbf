import path from 'node:path';
import Database from 'better-sqlite3';
import type { Row } from './table';
import { sleep, startServer, tempDir } from './server-process';

/**
 * kill -9 while preview jobs are being processed (a fresh install's demo previews: ffmpeg videos,
 * sounds, images), STRESS_PREVIEW_KILLS times at moments a job is running, then one last start:
 * every job must finish ready (none failed, none stuck), each run again after its lease ran out,
 * and every category must show at least 12 previews.
 */
export async function previews(kills = Number(process.env.STRESS_PREVIEW_KILLS ?? 2)): Promise<Row[]> {
  const dataDir = tempDir('previews');
  const file = path.join(dataDir, 'resource-vault.db');
  const read = <T>(query: string): T[] => {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare(query).all() as T[];
    } finally {
      db.close();
    }
  };
  const processing = () => read<{ id: number; kind: string }>(`select id, kind from media_jobs where state = 'processing' and kind like 'preview.%'`);

  const killed: string[] = [];
  for (let k = 0; k < kills; k++) {
    const server = await startServer({ DATA_DIR: dataDir });
    const end = Date.now() + 300_000;
    // A different job each time (one job killed as often as its attempts would fail, by design).
    while (Date.now() < end && processing().filter((j) => !killed.includes(`${j.id}`)).length === 0) await sleep(100);
    await sleep(150 + Math.random() * 500);
    server.child.kill('SIGKILL');
    await server.exited;
    // Cut: what the dead server left 'processing' (a job seen running before the pause may have finished in it).
    killed.push(...processing().filter((j) => !killed.includes(`${j.id}`)).map((j) => `${j.id}`));
  }

  const t0 = Date.now();
  const server = await startServer({ DATA_DIR: dataDir });
  const pending = () => read<{ n: number }>(`select count(*) as n from media_jobs where state in ('queued', 'processing')`)[0]!.n;
  const end = Date.now() + 600_000;
  while (Date.now() < end && pending() > 0) await sleep(500);
  const seconds = Math.round((Date.now() - t0) / 1000);
  server.child.kill('SIGTERM');
  await server.exited;

  const states = read<{ state: string; n: number }>(`select state, count(*) as n from media_jobs group by state`);
  const count = (s: string) => states.find((r) => r.state === s)?.n ?? 0;
  const rerun = killed.length === 0 ? [] : read<{ attempts: number }>(`select attempts from media_jobs where id in (${killed.join(',')})`);
  const shown = read<{ category: string; n: number }>(`select category, count(*) as n from resources where preview is not null group by category`);
  const fewest = shown.length === 8 ? Math.min(...shown.map((r) => r.n)) : 0;
  const ok = count('failed') === 0 && pending() === 0 && fewest >= 12 && rerun.every((r) => r.attempts === 2);
  return [
    {
      test: 'Previews (kill -9 during processing)',
      figure: `${kills} kills mid-job (${killed.length} jobs cut), then all done ${seconds} s after the last start`,
      goal: 'every job ready, cut jobs run once more, ≥ 12 previews per category',
      result: `${count('ready')} ready, ${count('failed')} failed, ${pending()} pending; cut jobs' attempts ${rerun.map((r) => r.attempts).join(',') || '-'}; fewest previews in a category ${fewest}`,
      ok,
    },
  ];
}
