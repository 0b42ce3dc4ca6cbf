import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API } from '../../../contract/api-paths';
import { LOGIN_LIMIT } from '../../../contract/constants';
import { ConfigError } from '../../config';
import { createTestApp, TEST_DATABASES, type TestApp } from '../../testing/test-utils';
import { ensureFirstAdmin } from '../auth/bootstrap';
import { verifyPassword } from '../auth/passwords';
import { login, nextIp, sessionCookie } from '../../testing/auth-helpers';
import { runAdminCli } from './admin-cli';

describe.each(TEST_DATABASES)('first admin and the admin CLI on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.database.db.deleteFrom('admins').execute();
  });

  const db = () => t.database.db;
  const admins = () => db().selectFrom('admins').selectAll().orderBy('id').execute();

  describe('ensureFirstAdmin', () => {
    it('creates super admin "admin" with a generated strong password, once', async () => {
      const first = await ensureFirstAdmin(t.database, t.config);
      expect(first).toEqual({ created: true, username: 'admin', generatedPassword: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/) });
      const [row] = await admins();
      expect(row).toMatchObject({ username: 'admin', is_super_user: 1 });
      expect(row.password_hash).not.toContain(first.generatedPassword);
      expect(await verifyPassword(row.password_hash, first.generatedPassword!)).toBe(true);

      expect(await ensureFirstAdmin(t.database, t.config)).toEqual({ created: false });
      expect(await admins()).toHaveLength(1);
    });

    it('uses ADMIN_USERNAME / ADMIN_PASSWORD when set, and prints nothing', async () => {
      const result = await ensureFirstAdmin(t.database, { ...t.config, adminUsername: 'Owner', adminPassword: 'configured-password' });
      expect(result).toEqual({ created: true, username: 'Owner', generatedPassword: undefined });
      const res = await login(t.app, 'owner', 'configured-password');
      expect(res.statusCode).toBe(200);
      expect(res.json().is_super_user).toBe(true);
    });

    it('generates the password when only ADMIN_USERNAME is set', async () => {
      const result = await ensureFirstAdmin(t.database, { ...t.config, adminUsername: 'boss' });
      expect(result.username).toBe('boss');
      expect(result.generatedPassword).toBeTruthy();
    });

    it.each([
      [{ adminUsername: 'no spaces allowed', adminPassword: 'long-enough-1' }, 'Invalid configuration: ADMIN_USERNAME Username may contain only letters, digits, _ . and -'],
      [{ adminUsername: 'ok_name', adminPassword: 'short' }, 'Invalid configuration: ADMIN_PASSWORD Password must be at least 8 characters'],
      [{ adminPassword: '' }, 'Invalid configuration: ADMIN_PASSWORD Password must be at least 8 characters'],
      [{ adminPassword: 'Password1' }, 'Invalid configuration: ADMIN_PASSWORD This password is too common: choose another'],
    ])('stops the start with one clear line for a bad value (%o)', async (overrides, message) => {
      const err = await ensureFirstAdmin(t.database, { ...t.config, ...overrides }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toBe(message);
      expect(await admins()).toHaveLength(0);
    });
  });

  describe('npm run admin', () => {
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdminCli(argv, t.database, { out: (l) => out.push(l), err: (l) => err.push(l) });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };

    it('create with --password makes an admin who can sign in', async () => {
      const r = await run('create', 'cli_editor', '--password', 'cli-password-1');
      expect(r).toMatchObject({ code: 0, out: 'Created admin "cli_editor".', err: '' });
      const [row] = await admins();
      expect(row).toMatchObject({ username: 'cli_editor', is_super_user: 0 });
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect((await login(t.app, 'cli_editor', 'cli-password-1')).statusCode).toBe(200);
    });

    it('create --super without a password prints a generated one once', async () => {
      const r = await run('create', 'cli_root', '--super');
      expect(r.code).toBe(0);
      expect(r.out).toContain('Created super admin "cli_root".');
      const password = /Password: (\S+)/.exec(r.out)?.[1];
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      const [row] = await admins();
      expect(row.is_super_user).toBe(1);
      expect(await verifyPassword(row.password_hash, password!)).toBe(true);
    });

    it('reset-password sets the new password and ends that admin’s sessions only', async () => {
      await run('create', 'forgetful', '--password', 'old-password-1');
      await run('create', 'bystander', '--password', 'bystander-pw-1');
      const session = sessionCookie(await login(t.app, 'forgetful', 'old-password-1'));
      const other = sessionCookie(await login(t.app, 'bystander', 'bystander-pw-1'));
      const r = await run('reset-password', 'FORGETFUL', '--password=new-password-1');
      expect(r.code).toBe(0);
      expect(r.out).toContain('Password reset for admin "forgetful"');
      expect(r.out).not.toContain('new-password-1');
      expect((await t.app.inject({ url: API.me, headers: { cookie: session } })).statusCode).toBe(401);
      expect((await t.app.inject({ url: API.me, headers: { cookie: other } })).statusCode).toBe(200);
      expect((await login(t.app, 'forgetful', 'old-password-1')).statusCode).toBe(401);
      expect((await login(t.app, 'forgetful', 'new-password-1')).statusCode).toBe(200);

      const generated = await run('reset-password', 'forgetful');
      const password = /Password: (\S+)/.exec(generated.out)?.[1];
      expect((await login(t.app, 'forgetful', password!)).statusCode).toBe(200);
    });

    it('reset-password lets an owner locked out by guessing sign in again at once', async () => {
      await run('create', 'besieged', '--password', 'old-password-1');
      for (let i = 0; i < LOGIN_LIMIT; i++) await login(t.app, 'besieged', `guess-${i}`, nextIp());
      expect((await login(t.app, 'besieged', 'old-password-1', nextIp())).statusCode).toBe(429);
      expect((await run('reset-password', 'besieged', '--password', 'new-password-1')).code).toBe(0);
      expect((await login(t.app, 'besieged', 'new-password-1', nextIp())).statusCode).toBe(200);
    });

    it.each([
      [['create', 'dup_name', '--password', 'another-pw-1'], 1, 'An admin with this username already exists'],
      [['create', 'x', '--password', 'long-enough-1'], 1, 'Username must be at least 3 characters'],
      [['create', 'fine_name', '--password', 'short'], 1, 'Password must be at least 8 characters'],
      [['create', 'fine_name', '--password', 'iloveyou1'], 1, 'This password is too common: choose another'],
      [['reset-password', 'nobody', '--password', 'long-enough-1'], 1, 'No admin named "nobody"'],
      [['reset-password', 'dup_name', '--super'], 2, '--super applies only to create'],
      [['delete', 'dup_name'], 2, 'Usage:'],
      [['create'], 2, 'Usage:'],
      [['create', 'a', 'b'], 2, 'Usage:'],
      [['create', 'fine_name', '--colour'], 2, 'Usage:'],
    ])('%j → exit %i with a clear message, nothing changed', async (argv, code, message) => {
      await run('create', 'Dup_Name', '--password', 'first-pw-123');
      const before = await admins();
      const r = await run(...argv);
      expect(r.code).toBe(code);
      expect(r.err).toContain(message);
      expect(await admins()).toEqual(before);
    });
  });
});
