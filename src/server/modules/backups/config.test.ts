import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

describe('BACKUP_SCHEDULE and BACKUP_KEEP', () => {
  const env = { DATA_DIR: '.tmp', SESSION_SECRET: 'a-test-secret-with-enough-entropy-1234567' };

  it('are off and 7 when unset (a default goes through the same parse as a value: "off" is no cron pattern)', () => {
    expect(loadConfig(env).backups).toEqual({ schedule: null, keep: 7 });
  });

  it('take a cron expression or off, and refuse one that is neither, naming the variable', () => {
    expect(loadConfig({ ...env, BACKUP_SCHEDULE: '15 2 * * *' }).backups.schedule).toBe('15 2 * * *');
    expect(loadConfig({ ...env, BACKUP_SCHEDULE: 'off' }).backups.schedule).toBeNull();
    expect(() => loadConfig({ ...env, BACKUP_SCHEDULE: 'nightly' })).toThrow(/^Invalid configuration: BACKUP_SCHEDULE must be a cron expression/);
  });
});
