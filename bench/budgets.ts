/**
 * Page budgets: builds the client into a temp dir, then checks what a visitor pays.
 *  (a) initial JavaScript (entry module + every chunk it statically imports, from the Vite manifest), gzip;
 *  (b) the public pages, opened in Chromium against the real server on that build, never fetch an admin chunk;
 *  (c) hashed assets are cached immutably and sent compressed to a browser;
 *  (d) the bytes each category page transfers without interaction, before previews (a server that
 *      makes none: thumbnails only) and after (every demo preview ready), and that none of them is
 *      preview media (video, audio, font, LUT table).
 * Run alone (`tsx bench/budgets.ts`) or from run.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium } from '../e2e/chromium';
import { CATEGORIES } from '../src/contract/categories';
import { startServer } from './harness';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const INITIAL_JS_BUDGET = 150 * 1024;

export interface BudgetRow {
  measure: string;
  figure: string;
  goal: string;
  pass: boolean;
}

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Builds the client once into a temp dir with a manifest; the caller removes the dir. */
export function buildClient(): string {
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-client-'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return outDir;
}

function readManifest(outDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/** The module the entry (src/client/main.tsx) imports once the server-rendered page has painted: the app itself. */
export const APP_BOOT_MODULE = 'src/client/app/boot.tsx';

/**
 * What the browser must load before the app renders: the entry chunk, the app chunk it always
 * imports right after the first paint (APP_BOOT_MODULE), and the static import closure of both.
 */
export function initialJs(outDir: string): { files: string[]; gzipBytes: number } {
  const manifest = readManifest(outDir);
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('no entry in the Vite manifest');
  if (!manifest[entryKey].dynamicImports?.includes(APP_BOOT_MODULE)) throw new Error(`the entry does not import ${APP_BOOT_MODULE}`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) visit(i);
  };
  visit(entryKey);
  visit(APP_BOOT_MODULE);
  const files = [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  // The HTML must reference the same entry, or the manifest tells a different story than the page.
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  if (!html.includes(manifest[entryKey].file)) throw new Error(`index.html does not load ${manifest[entryKey].file}`);
  const gzipBytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(outDir, f)), { level: 9 }).byteLength, 0);
  return { files, gzipBytes };
}

/** Chunks built from the admin feature's own modules. */
function adminChunks(outDir: string): Set<string> {
  const manifest = readManifest(outDir);
  return new Set(
    Object.entries(manifest)
      .filter(([key, c]) => (c.src ?? key).includes('src/client/features/admin/'))
      .map(([, c]) => c.file),
  );
}

