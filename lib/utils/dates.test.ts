import { describe, expect, it } from "vitest";
import { addDays, addMonths, addYears, daysBetween, isCalendarDate, isoDay, parseIsoDay, utcDayStart, utcMonthStart } from "./dates";

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const years = (iso: string, n: number) => isoDay(addYears(day(iso), n));
const months = (iso: string, n: number) => isoDay(addMonths(day(iso), n));

describe("the calendar", () => {
  it("starts a UTC day at midnight and a month on the 1st, whatever the time of day", () => {
    expect(utcDayStart(new Date("2025-03-01T23:59:59.999Z")).toISOString()).toBe("2025-03-01T00:00:00.000Z");
    expect(utcDayStart(new Date("2025-03-01T00:00:00.000Z")).toISOString()).toBe("2025-03-01T00:00:00.000Z");
    expect(utcDayStart(new Date("1969-12-31T12:00:00Z")).toISOString()).toBe("1969-12-31T00:00:00.000Z");
    expect(utcMonthStart(new Date("2024-02-29T18:30:00Z")).toISOString()).toBe("2024-02-01T00:00:00.000Z");
    expect(utcMonthStart(new Date("2025-12-31T23:59:59Z")).toISOString()).toBe("2025-12-01T00:00:00.000Z");
    expect(isoDay(new Date("2025-03-01T23:59:00Z"))).toBe("2025-03-01");
  });

  it("keeps 29 February in a leap year and makes it the 28th in a common one", () => {
    expect(years("2024-02-29", 3)).toBe("2027-02-28");
    expect(years("2024-02-29", 4)).toBe("2028-02-29");
    expect(years("2024-02-29", -1)).toBe("2023-02-28");
    expect(years("2024-02-29", -4)).toBe("2020-02-29");
    expect(years("2024-02-29", -2)).toBe("2022-02-28");
    expect(years("2024-02-29", 76)).toBe("2100-02-28");
    expect(years("2025-06-15", -2)).toBe("2023-06-15");
    expect(years("2023-02-28", 1)).toBe("2024-02-28");
    expect(years("2024-03-01", 3)).toBe("2027-03-01");
  });

  it("adds months, a day the month lacks becoming its last day", () => {
    expect(months("2023-01-31", 1)).toBe("2023-02-28");
    expect(months("2024-01-31", 1)).toBe("2024-02-29");
    expect(months("2025-03-31", 1)).toBe("2025-04-30");
    expect(months("2025-03-31", -1)).toBe("2025-02-28");
    expect(months("2025-11-15", 2)).toBe("2026-01-15");
    expect(months("2025-01-15", -13)).toBe("2023-12-15");
    expect(addMonths(new Date("2025-01-31T10:20:30Z"), 1).toISOString()).toBe("2025-02-28T10:20:30.000Z");
  });

  it("counts whole days between UTC days", () => {
    expect(daysBetween(new Date("2025-03-01T23:00:00Z"), new Date("2025-03-02T01:00:00Z"))).toBe(1);
    expect(daysBetween(day("2024-03-01"), day("2024-02-28"))).toBe(-2);
    expect(isoDay(addDays(day("2024-02-28"), 1))).toBe("2024-02-29");
    expect(isoDay(addDays(day("2024-03-01"), -1))).toBe("2024-02-29");
  });

  it("tells a calendar date from text that only looks like one", () => {
    const real = ["2024-02-29", "2000-02-29", "2025-12-31", "0001-01-01"];
    const notReal = ["2023-02-29", "1900-02-29", "2025-04-31", "2025-02-30", "2025-13-01", "2025-00-10", "2025-01-00", "2025-1-01", "2025-01-01T00:00:00Z", ""];
    expect(real.filter(isCalendarDate)).toEqual(real);
    expect(notReal.filter(isCalendarDate)).toEqual([]);
    expect(parseIsoDay("2024-02-29")?.toISOString()).toBe("2024-02-29T00:00:00.000Z");
    expect(parseIsoDay("2025-02-30")).toBeNull();
  });
});
