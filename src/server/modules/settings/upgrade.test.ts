import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate';
import { openDatabaseBefore, TEST_DATABASES } from '../../testing/test-utils';
import { SITE_DEFAULTS } from './defaults';
import { readSettings } from './queries';

/** Migration 025: an upgraded install keeps what it showed; a new one starts on the live figures (decision 380). */
const SETTINGS_MIGRATION = '025_owner_settings';

describe.each(TEST_DATABASES)('the owner-settings migration on %s', (kind) => {
  it('leaves a new install (no admin, no resource) on the defaults: three live figures', async () => {
    const { database, drop } = await openDatabaseBefore(kind, SETTINGS_MIGRATION);
    try {
      await migrateToLatest(database.db, database.dialect);
      const saved = await readSettings(database.db, 'Fresh Vault');
      expect(saved.sections.stats.map((s) => s.mode)).toEqual(['live', 'live', 'fixed', 'live']);
      expect(saved.sections.site.name).toBe('Fresh Vault');
      expect(saved.version).toBe(0);
    } finally {
      await drop();
    }
  });

  it('keeps an upgraded install’s figures (fixed), community cards, portfolio, source link and year', async () => {
    const { database, drop } = await openDatabaseBefore(kind, SETTINGS_MIGRATION);
    try {
      const now = '2025-01-01T00:00:00.000Z';
      await database.db
        .insertInto('admins')
        .values({ username: 'old', username_key: 'old', password_hash: 'x', is_super_user: 1, created_at: now })
        .execute();
      const oldStats = [
        { key: 'resources', label: 'Total Resources', value: 1134, suffix: '+', daily: 4, weekly: 20, monthly: 80 },
        { key: 'downloads', label: 'Total Downloads', value: 600000, suffix: '+', daily: 900, weekly: 6000, monthly: 25000 },
        { key: 'members', label: 'Community Members', value: 5000, suffix: '+', daily: 3, weekly: 19, monthly: 76 },
        { key: 'growth', label: 'Monthly Growth', value: 12, suffix: '%', daily: 0.4, weekly: 3, monthly: 12 },
      ];
      const oldCommunity = [
        { name: 'Our Discord', link: 'https://discord.gg/ours', color: '#5865F2', description: 'Chat.' },
        { name: 'Newsletter', link: 'https://news.example.com/', color: '#123456', description: 'Monthly.' },
      ];
      await database.db
        .insertInto('settings')
        .values([
          { key: 'site.stats', value: JSON.stringify(oldStats) },
          { key: 'site.community', value: JSON.stringify(oldCommunity) },
          { key: 'site.portfolio_url', value: JSON.stringify('https://me.example.com/') },
          { key: 'site.source_code_url', value: JSON.stringify('https://git.example.com/vault') },
          { key: 'site.footer_year', value: JSON.stringify(2019) },
        ])
        .execute();
      await migrateToLatest(database.db, database.dialect);

      const saved = await readSettings(database.db, 'Env Vault');
      expect(saved.sections.stats).toEqual(oldStats.map((s) => ({ ...s, mode: 'fixed' })));
      expect(saved.sections.community).toEqual([
        { ...oldCommunity[0], icon: 'discord', hidden: false },
        { ...oldCommunity[1], icon: 'generic', hidden: false },
      ]);
      expect(saved.sections.home).toEqual({ ...SITE_DEFAULTS.home, portfolio_url: 'https://me.example.com/' });
      expect(saved.sections.footer).toEqual({ ...SITE_DEFAULTS.footer, source_code_url: 'https://git.example.com/vault', copyright_start_year: 2019 });
      expect(saved.sections.site.name).toBe('Env Vault');
      const left = await database.db.selectFrom('settings').select('key').where('key', 'like', 'site.%').execute();
      expect(left).toEqual([]);
    } finally {
      await drop();
    }
  });

  it('shows the spec’s typed figures on an install that had content but never set them', async () => {
    const { database, drop } = await openDatabaseBefore(kind, SETTINGS_MIGRATION);
    try {
      const now = '2025-01-01T00:00:00.000Z';
      await database.db
        .insertInto('resources')
        .values({ title: 'Old', description: 'x', category: 'video_editing', thumbnail_url: '', download_url: 'https://f.example.com/a.zip', is_premium: 0, tags: '[]', created_at: now, updated_at: now, admin_id: null })
        .execute();
      await migrateToLatest(database.db, database.dialect);
      const saved = await readSettings(database.db, 'Env Vault');
      expect(saved.sections.stats).toEqual(SITE_DEFAULTS.stats.map((s) => ({ ...s, mode: 'fixed' })));
    } finally {
      await drop();
    }
  });
});