export async function pageBudgets(outDir: string, options: { lighthouse: boolean } = { lighthouse: true }): Promise<BudgetRow[]> {
  const rows: BudgetRow[] = [];
  const initial = initialJs(outDir);
  rows.push({
    measure: `initial JS, gzip (${initial.files.length} files)`,
    figure: `${(initial.gzipBytes / 1024).toFixed(1)} KB`,
    goal: `≤ ${INITIAL_JS_BUDGET / 1024} KB`,
    pass: initial.gzipBytes <= INITIAL_JS_BUDGET,
  });

  const admin = adminChunks(outDir);
  if (admin.size === 0) throw new Error('no admin chunk in the manifest: the check below would prove nothing');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-pages-'));
  const server = await startServer('app-server.ts', { DATA_DIR: dataDir, CLIENT_DIR: outDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true', DATABASE_URL: undefined });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const js: { url: string; cache: string; encoding: string }[] = [];
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('.js') || r.request().resourceType() === 'script') {
        const h = r.headers();
        js.push({ url: url.pathname, cache: h['cache-control'] ?? '', encoding: h['content-encoding'] ?? '' });
      }
    });
    const pages = ['/', '/categories/video-editing', '/community'];
    for (const p of pages) {
      await page.goto(server.url + p, { waitUntil: 'networkidle' });
    }
    const adminFetched = js.filter((j) => admin.has(j.url.replace(/^\//, '')));
    rows.push({
      measure: `admin chunks fetched by a visitor (${pages.join(', ')})`,
      figure: String(adminFetched.length) + (adminFetched.length ? ` (${adminFetched.map((a) => a.url).join(', ')})` : ''),
      goal: '0',
      pass: adminFetched.length === 0,
    });

    // Headers as the browser sees them; a fresh request so no memory cache hides the answer.
    const assets = [...new Set(js.filter((j) => j.url.startsWith('/assets/')).map((j) => j.url))];
    const css = page.url() ? await page.$$eval('link[rel="stylesheet"]', (ls) => ls.map((l) => new URL((l as HTMLLinkElement).href).pathname)) : [];
    let immutable = 0;
    let compressed = 0;
    const checked = [...assets, ...css.filter((c) => c.startsWith('/assets/'))];
    for (const a of checked) {
      const res = await page.request.get(server.url + a, { headers: { 'accept-encoding': 'br, gzip, deflate' } });
      const h = res.headers();
      if (h['cache-control'] === 'public, max-age=31536000, immutable') immutable++;
      if (h['content-encoding'] === 'br' || h['content-encoding'] === 'gzip') compressed++;
    }
    rows.push({
      measure: 'hashed assets with immutable caching',
      figure: `${immutable}/${checked.length}`,
      goal: 'all',
      pass: checked.length > 0 && immutable === checked.length,
    });
    rows.push({
      measure: 'hashed assets sent compressed (br/gzip)',
      figure: `${compressed}/${checked.length}`,
      goal: 'all',
      pass: checked.length > 0 && compressed === checked.length,
    });
    await context.close();
    rows.push(...(await categoryPageBytes(browser, outDir, server.url, dataDir)));
    if (options.lighthouse) rows.push(...lighthouseRows(server.url, lighthousePaths(await resourcePagePerKind(server.url))));
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

/** Preview media: what must wait for the visitor to ask (a poster or storyboard image may load with the page). */
const PREVIEW_MEDIA = /^\/media\/[0-9a-f]{32}\.(mp4|m4a|woff2|bin)$/;

/** How long a page is watched after its load for requests it makes by itself. */
const SETTLE_MS = 3000;

/** Bytes (headers and encoded bodies) the page transfers until the network is idle, and how many of them are preview media. */
async function pageBytes(browser: Browser, url: string): Promise<{ bytes: number; previewBytes: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes: Promise<{ bytes: number; preview: boolean }>[] = [];
  page.on('requestfinished', (r) =>
    sizes.push(
      r.sizes().then(
        (s) => ({ bytes: s.responseBodySize + s.responseHeadersSize, preview: PREVIEW_MEDIA.test(new URL(r.url()).pathname) }),
        () => ({ bytes: 0, preview: false }), // finished as the page closed: not part of the load
      ),
    ),
  );
  await page.goto(url, { waitUntil: 'networkidle' });
  // What the page defers past its load (lazy chunks, then what they fetch once their elements are on
  // screen) can start after a first quiet half-second on a busy machine: give it time, then wait for quiet again.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2000 })));
  await page.waitForTimeout(SETTLE_MS);
  await page.waitForLoadState('networkidle');
  const all = await Promise.all(sizes);
  await context.close();
  return { bytes: all.reduce((n, s) => n + s.bytes, 0), previewBytes: all.filter((s) => s.preview).reduce((n, s) => n + s.bytes, 0) };
}

/**
 * (d): each public category page opened fresh, first on a server that makes no previews (the site
 * before issue 15), then on the budget server once every demo preview is ready.
 */
async function categoryPageBytes(browser: Browser, outDir: string, afterUrl: string, afterDataDir: string): Promise<BudgetRow[]> {
  const categories = CATEGORIES.filter((c) => c.isPublic);
  const beforeDir = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-no-previews-'));
  const before = new Map<string, number>();
  const server = await startServer('app-server.ts', { DATA_DIR: beforeDir, CLIENT_DIR: outDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true', MEDIA_JOBS_CONCURRENCY: '0', DATABASE_URL: undefined });
  try {
    for (const c of categories) before.set(c.slug, (await pageBytes(browser, `${server.url}/categories/${c.slug}`)).bytes);
  } finally {
    await server.stop();
    rmSync(beforeDir, { recursive: true, force: true });
  }
  const db = path.join(afterDataDir, 'resource-vault.db');
  const pending = () => {
    const handle = new Database(db, { readonly: true });
    try {
      const row = handle.prepare(`select count(*) as n, sum(state in ('queued', 'processing')) as open from media_jobs`).get() as { n: number; open: number | null };
      return row.n === 0 || (row.open ?? 0) > 0;
    } finally {
      handle.close();
    }
  };
  const end = Date.now() + 600_000;
  while (pending() && Date.now() < end) await new Promise((r) => setTimeout(r, 1000));
  const rows: BudgetRow[] = [];
  for (const c of categories) {
    const res = await fetch(`${afterUrl}/api/resources?category=${c.value}`);
    const shown = ((await res.json()) as { items: { preview: unknown }[] }).items.filter((r) => r.preview !== null).length;
    const after = await pageBytes(browser, `${afterUrl}/categories/${c.slug}`);
    rows.push({
      measure: `${c.title} page, bytes without interaction: before → after previews (${shown} shown)`,
      figure: `${(before.get(c.slug)! / 1024).toFixed(0)} KB → ${(after.bytes / 1024).toFixed(0)} KB, preview media ${after.previewBytes} B`,
      goal: 'no preview media',
      pass: after.previewBytes === 0 && shown > 0,
    });
  }
  return rows;
}

/**
 * A resource page of each preview kind (video, sound, LUT, image pair, font): the first resource
 * of a category of that kind that has its preview ready (else its first resource).
 */
async function resourcePagePerKind(origin: string): Promise<string[]> {
  const urls: string[] = [];
  for (const category of ['video_editing', 'sound_effects', 'color_grading', 'photo_editing', 'typography']) {
    const res = await fetch(`${origin}/api/resources?category=${category}`);
    const { items } = (await res.json()) as { items: { url: string; preview: unknown }[] };
    const chosen = items.find((i) => i.preview !== null) ?? items[0];
    if (chosen) urls.push(chosen.url);
  }
  return urls;
}

/** Category pages Lighthouse visits: one per preview kind (video, sound, LUT, image pair, font). */
const LIGHTHOUSE_CATEGORIES = ['video-editing', 'sound-effects', 'color-grading', 'photo-editing', 'typography'];

/**
 * `/`, a category page and a resource page of each preview kind. BENCH_LIGHTHOUSE (comma-separated
 * parts of paths, e.g. `typography,color-grading`) keeps only the paths containing one of them.
 */
function lighthousePaths(resourcePages: string[]): string[] {
  const all = ['/', ...LIGHTHOUSE_CATEGORIES.map((slug) => `/categories/${slug}`), ...resourcePages];
  const only = process.env.BENCH_LIGHTHOUSE?.split(',').filter(Boolean);
  return only ? all.filter((p) => only.some((part) => (part === '/' ? p === '/' : p.includes(part)))) : all;
}

/**
 * Lighthouse 12, default (mobile) preset: simulated slow 4G and a 4× slowed CPU, so the
 * figures depend on how busy this machine is; the load average is printed beside them.
 */
function lighthouseRows(origin: string, paths: string[]): BudgetRow[] {
  const rows: BudgetRow[] = [];
  const out = mkdtempSync(path.join(os.tmpdir(), 'rv-bench-lh-'));
  try {
    for (const p of paths) {
      const file = path.join(out, 'report.json');
      const report = lighthouseReport(origin + p, file);
      const score = (c: string) => Math.round(report.categories[c].score! * 100);
      const metric = (a: string) => report.audits[a].numericValue!;
      const lcp = metric('largest-contentful-paint');
      const cls = metric('cumulative-layout-shift');
      const tbt = metric('total-blocking-time');
      rows.push(
        { measure: `Lighthouse ${p}: performance`, figure: String(score('performance')), goal: '≥ 98', pass: score('performance') >= 98 },
        { measure: `Lighthouse ${p}: LCP`, figure: `${(lcp / 1000).toFixed(2)} s`, goal: '< 1.5 s', pass: lcp < 1500 },
        { measure: `Lighthouse ${p}: CLS`, figure: cls.toFixed(3), goal: '< 0.01', pass: cls < 0.01 },
        { measure: `Lighthouse ${p}: TBT`, figure: `${tbt.toFixed(0)} ms`, goal: '< 50 ms', pass: tbt < 50 },
        { measure: `Lighthouse ${p}: accessibility`, figure: String(score('accessibility')), goal: '100', pass: score('accessibility') === 100 },
        { measure: `Lighthouse ${p}: SEO`, figure: String(score('seo')), goal: '100', pass: score('seo') === 100 },
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return rows;
}

interface LighthouseReport {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number }>;
}

/** Runs a Lighthouse attempt this many times at most when one ends without figures (e.g. NO_NAVSTART on a busy machine). */
const LIGHTHOUSE_ATTEMPTS = 3;

function lighthouseReport(url: string, file: string): LighthouseReport {
  for (let attempt = 1; ; attempt++) {
    rmSync(file, { force: true });
    try {
      execFileSync(
        process.execPath,
        [
          path.join(ROOT, 'node_modules/lighthouse/cli/index.js'),
          url,
          '--quiet',
          '--output=json',
          `--output-path=${file}`,
          '--only-categories=performance,accessibility,seo',
          '--chrome-flags=--headless --no-sandbox --disable-gpu',
        ],
        { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, stdio: ['ignore', 'ignore', 'inherit'] },
      );
    } catch {
      // A run that failed outright (exit code ≠ 0) is retried like one without figures.
    }
    const report = (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { categories: {}, audits: {} }) as LighthouseReport;
    const complete =
      ['performance', 'accessibility', 'seo'].every((c) => typeof report.categories[c]?.score === 'number') &&
      ['largest-contentful-paint', 'cumulative-layout-shift', 'total-blocking-time'].every((a) => typeof report.audits[a]?.numericValue === 'number');
    if (complete) return report;
    if (attempt >= LIGHTHOUSE_ATTEMPTS) throw new Error(`Lighthouse gave no figures for ${url} in ${LIGHTHOUSE_ATTEMPTS} attempts`);
    process.stderr.write(`Lighthouse gave no figures for ${url} (attempt ${attempt}); running it again\n`);
  }
}

export function formatBudgets(rows: BudgetRow[]): string {
  const header = ['measure', 'figure', 'goal', 'result'];
  const body = rows.map((r) => [r.measure, r.figure, r.goal, r.pass ? 'pass' : 'FAIL']);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = buildClient();
  try {
    const rows = await pageBudgets(outDir, { lighthouse: !process.argv.includes('--no-lighthouse') });
    console.log(`\nPage budgets (load average ${os.loadavg()[0].toFixed(1)})\n\n${formatBudgets(rows)}\n`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
