import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries in eslint.config.js (docs/decisions/120-client-resource-components-and-import-boundaries.md)
 * fire: each case lints an in-memory file at a path inside src/client with the project's own config.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.map((m) => ({ rule: m.ruleId, severity: m.severity, message: m.message }));
}

const use = (from: string) => `import { x } from '${from}';\nexport const y = x;\n`;

describe('client import boundaries (ESLint)', () => {
  it('a feature importing another feature is an error', async () => {
    expect(await lint('src/client/features/home/boundary-probe.tsx', use('@/features/categories/x'))).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', severity: 2, message: expect.stringContaining('Features do not import each other') }),
    ]);
  });

  it('so is a dynamic import() of another feature', async () => {
    expect(await lint('src/client/features/home/boundary-probe.tsx', `export const y = () => import('@/features/categories/x');\n`)).toEqual([
      expect.objectContaining({ rule: 'no-restricted-syntax', severity: 2, message: expect.stringContaining('Features do not import each other') }),
    ]);
  });

  it('a relative path out of the feature folder is an error', async () => {
    expect(await lint('src/client/features/home/boundary-probe.tsx', use('../categories/x'))).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', severity: 2, message: expect.stringContaining('Relative imports stay inside features/home') }),
    ]);
  });

  it('components/ importing a feature is an error', async () => {
    expect(await lint('src/client/components/resource/boundary-probe.tsx', use('@/features/home/x'))).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', severity: 2, message: expect.stringContaining('components/ never imports a feature') }),
    ]);
  });

  it('a feature importing shared components, its own files or itself by alias is fine', async () => {
    expect(await lint('src/client/features/home/boundary-probe.tsx', use('@/components/resource/thumbnail'))).toEqual([]);
    expect(await lint('src/client/features/home/boundary-probe.tsx', use('./categories-section'))).toEqual([]);
    expect(await lint('src/client/features/home/boundary-probe.tsx', use('@/features/home/categories-section'))).toEqual([]);
  });

  it('product code importing test support is an error, on the server and in the client', async () => {
    const refused = [expect.objectContaining({ rule: 'no-restricted-imports', severity: 2, message: expect.stringContaining('never imports test support') })];
    expect(await lint('src/server/modules/files/boundary-probe.ts', use('../../testing/test-utils'))).toEqual(refused);
    expect(await lint('src/server/boundary-probe.ts', use('./testing/s3-test-server'))).toEqual(refused);
    expect(await lint('src/client/features/home/boundary-probe.tsx', use('@/testing/test-server'))).toEqual(refused);
    expect(await lint('src/client/lib/boundary-probe.ts', use('@/testing/test-server'))).toEqual(refused);
  });

  it('server product code importing the demo catalogue is an error, a test there may', async () => {
    const refused = [expect.objectContaining({ rule: 'no-restricted-imports', severity: 2, message: expect.stringContaining('never imports the demo catalogue') })];
    expect(await lint('src/server/modules/media/boundary-probe.ts', use('../../demo/demo-previews'))).toEqual(refused);
    expect(await lint('src/server/jobs/boundary-probe.ts', use('../demo/seed'))).toEqual(refused);
    expect(await lint('src/server/media/boundary-probe.ts', use('../demo/media/demo-media'))).toEqual(refused);
    expect(await lint('src/server/db/migrations/boundary-probe.ts', use('../../demo/demo-data'))).toEqual(refused);
    expect(await lint('src/server/storage/boundary-probe.ts', `export const y = () => import('../demo/seed');\n`)).toEqual([
      expect.objectContaining({ rule: 'no-restricted-syntax', severity: 2, message: expect.stringContaining('never imports the demo catalogue') }),
    ]);
    // Test support is still refused there, and the demo and setup may import the demo.
    expect(await lint('src/server/jobs/boundary-probe.ts', use('../testing/test-utils'))).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', severity: 2, message: expect.stringContaining('never imports test support') }),
    ]);
    expect(await lint('src/server/modules/categories/boundary-probe.test.ts', use('../../demo/seed'))).toEqual([]);
    expect(await lint('src/server/boundary-probe.ts', use('./demo/seed'))).toEqual([]);
    expect(await lint('src/server/demo/boundary-probe.ts', use('./seed'))).toEqual([]);
  });

  it('tests and test support may import it, and the feature rules still hold in a test', async () => {
    expect(await lint('src/server/modules/files/boundary-probe.test.ts', use('../../testing/test-utils'))).toEqual([]);
    expect(await lint('src/server/testing/boundary-probe.ts', use('./test-utils'))).toEqual([]);
    expect(await lint('src/client/features/home/boundary-probe.test.ts', use('@/testing/test-server'))).toEqual([]);
    expect(await lint('src/client/features/home/boundary-probe.test.ts', use('@/features/categories/x'))).toEqual([
      expect.objectContaining({ rule: 'no-restricted-imports', severity: 2, message: expect.stringContaining('Features do not import each other') }),
    ]);
  });
});
