import { parseArgs } from 'node:util';
import type { Database } from '../../db/connection';
import { AccountInputError, createAccount, resetAccountPassword, UnknownAdminError } from './accounts';
import { DuplicateUsernameError } from './queries';
import { resetTwoFactor } from '../auth/reset-two-factor';

export const ADMIN_CLI_USAGE = `Usage:
  npm run admin -- create <username> [--super] [--password <password>]
  npm run admin -- reset-password <username> [--password <password>]
  npm run admin -- reset-2fa <username>

Without --password a strong password is generated and printed once.
Resetting a password signs that admin out everywhere, and they must choose a new one at the next sign-in.
reset-2fa turns off that admin's two-step sign-in (TOTP key and recovery codes) when a factor is lost.`;

export interface CliOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Runs one admin command against an open, migrated database. Returns the process exit code. */
export async function runAdminCli(argv: string[], database: Database, io: CliOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        super: { type: 'boolean', default: false },
        password: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    io.err((err as Error).message);
    io.err(ADMIN_CLI_USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, username, ...extra] = positionals;
  if (values.help) {
    io.out(ADMIN_CLI_USAGE);
    return 0;
  }
  if (!command || !username || extra.length > 0 || !['create', 'reset-password', 'reset-2fa'].includes(command)) {
    io.err(ADMIN_CLI_USAGE);
    return 2;
  }
  if (command !== 'create' && values.super) {
    io.err('--super applies only to create');
    return 2;
  }
  if (command === 'reset-2fa') {
    if (values.password !== undefined) {
      io.err('--password does not apply to reset-2fa');
      return 2;
    }
    const reset = await resetTwoFactor(database.db, username);
    if (!reset) {
      io.err(new UnknownAdminError(username).message);
      return 1;
    }
    io.out(
      reset.totp > 0
        ? `Two-step sign-in turned off for "${reset.username}": TOTP key removed, ${reset.recoveryCodes} recovery codes deleted. They sign in with their password alone until they enrol again.`
        : `"${reset.username}" had no TOTP key; ${reset.recoveryCodes} recovery codes deleted. Nothing else changed.`,
    );
    return 0;
  }

  try {
    const result =
      command === 'create'
        ? await createAccount(database.db, { username, password: values.password, isSuperUser: values.super })
        : await resetAccountPassword(database.db, { username, password: values.password });
    const role = result.admin.is_super_user ? 'super admin' : 'admin';
    io.out(
      command === 'create'
        ? `Created ${role} "${result.admin.username}".`
        : `Password reset for ${role} "${result.admin.username}"; their sessions were ended, and they must change it at the next sign-in.`,
    );
    if (result.generatedPassword) io.out(`Password: ${result.generatedPassword}  (shown only once)`);
    return 0;
  } catch (err) {
    if (err instanceof AccountInputError || err instanceof DuplicateUsernameError || err instanceof UnknownAdminError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
}
