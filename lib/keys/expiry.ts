import { addDays, isoDay } from "@/lib/utils/dates";

/** The furthest expiry a key takes: further than that, a key that never expires says what is meant. */
export const LONGEST_KEY_LIFETIME_YEARS = 100;

/** The first day a new expiry may name, "YYYY-MM-DD": tomorrow (UTC), since a key expires when its day ends. */
export function earliestKeyExpiryDay(now = new Date()): string {
  return isoDay(addDays(now, 1));
}

/** The last day an expiry may name, "YYYY-MM-DD": this day, LONGEST_KEY_LIFETIME_YEARS on (a 29 February becomes the 28th). */
export function latestKeyExpiryDay(now = new Date()): string {
  const day = isoDay(now).slice(5).replace("02-29", "02-28");
  return `${now.getUTCFullYear() + LONGEST_KEY_LIFETIME_YEARS}-${day}`;
}

/** A key's expiry as the date field holds it: the last day it works ("YYYY-MM-DD"), or "" when it does not expire. */
export function expiresOnText(expiresAt: Date | null): string {
  return expiresAt ? isoDay(new Date(expiresAt.getTime() - 1)) : "";
}
