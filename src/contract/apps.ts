import type { PreviewKind } from './previews';

/**
 * The apps a resource works in (issue 33), deduced from the extensions inside its download and
 * from its preview's kind; an admin may correct the list. The ids are part of the API (`?app=`).
 */
export const APP_IDS = ['premiere-pro', 'after-effects', 'davinci-resolve', 'final-cut-pro', 'lightroom', 'photoshop', 'any-editor', 'fonts'] as const;
export type AppId = (typeof APP_IDS)[number];

export const APP_LABELS: Record<AppId, string> = {
  'premiere-pro': 'Premiere Pro',
  'after-effects': 'After Effects',
  'davinci-resolve': 'DaVinci Resolve',
  'final-cut-pro': 'Final Cut Pro',
  lightroom: 'Lightroom',
  photoshop: 'Photoshop',
  'any-editor': 'Any LUT-capable editor',
  fonts: 'Desktop fonts',
};

/** Which app opens each extension (lower case, without the dot). */
const EXTENSION_APPS: Readonly<Record<string, AppId>> = {
  mogrt: 'premiere-pro',
  prproj: 'premiere-pro',
  aep: 'after-effects',
  aet: 'after-effects',
  ffx: 'after-effects',
  drfx: 'davinci-resolve',
  setting: 'davinci-resolve',
  drp: 'davinci-resolve',
  motn: 'final-cut-pro',
  moti: 'final-cut-pro',
  moef: 'final-cut-pro',
  motr: 'final-cut-pro',
  xmp: 'lightroom',
  lrtemplate: 'lightroom',
  atn: 'photoshop',
  abr: 'photoshop',
  asl: 'photoshop',
  pat: 'photoshop',
  cube: 'any-editor',
  '3dl': 'any-editor',
  otf: 'fonts',
  ttf: 'fonts',
  woff2: 'fonts',
};

/** A preview of these kinds says what the download is, whatever its files' names. */
const PREVIEW_KIND_APPS: Partial<Record<PreviewKind, AppId>> = { lut: 'any-editor', font: 'fonts' };

/** A file name's extension, lower case without the dot; '' for none (a dotfile has none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The apps that `extensions` (and a preview of `previewKind`) point to, in APP_IDS order. */
export function appsFor(extensions: Iterable<string>, previewKind?: PreviewKind | null): AppId[] {
  const found = new Set<AppId>();
  for (const ext of extensions) {
    const app = EXTENSION_APPS[ext.toLowerCase().replace(/^\./, '')];
    if (app) found.add(app);
  }
  const fromPreview = previewKind ? PREVIEW_KIND_APPS[previewKind] : undefined;
  if (fromPreview) found.add(fromPreview);
  return APP_IDS.filter((id) => found.has(id));
}
