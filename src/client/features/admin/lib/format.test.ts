import { describe, expect, it } from 'vitest';
import { downloadsSummary, formatDaysLeft } from './format';

describe('downloadsSummary', () => {
  it('agrees in number: one download, one day', () => {
    expect(downloadsSummary([{ day: '2026-11-21', count: 1 }])).toBe('1 download in the last 1 day, from Nov 21 to Nov 21. Busiest day: Nov 21 with 1 download.');
  });

  it('counts in the plural otherwise, with the year when the range spans two', () => {
    const days = [
      { day: '2025-12-31', count: 0 },
      { day: '2026-01-01', count: 1234 },
      { day: '2026-01-02', count: 2 },
    ];
    expect(downloadsSummary(days)).toBe(
      '1,236 downloads in the last 3 days, from Dec 31, 2025 to Jan 2, 2026. Busiest day: Jan 1 with 1,234 downloads.',
    );
    expect(downloadsSummary([{ day: '2026-11-21', count: 0 }, { day: '2026-11-22', count: 0 }])).toBe('0 downloads in the last 2 days, from Nov 21 to Nov 22.');
    expect(downloadsSummary([])).toBe('No download data yet.');
  });
});

describe('formatDaysLeft', () => {
  const now = Date.parse('2026-11-27T12:00:00.000Z');
  const DAY = 24 * 60 * 60 * 1000;
  it('counts whole days up, one day in the singular, and says when the purge is due', () => {
    expect(formatDaysLeft(new Date(now + 30 * DAY).toISOString(), now)).toBe('30 days left');
    expect(formatDaysLeft(new Date(now + 29 * DAY + 1).toISOString(), now)).toBe('30 days left');
    expect(formatDaysLeft(new Date(now + DAY).toISOString(), now)).toBe('1 day left');
    expect(formatDaysLeft(new Date(now + 1000).toISOString(), now)).toBe('1 day left');
    expect(formatDaysLeft(new Date(now).toISOString(), now)).toBe('Purged today');
    expect(formatDaysLeft(new Date(now - DAY).toISOString(), now)).toBe('Purged today');
    expect(formatDaysLeft('not a date', now)).toBe('Purged today');
  });
});
