/** Calendar arithmetic on ISO days (YYYY-MM-DD, UTC), for seed records whose dates must agree. */

const DAY_MS = 86_400_000;
const toTime = (day: string) => Date.parse(`${day}T00:00:00Z`);
const toDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** `day` moved by `n` days (negative: earlier). */
export const addDays = (day: string, n: number): string => toDay(toTime(day) + n * DAY_MS);

/** Days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((toTime(to) - toTime(from)) / DAY_MS);

/** The earliest and latest of some ISO days (they sort as text). */
export const earliest = (...days: string[]): string => [...days].sort()[0]!;
export const latest = (...days: string[]): string => [...days].sort().at(-1)!;

export const isWeekend = (day: string): boolean => {
  const weekday = new Date(toTime(day)).getUTCDay();
  return weekday === 0 || weekday === 6;
};

/** Whether a day is worked: not a weekend, not one of `holidays`. */
export const isWorkingDay = (day: string, holidays: ReadonlySet<string> = new Set()): boolean =>
  !isWeekend(day) && !holidays.has(day);

/** The first working day on or after `day`. */
export function nextWorkingDay(day: string, holidays: ReadonlySet<string> = new Set()): string {
  let d = day;
  while (!isWorkingDay(d, holidays)) d = addDays(d, 1);
  return d;
}

/** The last day of `count` working days starting on `start` (a working day). */
export function addWorkingDays(
  start: string,
  count: number,
  holidays: ReadonlySet<string> = new Set(),
): string {
  let d = start;
  for (let left = count - 1; left > 0; ) {
    d = addDays(d, 1);
    if (isWorkingDay(d, holidays)) left--;
  }
  return d;
}

/** Working days from `start` to `end`, both included. */
export function workingDaysBetween(
  start: string,
  end: string,
  holidays: ReadonlySet<string> = new Set(),
): number {
  let count = 0;
  for (let d = start; d <= end; d = addDays(d, 1)) if (isWorkingDay(d, holidays)) count++;
  return count;
}

/** First and last day of a month (`month` 1–12). */
export function monthBounds(year: number, month: number): { start: string; end: string } {
  const start = `${year}-${String(month).padStart(2, '0')}-01`;
  return { start, end: toDay(Date.UTC(year, month, 0)) };
}

/** Easter Sunday (Gregorian, anonymous algorithm): the movable feasts hang on it. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Public holidays of a country and year (national ones only). */
export function publicHolidays(
  country: 'FR' | 'BE' | 'DE',
  year: number,
): { holiday_date: string; description: string }[] {
  const easter = easterSunday(year);
  const fixed = (mmdd: string, description: string) => ({
    holiday_date: `${year}-${mmdd}`,
    description,
  });
  const movable = (offset: number, description: string) => ({
    holiday_date: addDays(easter, offset),
    description,
  });
  const days = {
    FR: [
      fixed('01-01', "Jour de l'an"),
      movable(1, 'Lundi de Pâques'),
      fixed('05-01', 'Fête du Travail'),
      fixed('05-08', 'Victoire 1945'),
      movable(39, 'Ascension'),
      movable(50, 'Lundi de Pentecôte'),
      fixed('07-14', 'Fête nationale'),
      fixed('08-15', 'Assomption'),
      fixed('11-01', 'Toussaint'),
      fixed('11-11', 'Armistice 1918'),
      fixed('12-25', 'Noël'),
    ],
    BE: [
      fixed('01-01', 'Nouvel An'),
      movable(1, 'Lundi de Pâques'),
      fixed('05-01', 'Fête du Travail'),
      movable(39, 'Ascension'),
      movable(50, 'Lundi de Pentecôte'),
      fixed('07-21', 'Fête nationale'),
      fixed('08-15', 'Assomption'),
      fixed('11-01', 'Toussaint'),
      fixed('11-11', 'Armistice'),
      fixed('12-25', 'Noël'),
    ],
    DE: [
      fixed('01-01', 'Neujahr'),
      movable(-2, 'Karfreitag'),
      movable(1, 'Ostermontag'),
      fixed('05-01', 'Tag der Arbeit'),
      movable(39, 'Christi Himmelfahrt'),
      movable(50, 'Pfingstmontag'),
      fixed('10-03', 'Tag der Deutschen Einheit'),
      fixed('12-25', '1. Weihnachtstag'),
      fixed('12-26', '2. Weihnachtstag'),
    ],
  }[country];
  return days.sort((a, b) => a.holiday_date.localeCompare(b.holiday_date));
}
