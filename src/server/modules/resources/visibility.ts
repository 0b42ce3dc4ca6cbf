import { sql, type SqlBool } from 'kysely';
import type { ResourceStatus } from '../../../contract/resources';

/**
 * What the public may see of the catalogue: the one rule (docs/decisions/390-resource-status.md).
 * A resource exists for visitors only while its status is `published`: lists, search, counts,
 * related, the premium carousel, its page, the sitemap, social cards, downloads, file links and its
 * media all ask this module, in the form they need; a draft or scheduled resource is "not found".
 * A later trash (trashed_at) is added here, and every public read follows.
 */
export const PUBLIC_STATUS = 'published' satisfies ResourceStatus;

/** The rule as a condition on `alias` (default `resources`): `.where(isPublicSql())` in Kysely, or inside a sql`` template. */
export function isPublicSql(alias = 'resources') {
  return sql<SqlBool>`${sql.ref(`${alias}.status`)} = ${sql.lit(PUBLIC_STATUS)}`;
}

/** The rule as text, for a prepared statement on `resources` without an alias (downloads' SQLite writer). */
export const IS_PUBLIC_SQL_TEXT = `status = '${PUBLIC_STATUS}'`;

/** The rule for a row already read. */
export function isPublicRow(row: { status: string }): boolean {
  return row.status === PUBLIC_STATUS;
}
