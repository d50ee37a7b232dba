/**
 * Trial accounts count unique tickers per endpoint per day; the day ends at
 * midnight in America/Chicago (the US market's clock), whatever the season.
 */
const TIME_ZONE = "America/Chicago";
const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });
const hourFormat = new Intl.DateTimeFormat("en-GB", { timeZone: TIME_ZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** The Chicago calendar day of an instant, as YYYY-MM-DD. */
export function chicagoDay(instant: Date): string {
  return dayFormat.format(instant);
}

/** The instant the Chicago day containing `instant` ends (next local midnight). */
export function chicagoDayEnd(instant: Date): Date {
  const [y, m, d] = chicagoDay(instant).split("-").map(Number) as [number, number, number];
  // Local midnight is 05:00 or 06:00 UTC depending on daylight saving time.
  for (const offsetHours of [5, 6]) {
    const candidate = new Date(Date.UTC(y, m - 1, d + 1, offsetHours));
    if (hourFormat.format(candidate) === "00:00") return candidate;
  }
  throw new Error("Could not find the end of the Chicago day");
}
