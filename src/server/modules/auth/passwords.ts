import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, type Options, parseOptions, verify } from '@node-rs/argon2';
import { passwordSchema } from '../../../contract/auth';

/**
 * argon2id with the parameters pinned (OWASP's recommended m=19 MiB, t=2, p=1) rather than
 * inherited from the library, so an upgrade can neither weaken new hashes nor make the
 * dummy hash below cost a different amount of time than a real one.
 */
const ARGON2ID = 2 as Algorithm;
export const HASH_OPTIONS: Readonly<Options> = Object.freeze({ algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 });

/** The parameters new hashes are made with: HASH_OPTIONS, unless a test asked for cheaper ones. */
let hashOptions: Readonly<Options> = HASH_OPTIONS;

/** The PHC string (`$argon2id$v=19$m=...`) to store. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, hashOptions);
}

/** False for a wrong password and for a stored value that is not a valid hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** True when a stored hash was made with other parameters than today's (rehash after a good sign-in). */
export function needsRehash(stored: string): boolean {
  try {
    const p = parseOptions(stored);
    return (
      p.algorithm !== hashOptions.algorithm ||
      p.memoryCost !== hashOptions.memoryCost ||
      p.timeCost !== hashOptions.timeCost ||
      p.parallelism !== hashOptions.parallelism
    );
  } catch {
    return true;
  }
}

let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword(randomBytes(24).toString('base64url')));

/**
 * Test seam (src/server/testing/test-setup.ts): the unit and API tests hash with a cheaper cost, so
 * that hundreds of sign-ins do not each pay OWASP's cost; `undefined` puts HASH_OPTIONS back (the
 * test of the stored hash checks those). Product code never calls it.
 */
export function setHashOptionsForTests(options: Readonly<Options> | undefined): void {
  const next = options ?? HASH_OPTIONS;
  if (next === hashOptions) return;
  hashOptions = next;
  dummy = undefined;
}

/** Makes the dummy hash ahead of the first failed sign-in, so that one is not slower either. */
export function primeDummyHash(): void {
  dummyHash().catch(() => {
    dummy = undefined;
  });
}

/**
 * Verifies against a throwaway hash with the same parameters, so a sign-in for a username
 * that does not exist costs as much time as one with a wrong password.
 */
export async function burnVerifyTime(password: string): Promise<void> {
  await verifyPassword(await dummyHash(), password);
}

/** A strong password for first start and the admin CLI: 144 random bits. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export const COMMON_PASSWORD_MESSAGE = 'This password is too common: choose another';

let common: Promise<Set<string>> | undefined;
/**
 * zxcvbn-ts's list of common leaked passwords (about 49,000, lower-case), loaded on first use: the
 * package decompresses it when imported, which a server that never sets a password need not pay for.
 */
const commonPasswords = () =>
  (common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())),
    (err: unknown) => {
      common = undefined;
      throw err;
    },
  ));

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}

/**
 * The one rule for a new password, wherever it is set (sign-up of an admin, the admin CLI, a
 * change of one's own, ADMIN_PASSWORD): the contract's length bounds, then not a common leaked
 * password (docs/decisions/416-common-passwords-refused.md). The reason it is refused, or undefined.
 */
export async function newPasswordProblem(password: unknown): Promise<string | undefined> {
  const r = passwordSchema.safeParse(password);
  if (!r.success) return r.error.issues[0]?.message ?? 'Invalid password';
  if (await isCommonPassword(r.data)) return COMMON_PASSWORD_MESSAGE;
  return undefined;
}
