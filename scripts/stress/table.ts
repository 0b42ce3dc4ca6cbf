export interface Row {
  test: string;
  figure: string;
  goal: string;
  result: string;
  /** 'blocked': the measure could not be taken on this machine (printed as BLOCKED, not a failure of the code). */
  ok: boolean | 'blocked';
}

/** One Markdown table (readable in a terminal and pasteable into docs/reliability.md). */
export function printTable(rows: Row[]): string {
  const head = ['Test', 'Figure', 'Goal', 'Result', ''];
  const lines = rows.map((r) => [r.test, r.figure, r.goal, r.result, r.ok === 'blocked' ? 'BLOCKED' : r.ok ? 'PASS' : 'FAIL']);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [fmt(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}
