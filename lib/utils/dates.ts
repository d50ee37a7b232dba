/**
 * The one calendar: every date the application computes or shows goes
 * through here. Days and months are UTC (a day starts at 00:00 UTC, a month
 * on the 1st), a plain date is a Date at 00:00 UTC or its "YYYY-MM-DD", and
 * the calendar is the proleptic Gregorian one of `Date`.
 *
 * Dates on the pages are shown in UTC and say so: the same text on the
 * server and in the browser (no hydration mismatch), and unambiguous for a
 * team spread over time zones.
 */
const DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", hourCycle: "h23", timeZone: "UTC" });

export const DAY_MS = 86_400_000;

export function formatDate(date: Date): string {
  return DATE.format(date);
}

export function formatDateTime(date: Date): string {
  return `${DATE_TIME.format(date)} UTC`;
}

/** YYYY-MM-DD of a Date in UTC: a plain date as its calendar day, "2025-03-01" (and null as null). */
export function isoDay(date: Date): string;
export function isoDay(date: Date | null): string | null;
export function isoDay(date: Date | null): string | null {
  return date === null ? null : date.toISOString().slice(0, 10);
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month of a year; `month` is 0 for January, as in `Date`. */
function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]!;
}

/** True when `value` is "YYYY-MM-DD" and names a real day: "2024-02-29" is one, "2023-02-29" and "2025-04-31" are not. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month - 1);
}

/** A calendar date "YYYY-MM-DD" as the moment its UTC day starts; null when it is not a real day. */
export function parseIsoDay(value: string): Date | null {
  return isCalendarDate(value) ? new Date(`${value}T00:00:00.000Z`) : null;
}

/** 00:00 UTC of the day `instant` is in. */
export function utcDayStart(instant: Date): Date {
  return new Date(Math.floor(instant.getTime() / DAY_MS) * DAY_MS);
}

/** 00:00 UTC on the 1st of the month `instant` is in. */
export function utcMonthStart(instant: Date): Date {
  const start = utcDayStart(instant);
  start.setUTCDate(1);
  return start;
}

/** The same moment `days` days away (a UTC day is always 24 hours). */
export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** Whole days from the UTC day of `from` to the UTC day of `to` (negative if earlier). */
export function daysBetween(from: Date, to: Date): number {
  return Math.round((utcDayStart(to).getTime() - utcDayStart(from).getTime()) / DAY_MS);
}

/**
 * The same day of the month and time of day `months` months away; a day the
 * target month does not have becomes its last day: 2023-01-31 + 1 month is
 * 2023-02-28, 2024-01-31 + 1 month 2024-02-29.
 */
export function addMonths(date: Date, months: number): Date {
  const index = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const result = new Date(date.getTime());
  result.setUTCFullYear(year, month, Math.min(date.getUTCDate(), daysInMonth(year, month)));
  return result;
}

/**
 * The anniversary `years` years away. 29 February lands on the 28th in a
 * common year and stays the 29th in a leap year: a shelf registered on
 * 2024-02-29 lapses three years later on 2027-02-28 (Rule 415(a)(5) counts
 * years, and the last day of February is the anniversary), a warrant issued
 * that day and lasting four years on 2028-02-29.
 */
export function addYears(date: Date, years: number): Date {
  return addMonths(date, 12 * years);
}

/** A wait in words, rounded up to the minute past the first one: "40 seconds", "1 minute", "15 minutes". */
export function formatWait(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return `${whole} second${whole === 1 ? "" : "s"}`;
  const minutes = Math.ceil(whole / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
