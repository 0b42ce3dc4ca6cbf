import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every link to the docs that the code and the docs themselves hold points at something that exists:
 * `docs/...` paths (a decision written as `docs/decisions/260` names the record numbered 260), the
 * sections cited after them (`docs/performance.md, "Test suite"`), the relative targets of Markdown
 * links, and decision records named by file (`262-font-title-specimens.md`).
 * Only paths are checked, so records other branches add in their own number ranges need nothing here.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const SCANNED_FOLDERS = ['src', 'e2e', 'bench', 'scripts', 'docs'];
const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|css|html|md)$/;
const DECISIONS = 'docs/decisions';

function filesUnder(folder: string): string[] {
  const full = path.join(ROOT, folder);
  if (!existsSync(full)) return [];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && TEXT_FILE.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

const THIS_FILE = path.relative(ROOT, import.meta.filename); // its examples of dead links are meant

/** The scanned files: the folders above, and the text files at the top of the repository (README.md, configs). */
function scannedFiles(): string[] {
  const topLevel = readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isFile() && TEXT_FILE.test(entry.name))
    .map((entry) => entry.name);
  return [...topLevel, ...SCANNED_FOLDERS.flatMap(filesUnder)].filter((file) => file !== THIS_FILE);
}

// `docs/…` not inside a longer path or URL (`/api/docs/json` is a route, not a file).
const DOCS_PATH = /(?<![\w./@-])docs\/[\w./-]*[\w]/g;
// A section cited after its file: `docs/performance.md, "Test suite"` (the heading, as written).
const CITED_SECTION = /(?<![\w./@-])(docs\/[\w./-]+\.md),? "([^"]+)"/g;
// A decision record named by its file alone, as records name each other: `262-font-title-specimens.md`.
const DECISION_FILE = /(?<![\w/.-])[\dx]{3}-[\w-]+\.md\b/g;
// The target of a Markdown link: `[text](target)` or `[text](target#heading)`.
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;

/** Why `target` (a path from the repository's root) is dead, or undefined when it exists. */
function deadReason(target: string): string | undefined {
  const clean = target.replace(/[#?].*$/, '').replace(/\/$/, '');
  if (existsSync(path.join(ROOT, clean))) return undefined;
  // A decision number written as a path: docs/decisions/260 (also the first of a range, 200–206).
  const numbered = /^docs\/decisions\/(\d{3})$/.exec(clean);
  if (numbered && readdirSync(path.join(ROOT, DECISIONS)).some((name) => name.startsWith(`${numbered[1]}-`))) return undefined;
  return 'does not exist';
}

/** Whether the Markdown file `file` (existing) has a heading reading `heading`. */
function hasHeading(file: string, heading: string): boolean {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .some((line) => /^#{1,6} /.test(line) && line.replace(/^#+ /, '').trim() === heading);
}

/** Every docs link in one file's text, as `file:line → target`, with the path it was resolved to. */
export function findDeadLinks(file: string, text: string): string[] {
  const dead = new Set<string>();
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    const check = (written: string, resolved: string) => {
      const reason = deadReason(resolved);
      if (reason) dead.add(`${where} → ${written} (${resolved} ${reason})`);
    };
    for (const match of line.matchAll(DOCS_PATH)) check(match[0], match[0]);
    for (const [, file, heading] of line.matchAll(CITED_SECTION)) {
      if (existsSync(path.join(ROOT, file!)) && !hasHeading(file!, heading!)) dead.add(`${where} → ${file}, "${heading}" (no such heading)`);
    }
    if (file.endsWith('.md')) {
      for (const match of line.matchAll(MARKDOWN_LINK)) {
        const target = match[1]!;
        if (/^([a-z]+:|#|\/)/i.test(target)) continue; // a URL, an anchor in the page, a site path
        check(target, path.posix.normalize(path.posix.join(path.posix.dirname(file), target)));
      }
    }
    for (const match of line.matchAll(DECISION_FILE)) check(match[0], `${DECISIONS}/${match[0]}`);
  });
  return [...dead];
}

describe('links to the docs', () => {
  it('every docs path, Markdown link and decision record named in the repository exists', () => {
    const files = scannedFiles();
    expect(files).toContain('README.md');
    expect(files).toContain('docs/decisions/README.md');
    const dead = files.flatMap((file) => findDeadLinks(file, readFileSync(path.join(ROOT, file), 'utf8')));
    expect(dead).toEqual([]);
  });

  it('the scan finds a dead link of each kind it checks, and accepts the live ones', () => {
    const text = [
      ' * See docs/decisions/1xx-media-jobs.md and docs/no-such-guide.md.',
      '// (docs/decisions/999) but docs/decisions/260 and docs/decisions/200–206 exist, as does docs/search.md.',
      'See [a record](../decisions/998-missing.md), [search](search.md) and 222-demo-previews-as-a-job.md, not 3xx-gone.md.',
      "const url = '/api/docs/json';",
      ' * (docs/performance.md, "Test suite") and (docs/performance.md, "Session 10").',
    ].join('\n');
    expect(findDeadLinks('docs/example.md', text)).toEqual([
      'docs/example.md:1 → docs/decisions/1xx-media-jobs.md (docs/decisions/1xx-media-jobs.md does not exist)',
      'docs/example.md:1 → docs/no-such-guide.md (docs/no-such-guide.md does not exist)',
      'docs/example.md:2 → docs/decisions/999 (docs/decisions/999 does not exist)',
      'docs/example.md:3 → ../decisions/998-missing.md (decisions/998-missing.md does not exist)',
      'docs/example.md:3 → 3xx-gone.md (docs/decisions/3xx-gone.md does not exist)',
      'docs/example.md:5 → docs/performance.md, "Session 10" (no such heading)',
    ]);
  });
});
