import { describe, expect, it } from 'vitest';
import { withPreviewToken } from './preview-links';

describe('withPreviewToken', () => {
  const token = '12.1799999999.AAAAAAAAAAAAAAAAAAAAAA';
  const a = `/media/${'a'.repeat(32)}.webp`;
  const b = `/media/${'b'.repeat(32)}.avif`;

  it('adds the token to every site media URL: strings, srcsets, nested objects and lists', () => {
    const thumbnail = { src: a, srcset: `${a} 320w, ${b} 640w`, avif_srcset: '', placeholder: { color: '#123456', dataUri: 'data:image/webp;base64,AAAA' } };
    expect(withPreviewToken(thumbnail, token)).toEqual({
      src: `${a}?preview=${token}`,
      srcset: `${a}?preview=${token} 320w, ${b}?preview=${token} 640w`,
      avif_srcset: '',
      placeholder: { color: '#123456', dataUri: 'data:image/webp;base64,AAAA' },
    });
    expect(withPreviewToken({ kind: 'lut', samples: [{ url: b, width: 10 }] }, token)).toEqual({ kind: 'lut', samples: [{ url: `${b}?preview=${token}`, width: 10 }] });
    expect(withPreviewToken('/thumbnails/12.svg', token)).toBe(`/thumbnails/12.svg?preview=${token}`);
    const specimen = `/media/specimens/12/${'c'.repeat(32)}.svg`;
    expect(withPreviewToken({ kind: 'font', specimen: { url: specimen } }, token)).toEqual({ kind: 'font', specimen: { url: `${specimen}?preview=${token}` } });
  });

  it('leaves other addresses and values alone', () => {
    for (const value of ['https://cdn.example.com/media/x.webp', '/thumbnails/1.png', `/media/${'a'.repeat(31)}.webp`, `${a}?v=1`, 42, null, true]) {
      expect(withPreviewToken(value, token)).toBe(value);
    }
  });
});
