import { describe, expect, it } from 'vitest';
import { formatZoned, formatZonedShort, fromZonedInput, futureTimeError, toZonedInput, zoneLabel, zoneOffsetMinutes, zoneOffsetName } from './zoned-time';

describe('fromZonedInput: a wall time in a zone → UTC', () => {
  it('reads the time on the zone’s clock, winter and summer', () => {
    expect(fromZonedInput('2026-12-01T09:30', 'Europe/Paris')).toBe('2026-12-01T08:30:00.000Z');
    expect(fromZonedInput('2026-07-01T09:30', 'Europe/Paris')).toBe('2026-07-01T07:30:00.000Z');
    expect(fromZonedInput('2026-12-01T09:30', 'America/New_York')).toBe('2026-12-01T14:30:00.000Z');
    expect(fromZonedInput('2026-12-01T09:30', 'Asia/Kolkata')).toBe('2026-12-01T04:00:00.000Z');
    expect(fromZonedInput('2026-12-01T09:30', 'UTC')).toBe('2026-12-01T09:30:00.000Z');
  });

  it('takes seconds when the value has them', () => {
    expect(fromZonedInput('2026-12-01T09:30:45', 'Europe/Paris')).toBe('2026-12-01T08:30:45.000Z');
    expect(fromZonedInput('2026-12-01T09:30:60', 'Europe/Paris')).toBeNull();
  });

  it('crosses the date line: a morning in Auckland is the evening before in UTC', () => {
    expect(fromZonedInput('2027-01-01T06:00', 'Pacific/Auckland')).toBe('2026-12-31T17:00:00.000Z');
  });

  it('moves a time the clocks skip past the gap (Paris, 29 March 2026, 02:00 → 03:00)', () => {
    const iso = fromZonedInput('2026-03-29T02:30', 'Europe/Paris');
    expect(iso).toBe('2026-03-29T01:30:00.000Z');
    expect(toZonedInput(iso, 'Europe/Paris')).toBe('2026-03-29T03:30');
  });

  it('takes the first of a time the clocks pass twice (Paris, 25 October 2026, 03:00 → 02:00)', () => {
    expect(fromZonedInput('2026-10-25T02:30', 'Europe/Paris')).toBe('2026-10-25T00:30:00.000Z');
    // Just before and after the change, each reads once.
    expect(fromZonedInput('2026-10-25T01:59', 'Europe/Paris')).toBe('2026-10-24T23:59:00.000Z');
    expect(fromZonedInput('2026-10-25T03:00', 'Europe/Paris')).toBe('2026-10-25T02:00:00.000Z');
  });

  it('refuses what is not a date and time, and days the calendar does not have', () => {
    expect(fromZonedInput('', 'UTC')).toBeNull();
    expect(fromZonedInput('2026-12-01', 'UTC')).toBeNull();
    expect(fromZonedInput('2026-12-01T9:30', 'UTC')).toBeNull();
    expect(fromZonedInput('2026-02-31T09:30', 'UTC')).toBeNull();
    expect(fromZonedInput('2026-12-01T24:00', 'UTC')).toBeNull();
  });
});

describe('toZonedInput: UTC → the picker’s value in a zone', () => {
  it('is the inverse of fromZonedInput for times that exist', () => {
    for (const zone of ['Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Pacific/Auckland', 'UTC']) {
      for (const wall of ['2026-01-15T00:00', '2026-06-30T23:59', '2026-11-01T12:05']) {
        expect(toZonedInput(fromZonedInput(wall, zone), zone)).toBe(wall);
      }
    }
  });

  it('is empty for no time or a broken one', () => {
    expect(toZonedInput(null, 'UTC')).toBe('');
    expect(toZonedInput('soon', 'UTC')).toBe('');
  });
});

describe('naming the zone', () => {
  it('gives the offset at that instant, with minutes when there are some', () => {
    const winter = Date.parse('2026-12-01T12:00:00Z');
    const summer = Date.parse('2026-07-01T12:00:00Z');
    expect(zoneOffsetMinutes(winter, 'Europe/Paris')).toBe(60);
    expect(zoneOffsetMinutes(summer, 'Europe/Paris')).toBe(120);
    expect(zoneOffsetName(winter, 'America/New_York')).toBe('GMT-5');
    expect(zoneOffsetName(winter, 'Asia/Kolkata')).toBe('GMT+5:30');
    expect(zoneOffsetName(winter, 'UTC')).toBe('GMT');
    expect(zoneLabel('America/Los_Angeles', summer)).toBe('America/Los Angeles (GMT-7)');
  });

  it('formats an instant on the zone’s clock', () => {
    expect(formatZoned('2026-12-01T08:30:00Z', 'Europe/Paris')).toBe('Tue, Dec 1, 2026, 9:30 AM');
    expect(formatZoned('2026-12-01T08:30:00Z', 'America/New_York')).toBe('Tue, Dec 1, 2026, 3:30 AM');
  });

  it('leaves the year out of the short form in the current year, on the zone’s calendar', () => {
    const now = Date.parse('2026-12-31T23:30:00Z');
    expect(formatZonedShort('2026-12-31T22:30:00Z', 'America/New_York', now)).toBe('Dec 31, 5:30 PM');
    // Already 2027 in Paris: a time in 2026 there gets its year, one in 2027 does not.
    expect(formatZonedShort('2026-12-31T22:30:00Z', 'Europe/Paris', now)).toBe('Dec 31, 2026, 11:30 PM');
    expect(formatZonedShort('2027-01-02T08:00:00Z', 'Europe/Paris', now)).toBe('Jan 2, 9:00 AM');
  });
});

describe('futureTimeError', () => {
  const now = Date.parse('2026-12-01T08:30:00Z');
  it('refuses an empty, impossible or past time, and a time equal to now', () => {
    expect(futureTimeError('', 'UTC', now)).toBe('Choose a publish time');
    expect(futureTimeError('2026-02-30T10:00', 'UTC', now)).toBe('The publish time is not a valid date and time');
    expect(futureTimeError('2026-12-01T09:29', 'Europe/Paris', now)).toBe('The publish time must be in the future');
    expect(futureTimeError('2026-12-01T09:30', 'Europe/Paris', now)).toBe('The publish time must be in the future');
  });
  it('accepts a minute later', () => {
    expect(futureTimeError('2026-12-01T09:31', 'Europe/Paris', now)).toBeUndefined();
  });
});
