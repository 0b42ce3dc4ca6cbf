/**
 * Errors that say the database cannot serve the request now, whatever the request was: a full
 * disk, a read-only file or server, an I/O error, a server shutting down or unreachable. The
 * server answers them 503 (errors.ts), not 500. SQLite (better-sqlite3) and PostgreSQL (pg) codes.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|NOMEM)/;
const PG_UNAVAILABLE = new Set([
  '25006', // read_only_sql_transaction (default_transaction_read_only, a standby)
  '53000', // insufficient_resources
  '53100', // disk_full
  '53200', // out_of_memory
  '58030', // io_error
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  'ECONNREFUSED',
]);

/** The database's own message when `err` is one of those errors, else undefined. */
export function unavailableReason(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !(SQLITE_UNAVAILABLE.test(code) || PG_UNAVAILABLE.has(code))) return undefined;
  return err instanceof Error && err.message ? err.message : code;
}
