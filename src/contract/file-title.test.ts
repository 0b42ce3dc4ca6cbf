import { describe, expect, it } from 'vitest';
import { TITLE_MAX } from './constants';
import { titleFromFileName } from './file-title';

describe('titleFromFileName', () => {
  it('cleans the issue’s example: separators to spaces, extension dropped, words capitalised, v2 → V2', () => {
    expect(titleFromFileName('warm_foley-pack_v2.zip')).toBe('Warm Foley Pack V2');
  });

  it('drops only the last extension and turns inner dots and runs of separators into one space', () => {
    expect(titleFromFileName('film.grain.overlay.tar.gz')).toBe('Film Grain Overlay Tar');
    expect(titleFromFileName('  rain__on--roof  .wav')).toBe('Rain On Roof');
    expect(titleFromFileName('no extension')).toBe('No Extension');
  });

  it('keeps the rest of each word as typed, and letters beyond ASCII', () => {
    expect(titleFromFileName('SFX_bundle.zip')).toBe('SFX Bundle');
    expect(titleFromFileName('écran_noir.mp4')).toBe('Écran Noir');
  });

  it('cuts a long title at a word within the title limit', () => {
    const long = `${'word_'.repeat(60)}end.zip`;
    const title = titleFromFileName(long);
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(title.endsWith('Word')).toBe(true);
    expect(titleFromFileName('abcdefghij.zip', 4)).toBe('Abcd');
  });

  it('keeps the file name when cleaning leaves nothing', () => {
    expect(titleFromFileName('___.zip')).toBe('___.zip');
    expect(titleFromFileName('-.zip')).toBe('-.zip');
    expect(titleFromFileName('.env')).toBe('Env');
  });
});
