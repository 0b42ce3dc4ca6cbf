import path from 'node:path';
import { SESSION_MAX_DAYS_DEFAULT } from '../../contract/constants';
import { UPLOAD_MAX_BYTES_DEFAULT } from '../../contract/files';
import { AUDIT_SWEEP_INTERVAL_MS, type Config, DEFAULT_TIMEOUTS, PUBLISH_CHECK_INTERVAL_MS_DEFAULT, TRASH_PURGE_INTERVAL_MS } from '../config';
import { DEFAULT_AUDIT_DAYS } from '../../contract/audit';
import { DEFAULT_TRASH_DAYS } from '../../contract/trash';
import { TEST_MEDIA_NICE } from './media-tools';

/** A config for tests: temp data dir, quiet logs, given database. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: path.resolve('.tmp'),
    database: { kind: 'sqlite', file: ':memory:' },
    siteName: 'Resource Vault',
    seedDemo: false,
    sessionSecret: 'test-secret-test-secret-test-secret-00',
    sessionMaxMs: SESSION_MAX_DAYS_DEFAULT * 24 * 60 * 60 * 1000,
    trustProxy: false,
    logLevel: 'silent',
    logFormat: 'json',
    clientDir: path.resolve('dist/client'),
    timeouts: DEFAULT_TIMEOUTS,
    // Tests of other concerns record many downloads from one injected client; the counting rules
    // (unique per visitor, the rate limit) are tested with their own settings in modules/downloads.
    downloads: { counting: 'every', rateLimit: 0 },
    mediaJobsConcurrency: 1,
    publishCheckMs: PUBLISH_CHECK_INTERVAL_MS_DEFAULT,
    trashDays: DEFAULT_TRASH_DAYS,
    trashPurgeMs: TRASH_PURGE_INTERVAL_MS,
    auditDays: DEFAULT_AUDIT_DAYS,
    auditSweepMs: AUDIT_SWEEP_INTERVAL_MS,
    // A test's ffmpeg competes with the other test files' workers, which would starve it at the
    // product's niceness; the niceness itself is tested in media/ffmpeg.test.ts.
    mediaNice: TEST_MEDIA_NICE,
    ffmpegPath: '/usr/bin/ffmpeg',
    ffprobePath: '/usr/bin/ffprobe',
    storage: { kind: 'local' },
    uploadMaxBytes: UPLOAD_MAX_BYTES_DEFAULT,
    // No scheduled link checks in tests unless a test asks (modules/links tests their schedule).
    linkChecks: { schedule: null, allowPrivate: false, timeoutMs: 10_000, hostIntervalMs: 1000 },
    backups: { schedule: null, keep: 7 },
    ...overrides,
  };
}
