/** Timestamps are ISO-8601 UTC text on both databases (sortable as text). */
export const nowIso = () => new Date().toISOString();

/** YYYY-MM-DD (UTC) of a date. */
export const dayOf = (d: Date = new Date()) => d.toISOString().slice(0, 10);
