/** The sample's amounts: money in cents (numbers), prices in micro-dollars. */

export const DOLLAR = 100; // cents
export const MILLION = 1_000_000 * DOLLAR;

/** floor(a × b ÷ d) exactly, for integers whose product may pass 2^53. */
export function mulDiv(a: number, b: number, d: number): number {
  return Number((BigInt(a) * BigInt(b)) / BigInt(d));
}

/** Dollars → micro-dollars, rounded to $0.0001 (never below $0.0001). */
export function toMicros(dollars: number): number {
  return Math.max(100, Math.round(dollars * 10_000) * 100);
}

export const roundTo = (value: number, step: number) => Math.max(step, Math.round(value / step) * step);
