import { describe, expect, it } from 'vitest';
import { downloadsSummary } from './format';

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
