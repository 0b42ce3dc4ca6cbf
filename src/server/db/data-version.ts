import pg from 'pg';

/** PostgreSQL NOTIFY channel for data version bumps (created by migration 006, which names it itself). */
export const DATA_VERSION_CHANNEL = 'rv_data_version';

/** Wait before listening again after the listening connection was lost. */
const RELISTEN_DELAY_MS = 1000;

/**
 * The data version in memory, from migration 006's notifications, so a cached answer costs no
 * round trip. One dedicated connection per instance LISTENs (started by the first read, after
 * migrations ran); it keeps only its own schema's bumps (tests share a database, a schema each).
 * Until it listens — at start, or for RELISTEN_DELAY_MS after losing its connection — every read
 * goes to the database, as before. A notification arrives a moment after its commit: this
 * instance's own writes (`wrote`, see ownWrites) make the next read go to the database, and callers
 * that must see any write at once ask for a fresh read. A listener that died silently costs at most
 * the public cache's max age (PUBLIC_CACHE_MAX_AGE_MS), since entries expire anyway.
 */
export function followDataVersion(url: string, read: () => Promise<number>) {
  let known = 0;
  let listening = false;
  let stopped = false;
  let client: pg.Client | undefined; // connecting or listening
  let retry: NodeJS.Timeout | undefined;
  // Own writes completed, and how many of them the last read from the database came after.
  let writes = 0;
  let writesRead = 0;

  const note = (v: number) => {
    if (v > known) known = v; // versions only grow; a late notification never moves it back
    return v;
  };

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    listening = false;
    c.end().catch(() => {});
    if (!stopped) retry ??= setTimeout(() => ((retry = undefined), listen()), RELISTEN_DELAY_MS).unref();
  };

  const listen = () => {
    if (stopped || client) return;
    // Named, so an operator (or a test) can tell it in pg_stat_activity.
    const c = new pg.Client({ connectionString: url, application_name: 'rv-data-version' });
    client = c;
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    void (async () => {
      await c.connect();
      const schema = (await c.query<{ schema: string }>('select current_schema() as schema')).rows[0]?.schema;
      c.on('notification', (m) => {
        const [from, v] = (m.payload ?? '').split(' ');
        if (m.channel === DATA_VERSION_CHANNEL && from === schema && /^\d+$/.test(v ?? '')) note(Number(v));
      });
      await c.query(`listen ${DATA_VERSION_CHANNEL}`);
      note(await read()); // whatever committed before LISTEN took effect
      if (client === c) listening = true;
    })().catch(() => lost(c));
  };

  return {
    async get(fresh: boolean): Promise<number> {
      if (listening && !fresh && writesRead === writes) return known;
      if (!client && !retry) listen();
      const before = writes;
      const v = await read();
      writesRead = Math.max(writesRead, before);
      return note(v);
    },
    wrote: () => {
      writes += 1;
    },
    listening: () => listening,
    async stop() {
      stopped = true;
      listening = false;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
