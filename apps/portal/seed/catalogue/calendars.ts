/**
 * Calendar data the production and support seeds share: French public holidays and plant
 * closures of 2026 ([name, first day, last day, recurring every year on the same dates]).
 */
export const HOLIDAYS_2026 = [
  ['Jour de l’An', '2026-01-01', '2026-01-01', true],
  ['Lundi de Pâques', '2026-04-06', '2026-04-06', false],
  ['Fête du Travail', '2026-05-01', '2026-05-01', true],
  ['Victoire 1945', '2026-05-08', '2026-05-08', true],
  ['Ascension', '2026-05-14', '2026-05-14', false],
  ['Pont de l’Ascension', '2026-05-15', '2026-05-15', false],
  ['Lundi de Pentecôte', '2026-05-25', '2026-05-25', false],
  ['Fête nationale', '2026-07-14', '2026-07-14', true],
  ['Fermeture estivale', '2026-08-03', '2026-08-21', false],
  ['Toussaint', '2026-11-01', '2026-11-01', true],
  ['Armistice 1918', '2026-11-11', '2026-11-11', true],
  ['Fermeture de fin d’année', '2026-12-24', '2027-01-01', false],
] as const;

/** A working week: the days worked and the same hours on each ([from, to], hours after midnight). */
export interface Week {
  days: readonly string[];
  hours: readonly (readonly [number, number])[];
}

/** A week as `working_hours` lines (weekday, hour_from, hour_to). */
export function weekLines(week: Week) {
  return week.days.flatMap((weekday) =>
    week.hours.map(([from, to]) => ({ weekday, hour_from: String(from), hour_to: String(to) })),
  );
}

const WEEKDAY_OF = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** The demo's offset from UTC (Paris in winter); its SLA clocks are read in local time. */
const LOCAL_OFFSET_MS = 3_600_000;

/**
 * The moment `hours` working hours after `from`, counted in `lines` (working hours by weekday)
 * and skipping `closed` days ([first, last] YYYY-MM-DD): how an SLA deadline is computed
 * (ERPNext and Odoo count only the calendar's hours). Without lines, hours run round the clock.
 */
export function addWorkingHours(
  from: string,
  hours: number,
  lines: readonly Record<string, unknown>[],
  closed: readonly (readonly [string, string])[] = [],
): string {
  const start = Date.parse(from);
  if (lines.length === 0) return new Date(start + hours * 3_600_000).toISOString();
  let remaining = hours * 3_600_000;
  let local = start + LOCAL_OFFSET_MS; // the clock as read in local time, in ms
  for (let days = 0; days < 800; days++) {
    const midnight = Math.floor(local / 86_400_000) * 86_400_000;
    const day = new Date(midnight).toISOString().slice(0, 10);
    const weekday = WEEKDAY_OF[new Date(midnight).getUTCDay()];
    if (!closed.some(([first, last]) => first <= day && day <= last)) {
      const intervals = lines
        .filter((l) => l.weekday === weekday)
        .map((l) => [Number(l.hour_from), Number(l.hour_to)] as const)
        .sort((a, b) => a[0] - b[0]);
      for (const [fromHour, toHour] of intervals) {
        const open = midnight + fromHour * 3_600_000;
        const close = midnight + toHour * 3_600_000;
        if (local >= close) continue;
        const begin = Math.max(local, open);
        if (close - begin >= remaining)
          return new Date(begin + remaining - LOCAL_OFFSET_MS).toISOString();
        remaining -= close - begin;
        local = close;
      }
    }
    local = midnight + 86_400_000;
  }
  throw new Error('addWorkingHours: a calendar without working hours');
}
