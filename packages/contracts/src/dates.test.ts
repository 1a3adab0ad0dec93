import { describe, expect, it } from 'vitest';
import { addDays, dayInZone, isDay } from './dates';

describe('school days', () => {
  it('takes the day in Asia/Shanghai, not UTC', () => {
    // 2026-11-27 17:30 UTC is already 28 November in Beijing.
    expect(dayInZone(Date.UTC(2026, 10, 27, 17, 30))).toBe('2026-11-28');
    expect(dayInZone(Date.UTC(2026, 10, 27, 17, 30), 'UTC')).toBe('2026-11-27');
    expect(dayInZone(Date.UTC(2026, 10, 27, 17, 30), 'America/New_York')).toBe('2026-11-27');
  });

  it('adds calendar days and checks a day', () => {
    expect(addDays('2026-11-28', 7)).toBe('2026-12-05');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('2026-2-1')).toBe(false);
    expect(isDay('2028-02-29')).toBe(true);
  });
});
