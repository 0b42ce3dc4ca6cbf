import { expect, it } from 'vitest';
import { shutdown } from '../../../scripts/stress/shutdown';

/**
 * The real server process (main.ts) gets SIGTERM while sign-ins are still hashing: every request
 * is answered 2xx, the exit code is 0, and SQLite is closed cleanly. Before the fix in main.ts a
 * keep-alive connection freed after SIGTERM held the close until the 10 s force exit (code 1).
 */
it('SIGTERM lets in-flight requests finish, exits 0 and closes SQLite cleanly', async () => {
  const [row] = await shutdown();
  expect(row.result).toMatch(/exit 0, WAL gone, integrity ok/);
  expect(row.ok, `${row.figure}: ${row.result}`).toBe(true);
}, 60_000);
