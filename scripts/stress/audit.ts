import { spawnSync } from 'node:child_process';
import type { Row } from './table';

/** `npm audit --omit=dev`: no high or critical advisory. BLOCKED when the registry cannot answer. */
export async function audit(): Promise<Row[]> {
  const r = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', timeout: 60_000 });
  let report: { metadata?: { vulnerabilities?: Record<string, number> }; message?: string; error?: { summary?: string } } = {};
  try {
    report = JSON.parse(r.stdout);
  } catch {
    /* no JSON: could not run */
  }
  const v = report.metadata?.vulnerabilities;
  const row = { test: 'npm audit --omit=dev', figure: 'production dependencies', goal: '0 high, 0 critical' };
  if (!v) {
    const why = report.error?.summary || report.message || r.stderr.split('\n').find((l) => /audit|error/i.test(l)) || `exit ${r.status}`;
    return [{ ...row, result: `could not run: ${why.trim().slice(0, 90)}`, ok: 'blocked' }];
  }
  const high = v.high ?? 0;
  const critical = v.critical ?? 0;
  return [{ ...row, result: `${high} high, ${critical} critical (${v.total ?? 0} in all)`, ok: high === 0 && critical === 0 }];
}
