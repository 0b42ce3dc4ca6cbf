import { sql } from 'kysely';

/**
 * Statements every resource page or filtered list runs, whose shape is fixed and whose best plan does
 * not depend on the values (a read by primary key, the related resources' walks of one tag each, the
 * fact filters' scans of a scope's newest rows, decision 464): marked with
 * `.modifyFront(PREPARED)`, PostgreSQL gets them as named prepared statements, parsed once per
 * connection and, from their sixth run, planned once (a generic plan) rather than on every run:
 * at 1,000,000 resources planning the related resources' statement took 0.3–0.45 ms (1.9 ms on a new
 * connection) of its ~1.4 ms (decision 456). SQLite needs no mark: it keeps every statement prepared
 * (connection.ts).
 * Never for a statement whose plan should follow its values (the search's, search/).
 * A marked statement's LIMIT is a literal (`sql.lit`): sent as a parameter, the plan made once guessed it
 * at a tenth of the rows (12,500 of a category at 1,000,000), which never won over a plan made for each run.
 */
const MARK = '/* prepared */';
export const PREPARED = sql.raw(MARK);

/** One name per statement text, the same on every connection; a bound the marked statements never reach. */
const names = new Map<string, string>();
const MAX_NAMES = 256;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) names.set(text, (name = `rv_prepared_${names.size + 1}`));
  return name;
}

interface Queryable {
  query(...args: never[]): unknown;
}

/**
 * Makes `client` (a new pool connection) send the statements marked PREPARED by name. Kysely calls
 * `query(text, values)`; every other call goes through as it was.
 */
export function namePreparedStatements(client: Queryable): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && text.includes(MARK)) {
      const name = nameOf(text);
      if (name !== undefined) return query({ name, text, values });
    }
    return query(...args);
  };
}
