/**
 * Values (list totals) remembered per database and key while the data version (migration 002) is
 * unchanged. Per database because one process may hold several (tests: SQLite and PostgreSQL apps
 * side by side, whose version numbers say nothing about each other). Bounded: the oldest key goes first.
 */
export function versionedMemo<T>(maxKeys: number) {
  const byDatabase = new WeakMap<object, Map<string, { version: number; value: T }>>();
  return {
    get(database: object, key: string, version: number | undefined): T | undefined {
      if (version === undefined) return undefined;
      const entry = byDatabase.get(database)?.get(key);
      return entry && entry.version === version ? entry.value : undefined;
    },
    set(database: object, key: string, version: number | undefined, value: T): void {
      if (version === undefined) return;
      let entries = byDatabase.get(database);
      if (!entries) byDatabase.set(database, (entries = new Map()));
      if (entries.size >= maxKeys && !entries.has(key)) entries.delete(entries.keys().next().value!);
      entries.set(key, { version, value });
    },
  };
}
