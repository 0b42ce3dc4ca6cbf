import type { AdminProfile } from '../../contract/auth';
import type { App } from '../context';
import type { Database } from '../db/connection';
import { createAccount } from '../modules/admins/accounts';
import { SESSION_COOKIE } from '../modules/auth/sessions';

/** Test-only helpers shared by the admin API tests. */

export interface SignedIn {
  admin: AdminProfile;
  password: string;
  /** `rv_session=...`, ready for a Cookie header. */
  cookie: string;
}

let ipCounter = 0;
/** A fresh client address per sign-in, so tests never trip the per-IP sign-in limit by accident. */
export const nextIp = () => `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;

export async function login(app: App, username: string, password: string, remoteAddress = nextIp()) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });
}

export function sessionCookie(res: { cookies: { name: string; value: string }[] }): string {
  const c = res.cookies.find((x) => x.name === SESSION_COOKIE);
  if (!c) throw new Error('no session cookie in the response');
  return `${SESSION_COOKIE}=${c.value}`;
}

/** Creates an admin (real argon2id hash) and signs in through the real endpoint. */
export async function createAndSignIn(
  app: App,
  database: Database,
  username: string,
  opts: { superUser?: boolean; password?: string } = {},
): Promise<SignedIn> {
  const password = opts.password ?? `pw-${username}-correct-horse`;
  const { admin } = await createAccount(database.db, { username, password, isSuperUser: opts.superUser ?? false });
  const res = await login(app, username, password);
  if (res.statusCode !== 200) throw new Error(`sign-in for ${username} failed: ${res.statusCode} ${res.body}`);
  return { admin, password, cookie: sessionCookie(res) };
}
