/** The sample's days: a day is its number of days since 1970-01-01; the calendar is lib/utils/dates. */
import { addMonths, addYears as addCalendarYears, DAY_MS, isoDay, parseIsoDay, utcMonthStart } from "@/lib/utils/dates";

const dateOf = (day: number) => new Date(day * DAY_MS);
const dayNumber = (date: Date) => Math.floor(date.getTime() / DAY_MS);
export const yearOf = (day: number) => dateOf(day).getUTCFullYear();
/** 1 for January. */
export const monthOf = (day: number) => dateOf(day).getUTCMonth() + 1;

export const iso = (day: number) => isoDay(dateOf(day));

export function dayOf(value: string): number {
  const date = parseIsoDay(value);
  if (!date) throw new Error(`not a calendar date "YYYY-MM-DD": ${value}`);
  return dayNumber(date);
}

/** The anniversary `years` later (29 Feb → 28 Feb in a common year, 29 Feb in a leap year). */
export const addYearsToDay = (day: number, years: number) => dayNumber(addCalendarYears(dateOf(day), years));

/** The last day of the month `offset` months from the month of `day`. */
export const monthEnd = (day: number, offset: number) => dayNumber(addMonths(utcMonthStart(dateOf(day)), offset + 1)) - 1;

/** Months from the month of `day` to the month of `anchor` (0 = same month). */
export const monthsBefore = (day: number, anchor: number) => (yearOf(anchor) - yearOf(day)) * 12 + (monthOf(anchor) - monthOf(day));

const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
export function monthLabel(day: number): string {
  return `${MONTH_NAMES[monthOf(day) - 1]} ${yearOf(day)}`;
}
