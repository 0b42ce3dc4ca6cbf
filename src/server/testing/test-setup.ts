import { HASH_OPTIONS, setHashOptionsForTests } from '../modules/auth/passwords';

/**
 * argon2id as in production, at a test-only cost: at OWASP's (m=19 MiB, t=2) each hash or
 * verification is ~20 ms of CPU, and the suite signs in, refuses and rate-limits hundreds of times
 * (docs/performance.md, "Test suite"). auth.test.ts checks that a stored hash has the
 * production parameters.
 */
export const TEST_HASH_OPTIONS = Object.freeze({ ...HASH_OPTIONS, memoryCost: 256, timeCost: 1 });

/** Runs before each unit and API test file (vitest.config.ts `setupFiles`). */
setHashOptionsForTests(TEST_HASH_OPTIONS);
