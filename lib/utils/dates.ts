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

/** A wait in words, rounded up to the minute past the first one: "40 seconds", "1 minute", "15 minutes". */
export function formatWait(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return `${whole} second${whole === 1 ? "" : "s"}`;
  const minutes = Math.ceil(whole / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
