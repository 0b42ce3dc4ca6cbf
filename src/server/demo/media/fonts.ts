import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Demo fonts from Fontsource's npm packages of Google Fonts families, each under the SIL Open
 * Font License 1.1 (the package's `license` says so and its LICENSE file ships beside the font):
 * one style of each, its Latin subset as WOFF2. A package that is not installed is skipped, and
 * the seed says which.
 */

export const DEMO_FONT_PACKAGES = [
  { family: 'Bebas Neue', package: '@fontsource/bebas-neue' },
  { family: 'Pacifico', package: '@fontsource/pacifico' },
  { family: 'Lobster', package: '@fontsource/lobster' },
  { family: 'Abril Fatface', package: '@fontsource/abril-fatface' },
  { family: 'Press Start 2P', package: '@fontsource/press-start-2p' },
  { family: 'DM Serif Display', package: '@fontsource/dm-serif-display' },
  { family: 'Anton', package: '@fontsource/anton' },
  { family: 'Righteous', package: '@fontsource/righteous' },
  { family: 'Monoton', package: '@fontsource/monoton' },
  { family: 'Bungee', package: '@fontsource/bungee' },
  { family: 'Alfa Slab One', package: '@fontsource/alfa-slab-one' },
  { family: 'VT323', package: '@fontsource/vt323' },
] as const;

export type DemoFontFamily = (typeof DEMO_FONT_PACKAGES)[number]['family'];

export interface DemoFonts {
  fonts: { family: string; package: string; license: string; data: Buffer }[];
  /** Packages not installed (each skipped). */
  missing: string[];
}

const require = createRequire(import.meta.url);

export async function demoFonts(): Promise<DemoFonts> {
  const fonts: DemoFonts['fonts'] = [];
  const missing: string[] = [];
  for (const entry of DEMO_FONT_PACKAGES) {
    let dir: string;
    try {
      dir = path.dirname(require.resolve(`${entry.package}/package.json`));
    } catch {
      missing.push(entry.package);
      continue;
    }
    const meta = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { license?: string };
    const slug = entry.package.split('/')[1];
    const data = await readFile(path.join(dir, 'files', `${slug}-latin-400-normal.woff2`));
    fonts.push({ family: entry.family, package: entry.package, license: meta.license ?? 'unknown', data });
  }
  return { fonts, missing };
}
