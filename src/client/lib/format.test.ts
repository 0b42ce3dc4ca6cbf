import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatLongDate, formatNumber } from './format';

describe('formatNumber', () => {
  const plain = new Intl.NumberFormat('en-US');
  const noDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const values = [0, 1, 7, 12, 999, 1000, 1001, 12_345, 99_999, 100_000, 1_234_567, 1_000_000_000, 2 ** 40, -1, -1234];
  const fractions = [0.05, 0.15, 0.25, 0.95, 1.05, 2.45, 9.95, 12.25, 999.95, 1234.56, 4.8, 10.5, 99.99];

  it('matches Intl en-US for whole numbers', () => {
    for (const v of values) expect(formatNumber(v), String(v)).toBe(plain.format(v));
    for (let v = 0; v < 30_000; v += 7) expect(formatNumber(v)).toBe(plain.format(v));
  });

  it('matches Intl en-US with one decimal, rounding included', () => {
    for (const v of [...values, ...fractions]) expect(formatNumber(v, 1), String(v)).toBe(oneDecimal.format(v));
    for (let v = 0; v < 2000; v += 0.37) expect(formatNumber(v, 1), String(v)).toBe(oneDecimal.format(v));
  });

  it('rounds to whole numbers like Intl', () => {
    for (const v of fractions) expect(formatNumber(v), String(v)).toBe(noDecimals.format(v));
  });
});

describe('formatCount', () => {
  it('agrees the noun with the count', () => {
    expect(formatCount(1, 'download')).toBe('1 download');
    expect(formatCount(0, 'download')).toBe('0 downloads');
    expect(formatCount(2, 'resource')).toBe('2 resources');
    expect(formatCount(1134, 'resource')).toBe('1,134 resources');
    expect(formatCount(1, 'category', 'categories')).toBe('1 category');
    expect(formatCount(7, 'category', 'categories')).toBe('7 categories');
  });
});

describe('formatLongDate', () => {
  const long = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
  it('matches Intl en-US dateStyle long in the local time zone', () => {
    for (let t = Date.UTC(2020, 0, 1); t < Date.UTC(2027, 0, 1); t += 7 * 3600_000 * 13) {
      const d = new Date(t);
      expect(formatLongDate(d)).toBe(long.format(d));
    }
  });
});

describe('formatBytes', () => {
  it('says bytes, then decimal units with one decimal under ten', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(999)).toBe('999 bytes');
    expect(formatBytes(1000)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(7_600_000)).toBe('7.6 MB');
    expect(formatBytes(52_428_800)).toBe('52 MB');
    expect(formatBytes(999_600)).toBe('1 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.4 GB');
    expect(formatBytes(3e15)).toBe('3,000 TB');
  });
});
