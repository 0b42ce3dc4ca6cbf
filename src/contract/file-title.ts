import { TITLE_MAX } from './constants';

/**
 * A resource title from an uploaded file's name, for bulk upload (docs/decisions/409-bulk-upload-drafts.md):
 * `warm_foley-pack_v2.zip` → "Warm Foley Pack V2". The extension goes, `_ - .` and runs of spaces
 * become one space, each word starts with a capital (the rest is kept: "SFX", "iPhone" → "IPhone"
 * is accepted), and a title longer than TITLE_MAX is cut at a word. A name that cleans to nothing
 * ("___.zip"; a leading dot is no extension: ".env" → "Env") keeps the file name itself.
 */
export function titleFromFileName(fileName: string, max: number = TITLE_MAX): string {
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const words = stem
    .replace(/[_\-.\s]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((w) => w.charAt(0).toLocaleUpperCase() + w.slice(1));
  const title = cut(words.join(' '), max);
  return title || cut(fileName.trim(), max);
}

/** At most `max` characters (code points), cut at the last space when there is one in reach. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max).join('');
  const space = head.lastIndexOf(' ');
  return (space > 0 ? head.slice(0, space) : head).trim();
}
