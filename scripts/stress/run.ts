import { audit } from './audit';
import { durability } from './durability';
import { fuzzLong } from './fuzz-long';
import { load } from './load';
import { previews } from './previews';
import { shutdown } from './shutdown';
import { printTable, type Row } from './table';
import { twoInstances } from './two-instances';
import { uploadsUnderKill } from './uploads';

/**
 * `npm run stress`: the long robustness runs, one table at the end.
 * STRESS_ONLY=fuzz,durability,… runs a subset.
 */
const SECTIONS: Record<string, () => Promise<Row[]>> = {
  fuzz: () => fuzzLong(),
  durability: () => durability(),
  previews: () => previews(),
  uploads: () => uploadsUnderKill(),
  'two-instances': () => twoInstances(),
  load: () => load(),
  shutdown: () => shutdown(),
  audit: () => audit(),
};

const only = process.env.STRESS_ONLY?.split(',').map((s) => s.trim());
const rows: Row[] = [];
for (const [name, run] of Object.entries(SECTIONS)) {
  if (only && !only.includes(name)) continue;
  console.log(`▶ ${name}`);
  const t0 = Date.now();
  try {
    rows.push(...(await run()));
  } catch (err) {
    rows.push({ test: name, figure: 'crashed', goal: '-', result: (err as Error).message.split('\n')[0].slice(0, 120), ok: false });
  }
  console.log(`  done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
console.log(`\n${printTable(rows)}\n`);
process.exit(rows.some((r) => r.ok === false) ? 1 : 0);
