import { describe, expect, it } from 'vitest';
import { selfPreviewKind } from './preview-kind';

describe('selfPreviewKind', () => {
  it('gives the kind the category expects when the file is of it', () => {
    expect(selfPreviewKind('sound_effects', { name: 'Rain.WAV', type: '' })).toBe('audio');
    expect(selfPreviewKind('video_editing', { name: 'clip', type: 'video/mp4' })).toBe('video');
    expect(selfPreviewKind('video_editing', { name: 'warm.cube', type: '' })).toBe('lut');
    expect(selfPreviewKind('color_grading', { name: 'warm.cube', type: '' })).toBe('lut');
    expect(selfPreviewKind('typography', { name: 'Sans.woff2', type: 'font/woff2' })).toBe('font');
    expect(selfPreviewKind('premium_resources', { name: 'a.otf', type: '' })).toBe('font');
  });

  it('gives none for a file that does not fit the category or is no media', () => {
    expect(selfPreviewKind('typography', { name: 'rain.wav', type: 'audio/wav' })).toBeNull();
    expect(selfPreviewKind('sound_effects', { name: 'pack.zip', type: 'application/zip' })).toBeNull();
    expect(selfPreviewKind('photo_editing', { name: 'before.png', type: 'image/png' })).toBeNull();
    expect(selfPreviewKind('color_grading', { name: 'cube', type: '' })).toBeNull();
  });
});
