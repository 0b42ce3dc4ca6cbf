import { sql, type SqlBool } from 'kysely';
import { type ResourceStatus, STORED_STATUSES, TRASHED_STATUS } from '../../../contract/resources';

/**
 * What the public may see of the catalogue: the one rule (docs/decisions/390-resource-status.md).
 * A resource exists for visitors only while its status is `published`: lists, search, counts,
 * related, the premium carousel, its page, the sitemap, social cards, downloads, file links and its
 * media all ask this module, in the form they need; a draft, scheduled or trashed resource is "not
 * found". The trash is a status (docs/decisions/398-the-trash-is-a-status.md), so it is one of the
 * hidden ones below and every public read follows.
 */
export const PUBLIC_STATUS = 'published' satisfies ResourceStatus;

/**
 * The statuses the public never sees. The rule is written as "not one of these" rather than
 * "= published": nearly every row is published, but without statistics both planners take an
 * equality as narrowing (PostgreSQL: 0.5 % of the rows) and let the (status, category) index drive
 * a search, then sort every match for each page: the search walks of search.test.ts went from 1 s to
 * over 30 s on PostgreSQL, and SQLite sorted FTS matches in a temporary B-tree. A negated test is
 * never used to choose an index and is estimated as barely narrowing, so the sort and search
 * indexes keep driving the plans, with the status checked on each row read.
 */
const HIDDEN_STATUSES = STORED_STATUSES.filter((s) => s !== PUBLIC_STATUS);
const HIDDEN_LIST = HIDDEN_STATUSES.map((s) => `'${s}'`).join(', ');

/** The rule as a condition on `alias` (default `resources`): `.where(isPublicSql())` in Kysely, or inside a sql`` template. */
export function isPublicSql(alias = 'resources') {
  return sql<SqlBool>`${sql.ref(`${alias}.status`)} not in (${sql.raw(HIDDEN_LIST)})`;
}

/**
 * The hidden resources (`alias` default `resources`): few, found in the (status, category) index. A
 * public search's count reads the FTS5 index alone and takes these out by id (search/sqlite.ts).
 */
export function isHiddenSql(alias = 'resources') {
  return sql<SqlBool>`${sql.ref(`${alias}.status`)} in (${sql.raw(HIDDEN_LIST)})`;
}

/** The rule as text, for a prepared statement on `resources` without an alias (downloads' SQLite writer). */
export const IS_PUBLIC_SQL_TEXT = `status not in (${HIDDEN_LIST})`;

/** The rule for a row already read. */
export function isPublicRow(row: { status: string }): boolean {
  return row.status === PUBLIC_STATUS;
}

/**
 * Not in the trash: the admin list, edits and preview links see every other resource. Written as a
 * negation for the reason above (the trash is a few rows; an equality would be taken as narrowing).
 */
export function notTrashedSql(alias = 'resources') {
  return sql<SqlBool>`${sql.ref(`${alias}.status`)} <> ${sql.lit(TRASHED_STATUS)}`;
}
