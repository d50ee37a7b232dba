/**
 * Dates on the pages are shown in UTC and say so: the same text on the
 * server and in the browser (no hydration mismatch), and unambiguous for a
 * team spread over time zones.
 */
const DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const DATE_TIME = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", hourCycle: "h23", timeZone: "UTC" });

export function formatDate(date: Date): string {
  return DATE.format(date);
}

export function formatDateTime(date: Date): string {
  return `${DATE_TIME.format(date)} UTC`;
}

/** YYYY-MM-DD of a Date in UTC. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
