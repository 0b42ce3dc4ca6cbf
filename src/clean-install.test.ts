import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What a clean install on a fresh machine needs of the committed lock file (issue 12): `npm ci`
 * refuses a lock whose root differs from package.json or that lacks an entry for a package some
 * entry depends on (it refused "Missing: @tailwindcss/oxide-android-arm64 … from lock file"), and
 * `npm install` warns EBADENGINE for a package whose engines exclude the Node we support.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
/** The oldest Node that package.json's engines admit, which every locked package must admit too. */
const OLDEST_NODE = '20.19.0';

// semver is what npm itself uses to read these ranges (loose, as npm reads engines).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string, options?: { loose?: boolean }): boolean;
  validRange(range: string, options?: { loose?: boolean }): string | null;
};

interface LockEntry {
  version?: string;
  name?: string;
  link?: boolean;
  optional?: boolean;
  engines?: { node?: string } | string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
interface Lock {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(path.resolve(ROOT, file), 'utf8')) as T;
const pkg = readJson<Record<string, unknown> & { engines: { node: string } }>('package.json');
// LOCK_FILE_UNDER_TEST: another lock file to hold to these rules (e.g. an older one, to see them fail).
const lock = readJson<Lock>(process.env.LOCK_FILE_UNDER_TEST ?? 'package-lock.json');

/** The entry Node's resolution finds for `name` required from the package at `from` (nearest node_modules up the tree). */
function resolveEntry(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.includes('/node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
    const key = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (!dir) return undefined;
  }
}

describe('the committed lock file installs cleanly (npm ci) on Node 20.19', () => {
  it('is a version 3 lock whose root is package.json', () => {
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(2);
    const root = lock.packages[''];
    for (const field of ['name', 'version', 'dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'engines'] as const) {
      expect(root[field as keyof LockEntry], `package-lock.json's root ${field} (run npm install to update the lock)`).toEqual(pkg[field]);
    }
  });

  it('package.json admits the Node this test holds every package to', () => {
    expect(semver.satisfies(OLDEST_NODE, pkg.engines.node)).toBe(true);
    expect(semver.satisfies('20.18.9', pkg.engines.node), 'OLDEST_NODE is the oldest Node package.json admits').toBe(false);
  });

  it(`every locked package with engines.node admits Node ${OLDEST_NODE} (no EBADENGINE warning)`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([, e]) => e.engines && !Array.isArray(e.engines) && e.engines.node)
      .filter(([, e]) => {
        const range = (e.engines as { node: string }).node;
        return semver.validRange(range, { loose: true }) === null || !semver.satisfies(OLDEST_NODE, range, { loose: true });
      })
      .map(([key, e]) => `${key}@${e.version} wants node ${(e.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it("every package an entry depends on (optional ones too) has an entry that Node's resolution finds, at a version in range", () => {
    const problems: string[] = [];
    for (const [key, entry] of Object.entries(lock.packages)) {
      if (entry.link) continue;
      const wanted = { ...entry.dependencies, ...entry.optionalDependencies, ...(key === '' ? entry.devDependencies : {}) };
      for (const [name, range] of Object.entries(wanted)) {
        const found = resolveEntry(key, name);
        if (!found) {
          problems.push(`Missing: ${name}@${range} (needed by ${key || 'the root'}) from lock file`);
          continue;
        }
        const target = lock.packages[found];
        const version = target.link ? lock.packages[(target as { resolved?: string }).resolved ?? '']?.version : target.version;
        // Aliases (npm:…), URLs and paths name no semver range.
        if (version && semver.validRange(range, { loose: true }) !== null && !semver.satisfies(version, range, { loose: true })) {
          problems.push(`Invalid: ${found}@${version} does not satisfy ${name}@${range} (needed by ${key || 'the root'})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists each of @tailwindcss/oxide's optional platform packages with an entry of its own", () => {
    const oxide = lock.packages['node_modules/@tailwindcss/oxide'];
    const platforms = Object.keys(oxide?.optionalDependencies ?? {});
    expect(platforms.length, 'oxide names its platform packages').toBeGreaterThan(5);
    expect(platforms.filter((name) => !lock.packages[`node_modules/${name}`])).toEqual([]);
  });
});
