// The server as it runs: src/server/main.ts and every source file it imports compiled and bundled once
// by esbuild (the compiler tsx itself runs) into dist/server/main.mjs, npm packages left as imports of
// node_modules; the owner's commands (`npm run backup`, `restore`, `admin`) likewise, each into its own
// file. Started through tsx's loader, the server's 253 source files were resolved and compiled through a
// loader thread at every start: about 4 s of CPU before it listened, 2 s from the bundle, and 560 MiB
// resident idle against 200 (decision 460). `npm start` and the tests' server processes build it when a
// source is newer (scripts/command.mjs for the commands); `npm run dev` keeps tsx (restarts on change).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Each runnable file and its source. */
const ENTRIES = { main: 'src/server/main.ts', backup: 'scripts/backup.ts', restore: 'scripts/restore.ts', admin: 'scripts/admin.ts' };
export const COMMANDS = Object.keys(ENTRIES).filter((name) => name !== 'main');
export const SERVER_DIR = path.join(ROOT, 'dist/server');
/** The built file of `name` (an entry above). */
export const builtFile = (name) => path.join(SERVER_DIR, `${name}.mjs`);
export const SERVER_BUNDLE = builtFile('main');
/** What the bundle is made of: a change to any of them makes it stale. */
const SOURCES = ['src/server', 'src/contract', ...Object.values(ENTRIES), 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build-server.mjs'].map((p) =>
  path.join(ROOT, p),
);
/** Files the server loads beside itself at run time (`new URL(…, import.meta.url)`), copied next to the bundle. */
const BESIDE = ['src/server/media/font-worker.mjs'].map((p) => path.join(ROOT, p));

/** The newest modification time of `p`, or of anything under it when it is a folder (0 when missing). */
export function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, f) => Math.max(m, newestMtime(path.join(p, f))), st.mtimeMs);
}

/** Whether a file of dist/server is missing or older than a source. */
export function serverBuildStale() {
  const built = Object.keys(ENTRIES).map(builtFile);
  if (!built.every((f) => existsSync(f))) return true;
  const oldest = Math.min(...built.map((f) => statSync(f).mtimeMs));
  return SOURCES.some((s) => newestMtime(s) > oldest);
}

/**
 * Builds dist/server when it is stale (or always with `force`). Every file is written beside its place and
 * renamed into it, the server's bundle last, so a process starting meanwhile (or a second build at once) never reads
 * a half-written one.
 */
export async function buildServer({ force = false } = {}) {
  if (!force && !serverBuildStale()) return false;
  const result = await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(ROOT, file)])),
    outdir: SERVER_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // Stack traces name the source files and lines (node --enable-source-maps).
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  mkdirSync(SERVER_DIR, { recursive: true });
  const place = (file, data) => {
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, data);
    renameSync(partial, file);
  };
  for (const file of BESIDE) place(path.join(SERVER_DIR, path.basename(file)), readFileSync(file));
  for (const out of result.outputFiles) if (out.path !== SERVER_BUNDLE) place(out.path, out.contents);
  const bundle = result.outputFiles.find((out) => out.path === SERVER_BUNDLE);
  place(bundle.path, bundle.contents);
  return true;
}

/** The command line that runs the built server: Node itself, mapping stack traces to the sources. */
export const SERVER_ARGS = ['--enable-source-maps', SERVER_BUNDLE];

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer({ force: true });
  console.log(`Built ${path.relative(process.cwd(), SERVER_DIR)}: ${Object.keys(ENTRIES).join(', ')}`);
}
