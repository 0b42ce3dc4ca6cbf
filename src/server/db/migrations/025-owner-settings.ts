import { sql } from 'kysely';
import type { Dialect } from '../connection';
import { type AnyDb, idColumn } from './helpers';

// The owner's settings (issue 29, modules/settings, docs/decisions/380-the-owners-settings.md):
// - settings_versions: every save of the settings, with the sections as they were after it, so an
//   owner can look at the last ones and restore one (the module keeps the newest only).
// - site_media_owners: the derived files under media/ the settings show (logo variants, favicon
//   sizes, the promo video and its poster): like media_owners for resources, a key is served at
//   /media/ while a row names it.
// - An upgraded install keeps what it showed: the old per-field keys (site.*) move into the new
//   sections, and on a database that already had content the four "Our Growing Community"
//   figures stay the typed ones (a new install shows them live). Stored sections hold only what
//   was set; the rest comes from the defaults when read.
export async function up(db: AnyDb, dialect: Dialect): Promise<void> {
  await idColumn(db, dialect, 'settings_versions')
    .addColumn('saved_at', 'text', (c) => c.notNull())
    .addColumn('admin_id', 'integer', (c) => c.references('admins.id').onDelete('set null'))
    .addColumn('changed', 'text', (c) => c.notNull())
    .addColumn('restored_from', 'integer')
    .addColumn('sections', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('site_media_owners')
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('logo', 'favicon', 'promo_video')`))
    .addColumn('key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('site_media_owners_pk', ['role', 'key'])
    .execute();
  await sql`create index site_media_owners_key on site_media_owners (key)`.execute(db);

  const old = new Map<string, unknown>();
  const rows: { key: string; value: string }[] = await db.selectFrom('settings').select(['key', 'value']).where('key', 'like', 'site.%').execute();
  for (const r of rows) {
    try {
      old.set(r.key, JSON.parse(r.value));
    } catch {
      // A value nobody could read was not shown either: the default stays.
    }
  }
  const hadContent =
    (await db.selectFrom('admins').select('id').limit(1).executeTakeFirst()) !== undefined ||
    (await db.selectFrom('resources').select('id').limit(1).executeTakeFirst()) !== undefined;

  const sections: Record<string, unknown> = {};
  const oldStats = old.get('site.stats');
  if (hadContent || Array.isArray(oldStats)) {
    const shown = Array.isArray(oldStats) ? (oldStats as Record<string, unknown>[]) : SPEC_FIGURES;
    sections['settings.stats'] = SPEC_FIGURES.map((spec) => ({ ...spec, ...(shown.find((s) => s?.key === spec.key) ?? {}), mode: 'fixed' }));
  }
  const oldCommunity = old.get('site.community');
  if (Array.isArray(oldCommunity)) {
    sections['settings.community'] = (oldCommunity as Record<string, unknown>[]).map((c) => ({
      name: c.name,
      link: c.link,
      color: c.color,
      description: c.description,
      icon: iconOf(String(c.name ?? '')),
      hidden: false,
    }));
  }
  if (typeof old.get('site.portfolio_url') === 'string') sections['settings.home'] = { portfolio_url: old.get('site.portfolio_url') };
  const footer: Record<string, unknown> = {};
  if (typeof old.get('site.source_code_url') === 'string') footer.source_code_url = old.get('site.source_code_url');
  if (typeof old.get('site.footer_year') === 'number') footer.copyright_start_year = old.get('site.footer_year');
  if (Object.keys(footer).length > 0) sections['settings.footer'] = footer;

  for (const [key, value] of Object.entries(sections)) {
    await db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
      .execute();
  }
  await db.deleteFrom('settings').where('key', 'in', ['site.stats', 'site.community', 'site.portfolio_url', 'site.source_code_url', 'site.footer_year']).execute();
}

/** The figures every install showed before this migration unless site.stats said otherwise (the spec's). */
const SPEC_FIGURES: Record<string, unknown>[] = [
  { key: 'resources', label: 'Total Resources', value: 156, suffix: '+', daily: 2, weekly: 15, monthly: 45 },
  { key: 'downloads', label: 'Total Downloads', value: 2893, suffix: '+', daily: 56, weekly: 378, monthly: 1290 },
  { key: 'members', label: 'Community Members', value: 467, suffix: '+', daily: 3, weekly: 19, monthly: 76 },
  { key: 'growth', label: 'Monthly Growth', value: 15, suffix: '%', daily: 0.5, weekly: 3.5, monthly: 15 },
];

/** The icon an old card (which had none) gets: the spec's eight by name, else the generic one. */
function iconOf(name: string): string {
  const n = name.toLowerCase();
  for (const icon of ['whatsapp', 'telegram', 'instagram', 'github', 'linkedin', 'discord', 'youtube', 'twitter']) if (n.includes(icon)) return icon;
  return 'generic';
}
