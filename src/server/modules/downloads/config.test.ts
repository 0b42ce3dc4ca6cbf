import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

describe('DOWNLOAD_COUNTING and DOWNLOAD_RATE_LIMIT', () => {
  const load = (env: Record<string, string>) => loadConfig({ SESSION_SECRET: 'config-test-session-secret-0123456789', ...env }).downloads;

  it('counts unique visitors with a limit of 30 a minute by default', () => {
    expect(load({})).toEqual({ counting: 'unique', rateLimit: 30 });
  });

  it('reads every, a limit, and 0 for no limit', () => {
    expect(load({ DOWNLOAD_COUNTING: 'every', DOWNLOAD_RATE_LIMIT: '120' })).toEqual({ counting: 'every', rateLimit: 120 });
    expect(load({ DOWNLOAD_RATE_LIMIT: '0' }).rateLimit).toBe(0);
  });

  it.each([
    [{ DOWNLOAD_COUNTING: 'all' }, /^Invalid configuration: DOWNLOAD_COUNTING must be unique or every$/],
    [{ DOWNLOAD_RATE_LIMIT: '-1' }, /^Invalid configuration: DOWNLOAD_RATE_LIMIT must be a whole number/],
    [{ DOWNLOAD_RATE_LIMIT: '2.5' }, /^Invalid configuration: DOWNLOAD_RATE_LIMIT must be a whole number/],
    [{ DOWNLOAD_RATE_LIMIT: '' }, /^Invalid configuration: DOWNLOAD_RATE_LIMIT must be a whole number/],
  ])('stops the start with one line for %o', (env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });
});
