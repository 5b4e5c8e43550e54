import { describe, expect, it } from 'vitest';
import { addWorkingHours, weekLines } from './calendars';

const OFFICE = weekLines({
  days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
  hours: [
    [9, 12.5],
    [13.5, 18],
  ],
});

describe('addWorkingHours (SLA deadlines in a calendar’s hours)', () => {
  it('counts only the hours worked: lunch, nights and weekends stop the clock', () => {
    // Friday 6 March 2026, 16:00 in Paris (15:00 UTC) + 4 working hours: 2 on Friday, then
    // Monday 9:00 → 11:00 Paris.
    expect(addWorkingHours('2026-03-06T15:00:00.000Z', 4, OFFICE)).toBe('2026-03-09T10:00:00.000Z');
    // Monday 12:00 + 1 h: half an hour before lunch, half an hour after it.
    expect(addWorkingHours('2026-03-09T11:00:00.000Z', 1, OFFICE)).toBe('2026-03-09T13:00:00.000Z');
    // Received on Saturday: the clock starts on Monday at 9:00.
    expect(addWorkingHours('2026-03-07T09:00:00.000Z', 0.5, OFFICE)).toBe(
      '2026-03-09T08:30:00.000Z',
    );
  });

  it('skips closed days, and runs round the clock without a calendar', () => {
    // Thursday 30 April 17:00 (the helper reads local time as UTC+1) + 2 h: 1 h on Thursday,
    // 1 May closed, then Monday 4 May 10:00.
    expect(
      addWorkingHours('2026-04-30T16:00:00.000Z', 2, OFFICE, [['2026-05-01', '2026-05-01']]),
    ).toBe('2026-05-04T09:00:00.000Z');
    expect(addWorkingHours('2026-03-07T09:00:00.000Z', 30, [])).toBe('2026-03-08T15:00:00.000Z');
  });
});
