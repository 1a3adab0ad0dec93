import { describe, expect, it } from 'vitest';
import { addDays, dayInZone, dayStartInZone, isDay } from './dates';

describe('school days', () => {
  it('takes the day in Asia/Shanghai, not UTC', () => {
    // 2026-11-27 17:30 UTC is already 28 November in Beijing.
    expect(dayInZone(Date.UTC(2026, 10, 27, 17, 30))).toBe('2026-11-28');
    expect(dayInZone(Date.UTC(2026, 10, 27, 17, 30), 'UTC')).toBe('2026-11-27');
    expect(dayInZone(Date.UTC(2026, 10, 27, 17, 30), 'America/New_York')).toBe('2026-11-27');
  });

  it("starts a day at the school's midnight, summer time included", () => {
    expect(dayStartInZone('2026-03-02')).toBe('2026-03-01T16:00:00.000Z');
    expect(dayStartInZone('2026-03-02', 'UTC')).toBe('2026-03-02T00:00:00.000Z');
    expect(dayStartInZone('2026-01-15', 'America/New_York')).toBe('2026-01-15T05:00:00.000Z');
    expect(dayStartInZone('2026-07-01', 'America/New_York')).toBe('2026-07-01T04:00:00.000Z');
    expect(dayStartInZone('2026-07-01', 'Europe/London')).toBe('2026-06-30T23:00:00.000Z');
    // The day the clocks go forward in New York (at 2 a.m.) still starts at 0 a.m. standard time.
    expect(dayStartInZone('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
    expect(dayInZone(dayStartInZone('2026-11-28', 'Asia/Tokyo'), 'Asia/Tokyo')).toBe('2026-11-28');
  });

  it('adds calendar days and checks a day', () => {
    expect(addDays('2026-11-28', 7)).toBe('2026-12-05');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-2-1')).toBe(false);
    expect(isDay('2028-02-29')).toBe(true);
  });
});
